#!/bin/bash
# SPDX-License-Identifier: MIT
# order.sh PLAIN UNTRACKED TRACKED vadd.cl: host_order built plainly, with
# the runtime as a CMake target links it (its entry points not exported:
# every command waits for a marker), and as vastcc links it (exported:
# markers only after the program's own commands). Both runtime builds
# must say which way they ran and match the plain run byte for byte, at
# the full budget and paged. The tracked build that asks for an
# extension's enqueue first (PoCL's clEnqueueCommandBufferKHR) is handed
# the runtime's refusal, which reaches no queue: it still leaves out the
# markers.
set -u
plain=$1 untracked=$2 tracked=$3 src=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
"$plain" "$tmp/ref.bin" "$src" 2>/dev/null || { echo "FAIL: plain run"; exit 1; }
check() { # name, exe, log text, env... [-- program argument]
	local name=$1 exe=$2 want=$3 arg=; shift 3
	[ "${*: -2:1}" = -- ] && { arg=${*: -1}; set -- "${@:1:$#-2}"; }
	if ! env "$@" VAST_LOG=info "$exe" "$tmp/$name.bin" "$src" $arg 2>"$tmp/$name.err"; then
		echo "FAIL: $name: exit status"; cat "$tmp/$name.err"; fail=1; return
	fi
	if ! grep -q "$want" "$tmp/$name.err"; then
		echo "FAIL: $name: no '$want' in its log"; fail=1
	fi
	if ! cmp -s "$tmp/ref.bin" "$tmp/$name.bin"; then
		echo "FAIL: $name: output differs from the plain run's"
		grep '^round' "$tmp/$name.err"; fail=1; return
	fi
	echo "ok: $name"
}
for mode in auto paged; do
	check "untracked-$mode" "$untracked" "are not the runtime's" VAST_MODE=$mode
	check "tracked-$mode" "$tracked" "every enqueue of the process reaches the runtime" VAST_MODE=$mode
done
# The extension's enqueue, where the driver hands one out.
"$plain" "$tmp/ref.bin" "$src" ext 2>"$tmp/plain-ext.err" || { echo "FAIL: plain run (ext)"; exit 1; }
if grep -q "extension enqueue: handed out" "$tmp/plain-ext.err"; then
	check tracked-ext "$tracked" "every enqueue of the process reaches the runtime" \
		VAST_MODE=auto -- ext
else
	echo "skip: tracked-ext (the driver hands out no clEnqueueCommandBufferKHR)"
fi
exit $fail
