#!/bin/bash
# SPDX-License-Identifier: MIT
# exports.sh LIBVASTRT.so ENTRYPOINTS.def FOREIGN.def: the shared runtime
# exports exactly the OpenCL entry points the runtime defines (both lists) and
# vast_register_program, nothing else: every other symbol is the runtime's
# own (vrt_, hidden) and must not interpose on the program's or a driver's.
set -u
lib=$1
shift
defs=("$@") # entrypoints.def, foreign.def
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{ sed -n 's/^VRT_\(ENTRY\|FOREIGN\)([^,]*, *\([A-Za-z0-9_]*\),.*/\2/p' "${defs[@]}"; echo vast_register_program; } |
	sort > "$tmp/want"
[ "$(wc -l < "$tmp/want")" -gt 10 ] || { echo "FAIL: no entry points read from ${defs[*]}"; exit 1; }
nm -D --defined-only "$lib" | awk '{print $NF}' | sort > "$tmp/got" ||
	{ echo "FAIL: nm -D $lib"; exit 1; }
if ! diff -u "$tmp/want" "$tmp/got"; then
	echo "FAIL: $lib exports differ from the entry points + vast_register_program (- missing, + extra)"
	exit 1
fi
echo "ok: $(wc -l < "$tmp/got") symbols, exactly the entry points and vast_register_program"
