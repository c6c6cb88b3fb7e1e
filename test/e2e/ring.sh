#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Pages of plain host copies go in through the pinned ring (runtime/host/
# ring.c), and a launch whose buffers each pass the device's largest
# allocation pages rather than failing natively (launch.c). On PoCL
# limited to 1 GiB (POCL_MEMORY_LIMIT: 256 MiB per allocation), triad's
# three 320 MiB arrays cannot be pinned (one driver buffer each would pass
# 256 MiB), so all three are plain memory and move unstaged (a range's
# share passes the staging bound); the inputs must go in through the
# ring, and the output must equal the native run byte for byte. Before,
# the launch, which fits the 960 MiB budget, ran natively and failed
# (CL_INVALID_BUFFER_SIZE).
# Then arrays of 250 MiB: a and b are pinned (half the 1 GiB device), c
# stays plain and goes in through the ring, unstaged (VAST_MAX_ALLOC
# bounds the staging), while b's pages, straight from pinned memory, go
# between the ring's chunks (paged/move.c, hold_piece); the output must again
# equal the native run's. Last, the same arrays with a 512 MiB budget:
# their 750 MiB pass it, so the third may be pinned past half the device
# (pinned.c, vrt_pin_limit): nothing stays plain, nothing uses the ring.
#   VAST_BUILD=build bash test/e2e/ring.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "ring: FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-ring.XXXXXX") || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS VAST_RESIDENT

VAST_E2E_BUILD_ONLY=$tmp/triad bash "$here/diff.sh" triad >/dev/null 2>&1 || fail "building triad failed"
n=$((80 << 20))
"$tmp/triad/native/triad/triad" -q -o "$tmp/native.out" $n >/dev/null 2>&1 || fail "the native run failed"
POCL_MEMORY_LIMIT=1 VAST_LOG=debug VAST_STATS=kv "$tmp/triad/vast/triad/triad" -q -o "$tmp/vast.out" $n \
	>"$tmp/log" 2>&1 || { grep -v "^vast: debug" "$tmp/log" >&2; fail "the vastcc run failed"; }
cmp -s "$tmp/native.out" "$tmp/vast.out" || fail "output differs from the native run"
for s in 2 3; do
	grep -q "slot $s in through the pinned ring" "$tmp/log" ||
		{ grep -v "^vast: debug" "$tmp/log" >&2; fail "input slot $s did not go in through the ring"; }
done
line=$(grep "^vast: kernel triad " "$tmp/log") || fail "no stats"
r=$(echo "$line" | sed -E 's/.* ranges=([0-9]+).*/\1/')
[ "$r" -ge 2 ] || fail "not paged: $line"

n=65536000
"$tmp/triad/native/triad/triad" -q -o "$tmp/native2.out" $n >/dev/null 2>&1 || fail "the native run failed"
POCL_MEMORY_LIMIT=1 VAST_MAX_ALLOC=64M VAST_LOG=debug VAST_STATS=kv "$tmp/triad/vast/triad/triad" -q \
	-o "$tmp/vast2.out" $n >"$tmp/log2" 2>&1 ||
	{ grep -v "^vast: debug" "$tmp/log2" >&2; fail "the vastcc run with a pinned input failed"; }
cmp -s "$tmp/native2.out" "$tmp/vast2.out" || fail "output with a pinned input differs from the native run"
rings=$(grep -o "slot [0-9]* in through the pinned ring" "$tmp/log2" | sort -u | wc -l)
[ "$rings" -eq 1 ] || { grep -v "^vast: debug" "$tmp/log2" >&2; fail "$rings slots through the ring, want 1"; }
grep -q "bytes from pinned memory sent between the ring's chunks" "$tmp/log2" ||
	{ grep -v "^vast: debug" "$tmp/log2" >&2; fail "no pinned transfer went between the ring's chunks"; }

POCL_MEMORY_LIMIT=1 VAST_MAX_ALLOC=64M VAST_DEVICE_MEM=512M VAST_LOG=debug "$tmp/triad/vast/triad/triad" \
	-q -o "$tmp/vast3.out" $n >"$tmp/log3" 2>&1 ||
	{ grep -v "^vast: debug" "$tmp/log3" >&2; fail "the vastcc run past the budget failed"; }
cmp -s "$tmp/native2.out" "$tmp/vast3.out" || fail "output past the budget differs from the native run"
if grep -q "no pinned host copy\|in through the pinned ring" "$tmp/log3"; then
	grep "no pinned host copy\|in through the pinned ring" "$tmp/log3" | sort -u >&2
	fail "data past the budget: a host copy stayed plain"
fi
echo "ring: PASS ($line)"
