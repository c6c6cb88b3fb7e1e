#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A read-only buffer every range reads is kept whole on the device for the
# launch (runtime/paged/keeps.c, keep_resident, read_by_every_range), but
# never one larger than the device's largest allocation: on a device
# that cannot make it, placing it fails and the launch then keeps nothing
# (CL_DEVICE_MAX_MEM_ALLOC_SIZE, faked here with VAST_MAX_ALLOC, which
# PoCL does not enforce, so the output alone cannot tell). mm2 at 256
# (four 256 KiB matrices) at half of each launch's data: with the largest
# allocation at exactly B's size, mm2_kernel1 keeps B whole, as
# e2e/shared_operand wants; 1 KiB below it, neither kernel keeps a buffer
# whole, so B pages with the rest and the link moves more of it. Both
# outputs are the native one byte for byte.
#   VAST_BUILD=build bash test/e2e/shared_operand_alloc.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "shared_operand_alloc: FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-shared-alloc.XXXXXX") || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS VAST_RESIDENT

n=256
VAST_E2E_BUILD_ONLY=$tmp bash "$here/diff.sh" mm2 >/dev/null 2>&1 || fail "building mm2 failed"
"$tmp/native/mm2/mm2" -q -o "$tmp/native.out" $n >/dev/null 2>&1 || fail "the native run failed"

# run MAX_ALLOC: the log of a paged run whose output is the native one
run() {
	local log=$tmp/log.$1
	VAST_MAX_ALLOC=$1 VAST_DEVICE_MEM=50% VAST_STATS=kv VAST_LOG=info \
		"$tmp/vast/mm2/mm2" -q -o "$tmp/vast.out" $n >"$log" 2>&1 ||
		{ tail -5 "$log" >&2; fail "VAST_MAX_ALLOC=$1: the run failed"; }
	cmp -s "$tmp/native.out" "$tmp/vast.out" ||
		fail "VAST_MAX_ALLOC=$1: output differs from the native run"
	for k in mm2_kernel1 mm2_kernel2; do
		grep -q "^vast: kernel $k .* ranges=\([2-9]\|[1-9][0-9]\)" "$log" ||
			{ grep "^vast: kernel $k " "$log" >&2; fail "VAST_MAX_ALLOC=$1: $k not paged"; }
	done
	echo "$log"
}
h2d() { sed -n "s/^vast: kernel $2 .* h2d=\([0-9]*\).*/\1/p" "$1"; }

b=$((n * n * 4))
at=$(run $b) || exit 1
grep -q "kernel 'mm2_kernel1': 1 buffers ($b bytes) kept whole on the device" "$at" ||
	{ grep "kernel 'mm2_kernel1'" "$at" >&2; fail "largest allocation $b: B not kept whole"; }
below=$(run $((b - 1024))) || exit 1
if grep "kept whole on the device" "$below" >&2; then
	fail "largest allocation $((b - 1024)): a buffer of $b bytes kept whole"
fi
h_at=$(h2d "$at" mm2_kernel1) h_below=$(h2d "$below" mm2_kernel1)
[ "$h_below" -gt "$h_at" ] ||
	fail "mm2_kernel1 moved $h_below bytes with B paged, no more than the $h_at with it whole"
echo "shared_operand_alloc: mm2_kernel1: h2d=$h_at with B whole, $h_below paged"
echo "shared_operand_alloc: PASS"
