#!/bin/bash
# SPDX-License-Identifier: MIT
# fresh_device.sh PLAIN VAST SOURCE.cl: host_fresh's copy and fill into
# buffers nobody touched run on their device copies when the data fits
# (runtime/mem/mem.c: vrt_mem_copy, vrt_mem_fill; nothing crosses the link),
# and its output equals the plain build's byte for byte.
set -u
plain=$1 vast=$2 src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$plain" "$tmp/ref.bin" "$src" || { echo "FAIL: plain run"; exit 1; }
VAST_LOG=debug "$vast" "$tmp/vast.bin" "$src" 2>"$tmp/err" ||
	{ grep -v "^vast: debug" "$tmp/err"; echo "FAIL: vast run"; exit 1; }
cmp "$tmp/ref.bin" "$tmp/vast.bin" || { echo "FAIL: output differs"; exit 1; }
for what in "fill of 4194304 bytes made on the device copy" \
	"copy of 4194304 bytes made between device copies"; do
	grep -q "$what" "$tmp/err" || { echo "FAIL: no '$what'"; exit 1; }
done
echo "ok: copy and fill on the device copies"
