#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Planning from footprint descriptors (runtime/plan/fprows.c, issue 9 item 2):
# kernels whose every access is affine are paged with no inspector. Each
# example below runs at a quarter of its data three ways, all byte-identical
# to the native run:
#   VAST_FOOTPRINTS=check  descriptors plan every launch that reuses no
#                          kept plan (fp_plans equals launches less
#                          plan_hits: fdtd3d's second launch, its buffers
#                          swapped, reuses the first's) and the inspector
#                          runs too: a page it marks that the descriptors
#                          missed refuses the launch, so the test fails;
#   default                descriptors plan, the inspector does not run;
#   VAST_FOOTPRINTS=0      the inspector plans (fp_plans=0).
# With descriptors, pages of a pure output that a range writes whole are
# not filled from the host first: vadd's h2d must shrink. matrixmul's
# loop bound t < wA / 16, the filters' clamp()ed halo reads and fdtd3d's
# min()ed columns (100 x 60: its last work-groups run past the edge) are
# described too (docs/footprints.md).
#   VAST_BUILD=build bash test/e2e/footprints.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "footprints: FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-fp.XXXXXX") || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS

# example, its kernels planned from descriptors, its arguments
cases=(
	"vadd vadd"
	"vadd vadd 1000003"
	"matmul matmul 512 128 128"
	"matrixmul matrixmul 256 512 128"
	"sobelfilter sobelfilter 520 300"
	"medianfilter medianfilter 520 300"
	"struct3 cross3 100003"
	"alias axpy"
	"reduce_local reduce_local"
	"blackscholes blackscholes"
	"nbody nbody"
	"fdtd3d fdtd3d 100 60 16 2"
	"fdtd3d fdtd3d 256 256 32 1"
)
declare -A h2d
for c in "${cases[@]}"; do
	set -- $c
	name=$1 kernel=$2
	shift 2
	mkdir -p "$tmp/$name"
	VAST_E2E_BUILD_ONLY=$tmp/$name bash "$here/diff.sh" "$name" >/dev/null 2>&1 ||
		fail "building $name failed"
	"$tmp/$name/native/$name/$name" -q -o "$tmp/$name/native.out" "$@" >/dev/null 2>&1 ||
		fail "$name: the native run failed"
	for fp in check 1 0; do
		log=$tmp/$name/log.$fp
		VAST_FOOTPRINTS=$fp VAST_STATS=kv VAST_DEVICE_MEM=25% \
			"$tmp/$name/vast/$name/$name" -q -o "$tmp/$name/vast.out" "$@" >"$log" 2>&1 ||
			{ cat "$log" >&2; fail "$name: VAST_FOOTPRINTS=$fp: the run failed"; }
		cmp -s "$tmp/$name/native.out" "$tmp/$name/vast.out" ||
			fail "$name: VAST_FOOTPRINTS=$fp: output differs from the native run"
		line=$(grep "^vast: kernel $kernel " "$log") || { cat "$log" >&2; fail "$name: no stats"; }
		launches=$(echo "$line" | sed -E 's/.* launches=([0-9]+).*/\1/')
		ranges=$(echo "$line" | sed -E 's/.* ranges=([0-9]+).*/\1/')
		plans=$(echo "$line" | sed -E 's/.* fp_plans=([0-9]+).*/\1/')
		hits=$(echo "$line" | sed -E 's/.* plan_hits=([0-9]+).*/\1/')
		want=$((launches - hits))
		[ "$fp" = 0 ] && want=0
		[ "$ranges" -ge 2 ] || fail "$name: VAST_FOOTPRINTS=$fp: not paged ($line)"
		[ "$plans" = "$want" ] || fail "$name: VAST_FOOTPRINTS=$fp: fp_plans=$plans, want $want ($line)"
		h2d[$fp]=$(echo "$line" | sed -E 's/.* h2d=([0-9]+).*/\1/')
	done
	# vadd's c is a pure output its ranges write whole: not filled first.
	if [ "$kernel" = vadd ] && [ "${h2d[1]}" -ge "${h2d[0]}" ]; then
		fail "$name: h2d ${h2d[1]} with descriptors, ${h2d[0]} without: must-writes were filled"
	fi
	echo "footprints: $name: identical; $kernel planned from descriptors ($launches launches)"
done
echo "footprints: PASS"
