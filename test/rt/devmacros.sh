#!/bin/bash
# SPDX-License-Identifier: MIT
# devmacros.sh VASTCC SRCDIR: device-dependent macros (issue 7, item 12).
# examples/vadd's host with two kernels built by cc and by vastcc:
#   match.cl tests macros the device (PoCL's CPU device) predefines as
#   vastcc assumed: same output as native, no warning, paged in >= 2 ranges;
#   mismatch.cl tests cl_khr_fp16, which vastcc assumed defined and the
#   device lacks: exactly one warning naming it, and the native result
#   (the generated code would compute a - b; the host checks a + b).
set -u
vastcc=$1 src=$2
ex=$(cd "$src/../../examples" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_DEVICES
fail() { echo "FAIL: $*"; exit 1; }
cd "$tmp" || exit 1
for k in match mismatch; do
	cp "$src/devmacros/$k.cl" "$k.cl" || exit 1
	cc -O2 -I"$ex/common" -o "$k-plain" "$ex/vadd/host.c" -lOpenCL -lm ||
		fail "cc $k"
	"$vastcc" -O2 -I"$ex/common" -o "$k-vast" "$ex/vadd/host.c" "$k.cl" -lm ||
		fail "vastcc $k"
	"./$k-plain" -q -k "$k.cl" -o "$k.native" 2>"$k.native.err" ||
		{ cat "$k.native.err"; fail "native $k"; }
done

VAST_DEVICE_MEM=50% VAST_STATS=kv ./match-vast -q -k match.cl -o match.out 2>match.err ||
	{ cat match.err; fail "match: the vastcc run failed"; }
cmp match.native match.out || fail "match: output differs from native"
if grep -q warning match.err; then cat match.err; fail "match: a warning"; fi
ranges=$(sed -n 's/^vast: kernel vadd .* ranges=\([0-9][0-9]*\).*/\1/p' match.err | tail -n 1)
[ "${ranges:-0}" -ge 2 ] || { cat match.err; fail "match: not paged (ranges=${ranges:-none})"; }

./mismatch-vast -q -k mismatch.cl -o mismatch.out 2>mismatch.err ||
	{ cat mismatch.err; fail "mismatch: the vastcc run failed"; }
cmp mismatch.native mismatch.out || fail "mismatch: output differs from native"
n=$(grep -c "warning: program 'mismatch.cl' tests 'cl_khr_fp16', which vastcc took as 1 and device '.*' has undefined; running natively" mismatch.err)
[ "$n" = 1 ] || { cat mismatch.err; fail "mismatch: want one warning, got $n"; }
[ "$(grep -c warning mismatch.err)" = 1 ] || { cat mismatch.err; fail "mismatch: other warnings"; }
echo ok
