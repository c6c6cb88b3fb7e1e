#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# resend_hint.sh VASTCC: a kernel whose smaller ranges resend too much
# plans with one frame set (paged/planner.c, resends_too_much); later launches
# like it (its groups, budget and page size) plan so at once, not first
# with several sets and then again (k->resend: fdtd3d planned twice a
# launch). overlap/host.c's smoothing step, three launches over two
# buffers at a budget of 64K in 4K pages: the bytes of the cc build, one
# frame set each launch, and the resend check (VAST_TRACE "resends") run
# by the first launch only.
set -u
vastcc=$1
src=$(cd "$(dirname "$0")" && pwd)/overlap
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-resend.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_FAIL_RANGE VAST_LOG VAST_PINNED VAST_FOOTPRINTS
cp "$src"/* "$src/../../rt/rt_host.h" "$tmp/" && cd "$tmp" || exit 1
cc -O1 -w -o plain host.c -lOpenCL || { echo "FAIL: cc"; exit 1; }
"$vastcc" -O1 -w -o app host.c overlap.cl || { echo "FAIL: vastcc"; exit 1; }
./plain smooth 3 ref.bin || { echo "FAIL: the native run failed"; exit 1; }
VAST_DEVICE_MEM=64K VAST_PAGE_SIZE=4K VAST_LOG=debug VAST_TRACE=trace.json \
	./app smooth 3 out.bin >log 2>&1 || { echo "FAIL: exit status"; cat log; exit 1; }
cmp -s ref.bin out.bin || { echo "FAIL: output differs from the native run"; exit 1; }
sets=$(grep -c "kernel 'smooth': [0-9]* ranges, 1 frame sets" log)
[ "$sets" = 3 ] || { echo "FAIL: $sets of 3 launches planned with one frame set"; cat log; exit 1; }
checks=$(grep -o '"name":"resends"' trace.json | wc -l)
[ "$checks" = 1 ] || { echo "FAIL: the resend check ran $checks times, want once"; exit 1; }
echo "resend_hint: PASS (3 launches, one frame set each, one resend check)"
