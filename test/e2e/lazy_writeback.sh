#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Written pages go home lazily (issue 10, item 2): what a paged launch
# whose ranges all have frame sets of their own writes stays dirty in the
# kept frames until the host needs it (a read, the next launch refilling
# those frames, release); a launch whose ranges reuse sets writes home at
# once (paged.c: a later launch would block on the dirty pages).
# Iterative examples at budgets below their data, with reuse of kept
# frames (default) and without it (VAST_RESIDENT=0: every written page
# goes home at the end of its launch). Both outputs must equal the
# native run's byte for byte, and with reuse the launches must read
# fewer bytes back (d2h in VAST_STATS, which counts the pages written
# home later too: -lt) with the paged kernels over all the data
# (`paged`: one range a launch). At budgets below the data, where ranges
# reuse frame sets, only exactness is checked (any): the launches that do
# fit their sets leave pages that go home whole later, a few bytes more
# or less than the eager write-back of the others.
#   repeat           one kernel rewriting one buffer 20 times;
#   iterate          two kernels and an indirect gather, the host
#                    rewriting the index buffer between rounds;
#   jacobi2d, fdtd2d the iterative benchmarks (bench/iterative);
#   mersennetwister  two launches writing one buffer.
#   VAST_BUILD=build bash test/e2e/lazy_writeback.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "lazy_writeback: FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-lazy.XXXXXX") || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS VAST_RESIDENT
sum() { # field, log: the field summed over the kernels' lines
	sed -n "s/^vast: kernel .* $1=\([0-9]*\).*/\1/p" "$2" | awk '{ s += $1 } END { print s + 0 }'
}
check() { # -lt|-le|any, example, budget (or paged), args...
	local rel=$1 ex=$2 mem=$3
	shift 3
	local bin=$tmp/vast/$ex/$ex d2h=()
	local how=VAST_DEVICE_MEM=$mem
	[ "$mem" = paged ] && how=VAST_MODE=paged
	for r in 1 0; do
		env $how VAST_RESIDENT=$r VAST_STATS=kv "$bin" -q -o "$tmp/vast.out" "$@" \
			>"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; fail "$ex $mem VAST_RESIDENT=$r: the run failed"; }
		cmp -s "$tmp/$ex.native" "$tmp/vast.out" ||
			fail "$ex $mem VAST_RESIDENT=$r: output differs from the native run"
		grep -q '^vast: kernel .* ranges=[1-9]' "$tmp/log" || fail "$ex $mem: not paged"
		d2h+=("$(sum d2h "$tmp/log")")
	done
	[ "$rel" = any ] || [ "${d2h[0]}" "$rel" "${d2h[1]}" ] ||
		fail "$ex $mem: d2h=${d2h[0]} with lazy write-back, not $rel ${d2h[1]} without"
	echo "lazy_writeback: $ex $mem: identical; d2h ${d2h[1]} -> ${d2h[0]}"
}
build() { # example, args...
	local ex=$1
	shift
	VAST_E2E_BUILD_ONLY=$tmp bash "$here/diff.sh" "$ex" >/dev/null 2>&1 || fail "building $ex failed"
	"$tmp/native/$ex/$ex" -q -o "$tmp/$ex.native" "$@" >/dev/null 2>&1 || fail "$ex: the native run failed"
}
build repeat 65536 20
check -lt repeat paged 65536 20
check any repeat 384K 65536 20
check any repeat 256K 65536 20
build iterate 256 256 30
check -lt iterate paged 256 256 30
check any iterate 200K 256 256 30
build jacobi2d 256 20
check any jacobi2d 256K 256 20
check any jacobi2d 128K 256 20
build fdtd2d 256 256 20
check any fdtd2d 384K 256 256 20
check any fdtd2d 192K 256 256 20
build mersennetwister 262144 256
check -lt mersennetwister paged 262144 256
check any mersennetwister 512K 262144 256
echo "lazy_writeback: PASS"
