#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The fuzz target's part of the test suite, against a -DVAST_FUZZ=ON build:
#   1. every reproducer in test/fuzz/regress/, replayed;
#   2. a short campaign from the seed corpus (VAST_FUZZ_SECONDS, 60 s),
#      with libFuzzer's random seed fixed (VAST_FUZZ_SEED, 1): the test
#      suite explores the same inputs on every run, so a finding there
#      comes from a change, not from luck (long campaigns: README.md);
#   3. the PoCL oracle over the seeds and the reproducers (but the
#      analysis-time ones, timeout-*): every generated
#      program builds wherever its input does (VAST_FUZZ_POCL=1, no
#      mutation).
# Prints PASS/FAIL lines and ends with "N passed, N failed".
#   usage: test/fuzz/smoke.sh BUILD_DIR
set -u
build=$(cd "${1:?usage: smoke.sh BUILD_DIR}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
fuzz=$build/bin/vast-fuzz
secs=${VAST_FUZZ_SECONDS:-60}
seed=${VAST_FUZZ_SEED:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# LeakSanitizer stays on; PoCL's and the ICD loader's own leaks are
# suppressed by name (test/lsan.supp).
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$here/../lsan.supp:print_suppressions=0}
passed=0
failed=0
step() { # name, command...
	local name=$1
	shift
	if "$@" >"$work/log" 2>&1; then
		echo "PASS: fuzz :: $name"; passed=$((passed + 1))
	else
		tail -n 60 "$work/log"
		echo "FAIL: fuzz :: $name"; failed=$((failed + 1))
	fi
}

"$here/seed.sh" "$work/seed" >/dev/null
mkdir -p "$work/corpus" "$work/art"
step regress "$fuzz" -artifact_prefix="$work/art/" "$here"/regress/*
step "campaign ${secs}s" "$fuzz" -dict="$here/opencl.dict" -timeout=30 \
	-seed="$seed" -max_total_time="$secs" -artifact_prefix="$work/art/" "$work/corpus" "$work/seed"
# Not the analysis-time reproducers (timeout-*): they are large on purpose,
# and PoCL's own build of one (a 10,000-term sum, twice: the input and the
# generated program) takes minutes and more than libFuzzer's 2 GB under
# ASan, which says nothing of vastcc; the regress step above replays them.
for f in "$here"/regress/*; do
	case $(basename "$f") in timeout-*) ;; *) cp "$f" "$work/seed/" ;; esac
done
step "pocl oracle over the seeds and regress/" env VAST_FUZZ_POCL=1 "$fuzz" -runs=0 \
	-artifact_prefix="$work/art/" "$work/seed"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
