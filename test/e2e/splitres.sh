#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# splitres.sh VASTCC: a launch split over two devices keeps its data
# resident on them (docs/multi.md, "Resident shares"). splitres/host.c
# launches y = 3a + b ten times on PoCL's two CPU devices, then reads y;
# the data fits each device. y must equal the cc build's byte for byte,
# every launch must be split, a and b must cross to the devices once over
# the ten launches (h2d = their bytes: nothing is written home before a
# split, and a later launch finds its windows where the last one left
# them) and y come home once (d2h = its bytes, the host's one read). With
# the host writing 4 KiB of a after the fifth launch, h2d grows by exactly
# those bytes.
set -u
vastcc=$1
src=$(cd "$(dirname "$0")" && pwd)/splitres
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-splitres.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS VAST_RESIDENT \
	VAST_STRAIGHT VAST_DEVICES
export VAST_CACHE_DIR=$tmp/cache
fail() { echo "splitres: FAIL: $*" >&2; exit 1; }
cp "$src"/* "$src/../../rt/rt_host.h" "$tmp/" && cd "$tmp" || exit 1
cc -O1 -w -o plain host.c -lOpenCL || fail "cc"
"$vastcc" -O1 -w -o app host.c splitres.cl || fail "vastcc"
field() { # KEY LOG: the axpb kernel's VAST_STATS value
	sed -n "s/^vast: kernel axpb .* $1=\([0-9,]*\).*/\1/p" "$2"
}
bytes=$((4 << 18)) # of each buffer
for poke in 0 1; do
	./plain 10 $poke ref$poke.bin || fail "the native run failed"
	POCL_DEVICES="pthread pthread" VAST_DEVICES=all VAST_STATS=kv VAST_LOG=info \
		./app 10 $poke out$poke.bin >log$poke 2>&1 || { tail -5 log$poke; fail "poke=$poke: the run failed"; }
	cmp -s ref$poke.bin out$poke.bin || fail "poke=$poke: y differs from the native run"
	splits=$(field split log$poke)
	[ "$splits" = 10 ] || { cat log$poke; fail "poke=$poke: split=$splits, want all 10 launches split"; }
	want_h2d=$((2 * bytes + poke * 4096))
	h2d=$(field h2d log$poke) d2h=$(field d2h log$poke)
	[ "$h2d" = "$want_h2d" ] ||
		{ cat log$poke; fail "poke=$poke: h2d=$h2d, want $want_h2d (a and b once$([ $poke = 1 ] && echo ', then the 4 KiB written'))"; }
	[ "$d2h" = "$bytes" ] || { cat log$poke; fail "poke=$poke: d2h=$d2h, want $bytes (y once, read at the end)"; }
done
echo "splitres: ok"
