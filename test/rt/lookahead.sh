#!/bin/bash
# SPDX-License-Identifier: MIT
# lookahead.sh PLAIN VAST vadd.cl: a native launch evicts the device copy
# the launches queued behind it need last (runtime/mem/evict.c). host_lookahead
# queues three launches over buffers of 1 MiB behind a user event; under
# a budget of four such buffers the second evicts two of the first's,
# and the third needs the first's A again. The output must be the plain
# run's byte for byte, and every input go to the device once: h2d 4 MiB
# (A, B, C, D). Evicting the least recently used instead sends A twice:
# 5 MiB (measured with the rule replaced). With the runtime's own device
# copies (VAST_PINNED=0) and with the pinned host copies lent to the
# driver alike.
set -u
plain=$1 vast=$2 src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$plain" "$tmp/ref.bin" "$src" || { echo "FAIL: plain run"; exit 1; }
for pinned in 1 0; do
	VAST_PINNED=$pinned VAST_DEVICE_MEM=4300K VAST_STATS=kv "$vast" "$tmp/out.bin" "$src" \
		2>"$tmp/err" || { echo "FAIL: VAST_PINNED=$pinned: exit status"; cat "$tmp/err"; exit 1; }
	cmp -s "$tmp/ref.bin" "$tmp/out.bin" || { echo "FAIL: VAST_PINNED=$pinned: output differs"; exit 1; }
	h2d=$(sed -n 's/^vast: kernel vadd .* native=3 .* h2d=\([0-9]*\) .*/\1/p' "$tmp/err")
	[ "$h2d" = $((4 << 20)) ] ||
		{ echo "FAIL: VAST_PINNED=$pinned: h2d='$h2d', want $((4 << 20)) (three native launches, each input once)"; cat "$tmp/err"; exit 1; }
	echo "ok: VAST_PINNED=$pinned: identical, h2d $h2d"
done
