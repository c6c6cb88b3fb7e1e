#!/bin/bash
# SPDX-License-Identifier: MIT
# self_calls.sh LIBVASTRT.a ENTRYPOINTS.def FOREIGN.def: the runtime never calls its
# own entry points (issue 8 item 7): each is a thin exported wrapper over an
# internal vrt_ function, and the runtime reaches the driver through
# vrt_real. A call from inside would take the program's path again (its
# lock, its records) for an object that is the driver's. Calls show as
# PC-relative relocations (R_X86_64_PLT32/PC32) against the entry point's
# name in some member of the archive; the ICD dispatch table of object.c
# holds the entry points' addresses (R_X86_64_64), which is no call.
set -u
lib=$1
shift
defs=("$@") # entrypoints.def, foreign.def
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed -n 's/^VRT_\(ENTRY\|FOREIGN\)([^,]*, *\([A-Za-z0-9_]*\),.*/\2/p' "${defs[@]}" |
	sort > "$tmp/entries"
[ "$(wc -l < "$tmp/entries")" -gt 10 ] || { echo "FAIL: no entry points read from ${defs[*]}"; exit 1; }
(cd "$tmp" && ar x "$lib") || { echo "FAIL: ar x $lib"; exit 1; }
n=$(ls "$tmp"/*.o 2>/dev/null | wc -l)
for o in "$tmp"/*.o; do
	objdump -r "$o" | awk -v f="$(basename "$o")" '$2 ~ /^R_X86_64_(PLT32|PC32)$/ {
		sub(/[-+].*/, "", $3); print $3 "\t" f }'
done | sort -u > "$tmp/calls"
[ "$n" -gt 10 ] || { echo "FAIL: only $n objects in $lib"; exit 1; }
[ -s "$tmp/calls" ] || { echo "FAIL: no calls found in $lib (objdump?)"; exit 1; }
bad=$(join -t "$(printf '\t')" "$tmp/entries" "$tmp/calls")
if [ -n "$bad" ]; then
	echo "FAIL: the runtime calls its own entry points (use vrt_real.NAME or the internal function):"
	echo "$bad" | sed 's/^/  /'
	exit 1
fi
echo "ok: $n objects, $(wc -l < "$tmp/calls") distinct calls, none to the $(wc -l < "$tmp/entries") entry points"
