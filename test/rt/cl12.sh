#!/bin/bash
# SPDX-License-Identifier: MIT
# cl12.sh PLAIN VAST HIDE vadd.cl: the runtime on an OpenCL 1.2 ICD loader,
# which lacks clCreateCommandQueueWithProperties (HIDE, preloaded, hides
# it from dlsym). The runtime must start (it failed every call with
# CL_OUT_OF_RESOURCES) and run host_cl12 as the plain build does, natively
# and paged (the runtime's own queues come from clCreateCommandQueue
# then); the program's clCreateCommandQueueWithProperties with no
# properties but CL_QUEUE_PROPERTIES makes a queue, any other property
# fails with CL_INVALID_OPERATION (-59).
set -u
plain=$1 vast=$2 hide=$3 src=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# A sanitizer build's runtime must come first in the preload list.
asan=$(ldd "$vast" 2>/dev/null | awk '/libasan/ { print $3 }')
preload=${asan:+$asan:}$hide
"$plain" "$tmp/ref.bin" "$src" >"$tmp/plain.out" || { echo "FAIL: plain run"; exit 1; }
for mode in auto paged; do
	extra=VAST_MODE=auto
	[ $mode = paged ] && extra=VAST_DEVICE_MEM=50%
	if ! env LD_PRELOAD="$preload" $extra VAST_STATS=kv \
		"$vast" "$tmp/$mode.bin" "$src" >"$tmp/$mode.out" 2>"$tmp/$mode.err"; then
		echo "FAIL: $mode: exit status"; cat "$tmp/$mode.err"; fail=1; continue
	fi
	cmp -s "$tmp/ref.bin" "$tmp/$mode.bin" || { echo "FAIL: $mode: bytes differ"; fail=1; }
	diff <(grep '^properties' "$tmp/plain.out") <(grep '^properties' "$tmp/$mode.out") ||
		{ echo "FAIL: $mode: queues made differ"; fail=1; }
	grep -qx 'other: -59, none' "$tmp/$mode.out" ||
		{ echo "FAIL: $mode: $(grep '^other' "$tmp/$mode.out"), want -59 (was the symbol hidden?)"; fail=1; }
	if [ $mode = paged ]; then
		r=$(sed -n 's/^vast: kernel vadd .* ranges=\([0-9]*\) .*/\1/p' "$tmp/$mode.err")
		[ -n "$r" ] && [ "$r" -ge 2 ] || { echo "FAIL: paged: ranges='$r', want >= 2"; fail=1; }
	fi
	[ $fail = 0 ] && echo "ok: $mode"
done
exit $fail
