#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# evict_fused.sh VASTCC: a fused pair's plan is made for the whole budget
# (runtime/paged/planner.c, fused_plan), so nothing of other buffers stays
# beside its frames (runtime/mem/room.c, vrt_room_for_paging): with a kept
# beside them its frames passed the budget by a's 1 MiB (5.0 MiB held under
# a 4 MiB budget). evict_fused/host.c queues three rounds of scale(a)
# (native) and make, use (fused). And a paged launch the device cannot
# back (VAST_FAIL_DEVICE_MEM) shrinks the device's budget from all it had,
# its frames and what stayed beside them, not from the frames' share alone.
# Every output is the cc build's byte for byte.
set -u
vastcc=$1
src=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-evictf.XXXXXX") || { echo "evict_fused: mktemp failed" >&2; exit 1; }
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS VAST_RESIDENT \
	VAST_OVERLAP VAST_HOLD VAST_DEVICES VAST_FUSE
export VAST_CACHE_DIR="$tmp/cache"
fail() { echo "evict_fused: FAIL: $*" >&2; exit 1; }
cp "$src"/evict_fused/* "$src"/evict/evict.cl "$src/../rt/rt_host.h" "$tmp/" && cd "$tmp" || exit 1
cc -O1 -w -o plain host.c -lOpenCL || fail "cc"
"$vastcc" -O1 -w -o app host.c fused.cl || fail "vastcc"
./plain 3 ref.bin || fail "the native run failed"
VAST_DEVICE_MEM=4M VAST_PAGE_SIZE=4096 VAST_HOLD=0 VAST_STATS=kv VAST_LOG=debug \
	./app 3 out.bin >log 2>&1 || { tail -5 log; fail "the run failed"; }
cmp -s ref.bin out.bin || fail "output differs from the native run"
grep -q "kernel 'make' and kernel 'use' after it: run range by range together" log ||
	fail "make and use never ran fused"
! grep -q "kernel 'make': .* bytes of other buffers the launches queued after it need stay on the device" log ||
	fail "other buffers stayed beside a fused pair's frames, planned for the whole budget"
echo "evict_fused: fused pairs keep nothing beside their frames"

# The out-of-memory retry, on evict/host.c (sum2 paged beside a's 1 MiB).
cc -O1 -w -o plain2 "$src/evict/host.c" -I. -lOpenCL || fail "cc (evict)"
"$vastcc" -O1 -w -o app2 "$src/evict/host.c" -I. evict.cl || fail "vastcc (evict)"
./plain2 3 0 ref2.bin || fail "the native run (evict) failed"
VAST_DEVICE_MEM=4M VAST_PAGE_SIZE=4096 VAST_HOLD=0 VAST_FAIL_DEVICE_MEM=2500000 VAST_LOG=info \
	./app2 3 0 out2.bin >log2 2>&1 || { tail -5 log2; fail "the run (evict, failing device) failed"; }
cmp -s ref2.bin out2.bin || fail "output (evict, failing device) differs from the native run"
grep -q "out of memory under a budget of 4194304 bytes; planning again with 3145728" log2 ||
	{ grep "out of memory" log2 >&2; fail "want the device's whole 4 MiB cut to 3 MiB"; }
echo "evict_fused: ok"
