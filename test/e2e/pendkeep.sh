#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pendkeep.sh VASTCC: a whole write left pending for the paged launch
# after it (runtime/exec/pending.c) of a buffer that launch keeps whole on the
# device (paged/keeps.c, keep_resident) reaches the device copy first (mem.c,
# vrt_mem_to_device settles it): pendkeep/host.c writes x anew, without
# blocking, before each of 6 launches of y = y / 2 + x. At 90% of its
# data every launch pages, from the second on with x kept whole, and the
# writes are left pending; y is the cc build's byte for byte (without the
# settle the kept x had the previous round's values).
set -u
vastcc=$1
src=$(cd "$(dirname "$0")" && pwd)/pendkeep
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-pendkeep.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS VAST_RESIDENT \
	VAST_OVERLAP
fail() { echo "pendkeep: FAIL: $*" >&2; exit 1; }
cp "$src"/* "$src/../../rt/rt_host.h" "$tmp/" && cd "$tmp" || exit 1
cc -O1 -w -o plain host.c -lOpenCL || fail "cc"
"$vastcc" -O1 -w -o app host.c pendkeep.cl || fail "vastcc"
./plain 6 ref.bin || fail "the native run failed"
VAST_DEVICE_MEM=90% VAST_LOG=debug ./app 6 out.bin >log 2>&1 || { tail -5 log; fail "the run failed"; }
cmp -s ref.bin out.bin || fail "output differs from the native run"
[ "$(grep -c "kernel 'accum': 1 buffers .* kept whole" log)" = 5 ] ||
	fail "want x kept whole from the second launch on"
grep -q "a whole write of [0-9]* bytes is left for the launch after it to copy" log ||
	fail "no write left pending"
echo "pendkeep: ok"
