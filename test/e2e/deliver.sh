#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# deliver.sh VASTCC: reads queued right behind a paged launch are filled
# range by range while it runs (runtime/paged/deliver.c), and only where that
# cannot change what the program sees. deliver/host.c queues its reads in
# six ways (see there); each mode's output must be the cc build's byte
# for byte at budgets of 30% and 10% (several ranges, pipelined), and the
# log must name exactly the reads it may follow: all three in `fresh`;
# in `inplace` not the read into the array the write before the launch
# left pending (later ranges still read it), in `usehost` not the read
# into the launch's own USE_HOST_PTR array, in `overlap` only the first
# of two reads into one array; in `planes` the read of a buffer moved as
# strided boxes. VAST_OVERLAP=0 follows none, same output.
# Reads of random parts of the buffers into random places (16 seeds) are
# exact too (without the rules above 9 of them differ). In a traced run
# every byte read is copied once, most while the ranges run, and no write
# left pending is copied whole (`planes`: pages of boxes). The program
# queues everything before the queue moves (deliver/host.c), so which
# reads are followed does not depend on timing.
set -u
vastcc=$1
src=$(cd "$(dirname "$0")" && pwd)/deliver
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-deliver.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS VAST_RESIDENT \
	VAST_OVERLAP
fail() { echo "deliver: FAIL: $*" >&2; exit 1; }
cp "$src"/* "$src/../../rt/rt_host.h" "$tmp/" && cd "$tmp" || exit 1
cc -O1 -w -o plain host.c -lOpenCL || fail "cc"
"$vastcc" -O1 -w -o app host.c deliver.cl || fail "vastcc"
said="the read of [0-9]* bytes queued behind it is filled range by range"
for c in fresh:3 inplace:1 usehost:0 overlap:1 planes:1 blocking:; do
	mode=${c%:*} want=${c#*:}
	./plain $mode ref.bin || fail "$mode: the native run failed"
	for mem in 30% 10%; do
		for overlap in 1 0; do
			VAST_DEVICE_MEM=$mem VAST_OVERLAP=$overlap VAST_LOG=debug VAST_STATS=kv \
				./app $mode out.bin >log 2>&1 || { tail -5 log; fail "$mode at $mem: the run failed"; }
			cmp -s ref.bin out.bin || fail "$mode at $mem (VAST_OVERLAP=$overlap): output differs"
			grep -q "ranges=[2-9]\|ranges=[1-9][0-9]" log || fail "$mode at $mem: want several ranges"
			[ $mode != planes ] || grep -q "kernel 'planes': 2 buffers go in as strided boxes" log ||
				fail "planes at $mem: its buffers not moved as boxes"
			n=$(grep -c "$said" log)
			[ $overlap = 0 ] && [ "$n" != 0 ] && fail "$mode at $mem: a read followed with VAST_OVERLAP=0"
			[ $overlap = 1 ] && [ -n "$want" ] && [ "$n" != "$want" ] &&
				fail "$mode at $mem: $n reads followed, want $want"
		done
	done
	echo "ok: $mode"
done
# Reads of random parts into random places, 16 seeds at 10%: the cc
# build's arrays byte for byte, and some of those reads followed.
followed=0
for seed in $(seq 1 16); do
	./plain random:$seed ref.bin || fail "random:$seed: the native run failed"
	VAST_DEVICE_MEM=10% VAST_LOG=debug ./app random:$seed out.bin >log 2>&1 ||
		{ tail -5 log; fail "random:$seed: the run failed"; }
	cmp -s ref.bin out.bin || fail "random:$seed: output differs"
	followed=$((followed + $(grep -c "$said" log)))
done
[ $followed -ge 8 ] || fail "random: $followed reads followed in 16 runs, want 8 or more"
echo "ok: random ($followed reads followed)"
# In `fresh` at 10%, each byte of the three reads (40 MiB) is copied once,
# most of it by the ranges (trace events `deliver`), the rest by the reads
# (`delivered`).
./plain fresh ref.bin || fail "fresh: the native run failed"
VAST_DEVICE_MEM=10% VAST_TRACE=trace.json ./app fresh out.bin >log 2>&1 || fail "fresh: the traced run failed"
cmp -s ref.bin out.bin || fail "fresh (traced): output differs"
check_bytes() { # TRACE TOTAL: early + late == TOTAL, early >= half, nothing settled
	python3 - "$@" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
total = int(sys.argv[2])
def sum_of(name):
    return sum(e["args"]["bytes"] for e in ev if e.get("name") == name)
early, late, settled = sum_of("deliver"), sum_of("delivered"), sum_of("settle")
print("deliver: early %d + at the reads %d of %d bytes; %d settled" % (early, late, total, settled))
sys.exit(0 if early + late == total and early >= total // 2 and settled == 0 else 1)
PY
}
check_bytes trace.json $((40 << 20)) || fail "fresh: the reads' bytes were not copied once each, mostly early"
# planes: boxes too, and the write before it taken by its ranges (none
# of it copied whole: `settle`).
./plain planes ref.bin || fail "planes: the native run failed"
VAST_DEVICE_MEM=10% VAST_TRACE=trace.json ./app planes out.bin >log 2>&1 || fail "planes: the traced run failed"
cmp -s ref.bin out.bin || fail "planes (traced): output differs"
check_bytes trace.json $((16 << 20)) || fail "planes: the read's bytes were not copied once each, mostly early"
echo "deliver: ok"
