#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# plan_check.sh - the move list planner (runtime/plan/moves.c) pinned to
# what the paged executor does: every run below is made with
# VAST_PLAN_CHECK=1, which plans each paged launch's moves again from its
# ranges and fails the launch where a range sent a page from the host,
# or put a page it wrote, otherwise than the plan says. Each output must
# equal the native run's, and every launch must have been checked.
#
#   fdtd2d    three kernels a step, a buffer kept whole, the hold (6M),
#             pages forwarded between ranges in flight, at pipeline
#             depths 3 and 2
#   jacobi2d  a ping-pong stencil in 4 KiB pages, 4 sets
#   spmv      planned by the inspector, a vector every range reads
#   stencil2d read-only halo pages shared with the next range
#   mm2       two launches, each keeping whole the buffer every range
#             reads (B, then C) while the others page beside it
#   fdtd2d    under VAST_MODE=paged: ranges that all have sets of their
#             own leave their written pages dirty in the frames, and the
#             next launches find them there (VAST_PLAN_DUMP says so)
#   vadd      split over PoCL's two CPU devices, each share's window a
#             paged launch (VAST_MODE=paged: no resident shares)
#   fuse      test/e2e/fuse's chain: two kernels fused range by range
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "plan_check: FAIL: $*" >&2; exit 1; }
: "${VAST_BUILD:?set VAST_BUILD}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-plan-check.XXXXXX") || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_FAIL_RANGE VAST_LOG VAST_PINNED VAST_FOOTPRINTS \
	VAST_RESIDENT VAST_HOLD VAST_FUSE VAST_DEVICES VAST_PLAN_DUMP
export VAST_CACHE_DIR=$tmp/cache
for ex in fdtd2d jacobi2d spmv stencil2d vadd mm2; do
	VAST_E2E_BUILD_ONLY=$tmp bash "$here/diff.sh" $ex >/dev/null 2>&1 || fail "building $ex failed"
done

# check LABEL NATIVE VAST ENV... -- ARGS...: the vastcc build under the
# check against the native build's output.
check() {
	local label=$1 native=$2 vast=$3
	shift 3
	local env=()
	while [ "$1" != -- ]; do env+=("$1"); shift; done
	shift
	"$native" -q -o "$tmp/native.out" "$@" >/dev/null 2>&1 || fail "$label: the native run failed"
	# (in a sanitizer build, leak checks on: the record must not leak)
	env "${env[@]}" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1" \
		VAST_PLAN_CHECK=1 VAST_LOG=debug VAST_STATS=kv "$vast" -q -o "$tmp/vast.out" \
		"$@" >"$tmp/log" 2>&1 || { grep -m 5 'planned in from' "$tmp/log" >&2; tail -3 "$tmp/log" >&2;
		fail "$label: the run failed"; }
	cmp -s "$tmp/native.out" "$tmp/vast.out" || fail "$label: output differs from the native run"
	local launches checked
	launches=$(sed -n 's/^vast: kernel .* paged=\([0-9]*\) split=\([0-9]*\).*/\1 \2/p' "$tmp/log" |
		awk '{ s += $1 + $2 } END { print s + 0 }')
	checked=$(grep -c "the plan moves" "$tmp/log")
	[ "$launches" -gt 0 ] && [ "$checked" -ge "$launches" ] ||
		fail "$label: $checked launches checked of $launches paged"
	echo "plan_check: $label: $checked launches as planned"
}
b=$tmp
for depth in 3 2; do
	check "fdtd2d 6M depth $depth" "$b/native/fdtd2d/fdtd2d" "$b/vast/fdtd2d/fdtd2d" \
		VAST_DEVICE_MEM=6M VAST_PAGE_SIZE=4096 VAST_PIPELINE=$depth -- 1008 1008 12
done
grep -q "the hold keeps" "$tmp/log" || fail "fdtd2d 6M: no hold"
grep -q "forwarded from range" "$tmp/log" || fail "fdtd2d 6M: nothing forwarded"
check "jacobi2d 25%, 4K pages" "$b/native/jacobi2d/jacobi2d" "$b/vast/jacobi2d/jacobi2d" \
	VAST_DEVICE_MEM=25% VAST_PAGE_SIZE=4K VAST_PIPELINE=4 -- 512 5
check "spmv 10%" "$b/native/spmv/spmv" "$b/vast/spmv/spmv" VAST_DEVICE_MEM=10% --
check "stencil2d 25%" "$b/native/stencil2d/stencil2d" "$b/vast/stencil2d/stencil2d" \
	VAST_DEVICE_MEM=25% --
check "mm2 50%" "$b/native/mm2/mm2" "$b/vast/mm2/mm2" VAST_DEVICE_MEM=50% -- 192
[ "$(grep -c "kept whole on the device" "$tmp/log")" = 2 ] ||
	fail "mm2 50%: want each launch to keep its B whole"
check "fdtd2d paged, lazy" "$b/native/fdtd2d/fdtd2d" "$b/vast/fdtd2d/fdtd2d" VAST_MODE=paged \
	VAST_PLAN_DUMP="$tmp/dump" -- 256 256 4
grep -q "^dirty " "$tmp/dump" && grep -q "^state dirty " "$tmp/dump" ||
	fail "fdtd2d paged: no page left dirty, or none found dirty"
check "vadd split" "$b/native/vadd/vadd" "$b/vast/vadd/vadd" VAST_DEVICE_MEM=50% \
	VAST_MODE=paged POCL_DEVICES="pthread pthread" VAST_DEVICES=all --

mkdir "$tmp/fuse" && cp "$here"/fuse/* "$here/../rt/rt_host.h" "$tmp/fuse/" && cd "$tmp/fuse" ||
	fail "copying fuse"
cc -O1 -w -o plain host.c -lOpenCL || fail "cc fuse"
"$VAST_BUILD/bin/vastcc" -O1 -w -o app host.c fuse.cl || fail "vastcc fuse"
./plain chain ref.bin || fail "fuse chain: the native run failed"
VAST_DEVICE_MEM=25% VAST_PLAN_CHECK=1 VAST_LOG=info VAST_STATS=kv ./app chain out.bin >log 2>&1 ||
	{ tail -3 log >&2; fail "fuse chain: the run failed"; }
cmp -s ref.bin out.bin || fail "fuse chain: output differs"
grep -q "^vast: kernel transform .*fused=1" log || fail "fuse chain: not fused"
grep -q "kernel 'produce': the plan moves" log || fail "fuse chain: not checked"
echo "plan_check: fuse chain: as planned"
echo "plan_check: PASS"
