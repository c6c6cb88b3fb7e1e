#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Whole reads and writes of buffers made with no host pointer, on data
# that fits, go straight between the program's memory and the device
# copies through the pinned ring, with no host copy (runtime/mem/mem.c,
# ring.c; issue 8 item 5): blackscholes writes its three 32 MiB inputs
# whole and reads its two outputs whole; its VAST_TRACE must show `ring`
# transfers of exactly those bytes (range 0 to the device, 1 back), its
# launch must run natively, and its output must equal the native run's
# byte for byte. With a budget the data does not fit (VAST_DEVICE_MEM=
# 50%), the buffers take pinned host copies and no ring transfer, same
# output.
#   VAST_BUILD=build bash test/e2e/whole_transfers.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "whole_transfers: FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-whole.XXXXXX") || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS VAST_RESIDENT

VAST_E2E_BUILD_ONLY=$tmp/bs bash "$here/diff.sh" blackscholes >/dev/null 2>&1 ||
	fail "building blackscholes failed"
n=$((8 << 20)) # options: 32 MiB a buffer
bytes=$((n * 4))
"$tmp/bs/native/blackscholes/blackscholes" -q -o "$tmp/native.out" $n >/dev/null 2>&1 ||
	fail "the native run failed"
# ring_bytes TRACE RANGE: the bytes of its `ring` events with that range.
ring_bytes() {
	python3 - "$1" "$2" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
r = int(sys.argv[2])
print(sum(e["args"]["bytes"] for e in doc["traceEvents"]
          if e.get("ph") == "X" and e["name"] == "ring" and e["args"]["range"] == r))
PY
}
for mem in none 50%; do
	if [ $mem = none ]; then env=(); else env=(VAST_DEVICE_MEM=$mem); fi
	env "${env[@]}" VAST_STATS=kv VAST_TRACE="$tmp/trace.json" \
		"$tmp/bs/vast/blackscholes/blackscholes" -q -o "$tmp/vast.out" $n >"$tmp/log" 2>&1 ||
		{ cat "$tmp/log" >&2; fail "$mem: the vastcc run failed"; }
	cmp -s "$tmp/native.out" "$tmp/vast.out" || fail "$mem: output differs from the native run"
	line=$(grep "^vast: kernel blackscholes " "$tmp/log") || fail "$mem: no stats"
	to=$(ring_bytes "$tmp/trace.json" 0) back=$(ring_bytes "$tmp/trace.json" 1)
	if [ $mem = none ]; then
		echo "$line" | grep -q " native=1 " || fail "$mem: not native: $line"
		[ "$to" = $((3 * bytes)) ] || fail "$mem: $to bytes through the ring to the device, want $((3 * bytes))"
		[ "$back" = $((2 * bytes)) ] || fail "$mem: $back bytes through the ring back, want $((2 * bytes))"
	else
		echo "$line" | grep -q " native=0 " || fail "$mem: not paged: $line"
		[ "$to$back" = 00 ] || fail "$mem: ring transfers ($to to, $back back) with host copies"
	fi
	echo "whole_transfers: $mem: identical; ring $to bytes to the device, $back back ($line)"
done
echo "whole_transfers: PASS"
