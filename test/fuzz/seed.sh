#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fills a corpus directory with the real kernels of the tree: every
# test/lit/*.cl and examples/**/*.cl, each under a name unique to its path.
# The lit inputs that crash clang itself (parse-clang-crash-*) are among
# them: they keep vast-fuzz's answer to libclang's crash leaks tested
# (fuzz_pipeline.c).
#   usage: test/fuzz/seed.sh CORPUS_DIR
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: seed.sh CORPUS_DIR}
mkdir -p "$out"
n=0
while IFS= read -r -d '' f; do
	rel=${f#"$src"/}
	cp "$f" "$out/${rel//\//_}"
	n=$((n + 1))
done < <(find "$src/test/lit" "$src/examples" -name '*.cl' -not -path '*/Inputs/*' -print0 | sort -z)
echo "seed.sh: $n kernels in $out"
