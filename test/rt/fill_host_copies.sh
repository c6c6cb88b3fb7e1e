#!/bin/bash
# SPDX-License-Identifier: MIT
# fill_host_copies.sh PLAIN RT_FILL SOURCE.cl: a buffer that only the
# native path uses gets no host copy (issue 8 item 5). By VAST_STATS's
# "vast: buffers host_copies=N" line:
#   host_fill's first part (buffers a and b written whole, a launch,
#   reads; RT_FILL_NATIVE_ONLY=1) makes none, and writes the plain
#   build's bytes;
#   the same with VAST_FAIL_DEVICE_MEM=1, where the device copies the
#   writes make fail at first use (a lazily allocating device out of
#   memory): each write falls back to a host copy (a and b: 2), same bytes;
#   the whole program, which maps, copies and pages, makes some (the count
#   is not stuck at zero).
set -u
plain=$1 bin=$2 src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { cat "$tmp/$1.err"; echo "FAIL: $1: $2"; exit 1; }
copies() { # name: N of host_copies=N
	sed -n 's/^vast: buffers host_copies=\([0-9]*\) .*/\1/p' "$tmp/$1.err"
}
unset VAST_DEVICE_MEM VAST_MODE VAST_PINNED VAST_TRACE VAST_FAIL_DEVICE_MEM
RT_FILL_NATIVE_ONLY=1 "$plain" "$tmp/ref.bin" "$src" || { echo "FAIL: plain run"; exit 1; }
run() { # name, env...
	local name=$1; shift
	: >"$tmp/$name.err"
	env "$@" VAST_STATS=1 "$bin" "$tmp/$name.bin" "$src" 2>"$tmp/$name.err" ||
		fail "$name" "exit status"
}
run native RT_FILL_NATIVE_ONLY=1
cmp -s "$tmp/ref.bin" "$tmp/native.bin" || fail native "output differs from the plain build"
grep -q '^vast: kernel vadd launches=1 native=1 ' "$tmp/native.err" ||
	fail native "the launch did not run natively"
[ "$(copies native)" = 0 ] || fail native "host_copies='$(copies native)', want 0"
run devfail RT_FILL_NATIVE_ONLY=1 VAST_FAIL_DEVICE_MEM=1
cmp -s "$tmp/ref.bin" "$tmp/devfail.bin" || fail devfail "output differs from the plain build"
[ "$(copies devfail)" = 2 ] || fail devfail "host_copies='$(copies devfail)', want 2"
run all
n=$(copies all)
[ -n "$n" ] && [ "$n" -gt 0 ] || fail all "host_copies='$n', want > 0"
echo "ok: no host copy for native-only buffers; 2 when their device copies fail; $n for the whole program"
