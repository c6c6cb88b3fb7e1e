#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# evict.sh VASTCC: one eviction policy over what takes the device budget
# (runtime/mem/room.c, evict.c): evict/host.c runs scale(b), then three
# rounds of scale(a) (1 MiB: natively) and sum2(x, y, z) (6 MiB: paged at
# a 4 MiB budget), all queued at once. Each paged launch sees the launches
# queued after it: a, which the next one needs, stays on the device
# beside its frames, and b, which no launch needs again, goes. So scale
# sends a and b once each (2 MiB), where with a clFinish after each launch
# (nothing queued: nothing known) a comes back every round (4 MiB), as it
# did for every run when a paged launch evicted every device copy first.
# Both runs' a, b and z are the cc build's byte for byte.
set -u
vastcc=$1
src=$(cd "$(dirname "$0")" && pwd)/evict
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-evict.XXXXXX") || { echo "evict: mktemp failed" >&2; exit 1; }
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS VAST_RESIDENT \
	VAST_OVERLAP VAST_HOLD VAST_DEVICES
export VAST_CACHE_DIR="$tmp/cache"
fail() { echo "evict: FAIL: $*" >&2; exit 1; }
cp "$src"/* "$src/../../rt/rt_host.h" "$tmp/" && cd "$tmp" || exit 1
cc -O1 -w -o plain host.c -lOpenCL || fail "cc"
"$vastcc" -O1 -w -o app host.c evict.cl || fail "vastcc"
./plain 3 0 ref.bin || fail "the native run failed"
# 4 KiB pages: the frames' least room (an eighth of the budget, and 64
# pages a set) leaves a room beside them; no hold, which would take it.
run() {
	VAST_DEVICE_MEM=4M VAST_PAGE_SIZE=4096 VAST_HOLD=0 VAST_STATS=kv VAST_LOG=debug \
		./app 3 "$1" "out$1.bin" >"log$1" 2>&1 || { tail -5 "log$1"; fail "the run (sync $1) failed"; }
	cmp -s ref.bin "out$1.bin" || fail "output (sync $1) differs from the native run"
	grep -q "kernel sum2 .* paged=3" "log$1" || fail "sum2 did not page (sync $1)"
}
h2d() { sed -n "s/^vast: kernel $1 .* h2d=\([0-9]*\) .*/\1/p" "$2"; }
run 0
run 1
mib=1048576
queued=$(h2d scale log0)
sync=$(h2d scale log1)
echo "evict: scale's h2d: $queued bytes queued, $sync with a clFinish after each launch"
[ "$queued" = $((2 * mib)) ] || fail "want a and b sent once each (a kept beside the paged launches), got $queued bytes"
[ "$sync" -gt $((2 * mib)) ] || fail "want a sent again where nothing is queued, got $sync bytes"
grep -q "kernel 'sum2': $mib bytes of other buffers the launches queued after it need stay on the device" log0 ||
	fail "a did not stay beside sum2's frames"
grep -q "evict: buffer .* ($mib bytes), its next use 18446744073709551615 launches on" log0 ||
	fail "b, needed by no launch queued, was not evicted"
echo "evict: ok"
