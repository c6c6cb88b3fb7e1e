#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Pinned host copies are bounded by the device's memory (runtime/host/pinned.c,
# device.c): a device may back pinned memory with its own (NVIDIA's does,
# byte for byte), so at most half of it is pinned and the default budget
# leaves the pinned bytes out. On PoCL limited to 1 GiB (POCL_MEMORY_LIMIT),
# vadd over three 224 MiB buffers pins the first two (448 MiB) but not the
# third (it would pass 512 MiB), and its launch, which fits 1 GiB less the
# 1/16 margin, pages under a budget of 512 MiB. Before, all three were
# pinned and the launch ran natively under a budget of 960 MiB. The output
# must equal the native run byte for byte.
#   VAST_BUILD=build bash test/e2e/pin_bound.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "pin_bound: FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-pin.XXXXXX") || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS VAST_RESIDENT

VAST_E2E_BUILD_ONLY=$tmp/vadd bash "$here/diff.sh" vadd >/dev/null 2>&1 || fail "building vadd failed"
n=$((56 << 20)) buf=$((224 << 20))
"$tmp/vadd/native/vadd/vadd" -q -o "$tmp/native.out" $n >/dev/null 2>&1 || fail "the native run failed"
POCL_MEMORY_LIMIT=1 VAST_LOG=debug VAST_STATS=kv "$tmp/vadd/vast/vadd/vadd" -q -o "$tmp/vast.out" $n \
	>"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; fail "the vastcc run failed"; }
cmp -s "$tmp/native.out" "$tmp/vast.out" || fail "output differs from the native run"
grep -q "no pinned host copy of $buf bytes ($((2 * buf)) pinned already" "$tmp/log" ||
	{ grep "pinned" "$tmp/log" >&2; fail "the third buffer was pinned past half the device's memory"; }
budget=$(sed -n "s/.*kernel 'vadd': [0-9]* bytes of buffers, budget \([0-9]*\): paged.*/\1/p" "$tmp/log")
[ -n "$budget" ] || { grep "budget" "$tmp/log" >&2; fail "the launch did not page"; }
[ "$budget" -eq $(((1 << 30) - (1 << 30) / 16 - 2 * buf)) ] ||
	fail "budget $budget: not the device's memory less the margin and the pinned bytes"
echo "pin_bound: PASS (budget $budget, $(grep '^vast: kernel vadd' "$tmp/log"))"
