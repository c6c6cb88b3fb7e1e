#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The straight variant (docs/generated-kernels.md): a range in which every
# slot's pages are one run runs vast_straight_K, translation by one add
# and no check; any other range runs the checked vast_paged_K. At budgets
# of 1/4 and 1/10 of the data, outputs must equal the native run's byte
# for byte, and VAST_STATS must show
#   blackscholes  (streaming) every range straight, and none with
#                 VAST_STRAIGHT=0 (same output);
#   halves        (each group reads two pieces of `in` far apart, so a
#                 range's pages of `in` are two runs) no range straight;
#   blackscholes  split over two PoCL devices (VAST_DEVICES=all; its one
#                 launch is the kernel's first, always split to profile
#                 both): every share's range straight, counted.
#   VAST_BUILD=build bash test/e2e/straight.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "straight: FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-straight.XXXXXX") || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS VAST_RESIDENT \
	VAST_STRAIGHT
sum() { # field, log: the field summed over the kernels' lines
	sed -n "s/^vast: kernel .* $1=\([0-9]*\).*/\1/p" "$2" | awk '{ s += $1 } END { print s + 0 }'
}
run() { # example, budget, VAST_STRAIGHT, [ENV...]; sets ranges and straight
	local ex=$1 mem=$2
	env VAST_DEVICE_MEM=$mem VAST_STRAIGHT=$3 VAST_STATS=kv "${@:4}" "$tmp/vast/$ex/$ex" -q \
		-o "$tmp/vast.out" >"$tmp/log" 2>&1 ||
		{ cat "$tmp/log" >&2; fail "$ex $mem VAST_STRAIGHT=$3: the run failed"; }
	cmp -s "$tmp/$ex.native" "$tmp/vast.out" ||
		fail "$ex $mem VAST_STRAIGHT=$3: output differs from the native run"
	ranges=$(sum ranges "$tmp/log")
	straight=$(sum straight "$tmp/log")
	[ "$ranges" -ge 2 ] || fail "$ex $mem: ranges=$ranges, not paged"
	echo "straight: $ex $mem VAST_STRAIGHT=$3: identical; ranges=$ranges straight=$straight"
}
for ex in blackscholes halves; do
	VAST_E2E_BUILD_ONLY=$tmp bash "$here/diff.sh" "$ex" >/dev/null 2>&1 || fail "building $ex failed"
	"$tmp/native/$ex/$ex" -q -o "$tmp/$ex.native" >/dev/null 2>&1 || fail "$ex: the native run failed"
done
for mem in 25% 10%; do
	run blackscholes $mem 1
	[ "$straight" = "$ranges" ] || fail "blackscholes $mem: straight=$straight of $ranges ranges"
	run blackscholes $mem 0
	[ "$straight" = 0 ] || fail "blackscholes $mem: straight=$straight with VAST_STRAIGHT=0"
	run halves $mem 1
	[ "$straight" = 0 ] || fail "halves $mem: straight=$straight, but its ranges' pages of 'in' are two runs"
done
run blackscholes 25% 1 POCL_DEVICES="pthread pthread" VAST_DEVICES=all
grep -q "^vast: kernel blackscholes .* dev_groups=[1-9][0-9]*,[1-9]" "$tmp/log" ||
	{ cat "$tmp/log" >&2; fail "blackscholes over two devices: not split"; }
[ "$straight" = "$ranges" ] || fail "blackscholes over two devices: straight=$straight of $ranges ranges"
echo "straight: PASS"
