#!/bin/bash
# SPDX-License-Identifier: MIT
# fill_host_copies.sh RT_FILL SOURCE.cl: a buffer that only the native
# path uses gets no host copy (issue 8 item 5). host_fill's first part
# (buffers written whole, a launch, reads) must make none, by VAST_STATS's
# "vast: buffers host_copies=N" line; the whole program, which maps,
# copies and pages, must make some (the count is not stuck at zero).
set -u
bin=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
copies() { # log: N of host_copies=N
	sed -n 's/^vast: buffers host_copies=\([0-9]*\) .*/\1/p' "$1"
}
unset VAST_DEVICE_MEM VAST_MODE VAST_PINNED VAST_TRACE
RT_FILL_NATIVE_ONLY=1 VAST_STATS=1 "$bin" "$tmp/out" "$src" 2>"$tmp/native.err" ||
	{ cat "$tmp/native.err"; echo "FAIL: the native part failed"; exit 1; }
grep -q '^vast: kernel vadd launches=1 native=1 ' "$tmp/native.err" ||
	{ cat "$tmp/native.err"; echo "FAIL: the launch did not run natively"; exit 1; }
n=$(copies "$tmp/native.err")
[ "$n" = 0 ] || { cat "$tmp/native.err"; echo "FAIL: native part: host_copies='$n', want 0"; exit 1; }
VAST_STATS=1 "$bin" "$tmp/out" "$src" 2>"$tmp/all.err" ||
	{ cat "$tmp/all.err"; echo "FAIL: the whole program failed"; exit 1; }
n=$(copies "$tmp/all.err")
[ -n "$n" ] && [ "$n" -gt 0 ] ||
	{ cat "$tmp/all.err"; echo "FAIL: whole program: host_copies='$n', want > 0"; exit 1; }
echo "ok: no host copy for native-only buffers; $n for the whole program"
