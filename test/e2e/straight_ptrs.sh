#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# straight_ptrs.sh VASTCC: the straight kernel's __global buffers point
# into the frames (docs/generated-kernels.md), so a program's pointer
# values keep their meaning: straight_ptrs/host.c runs ptrs.cl's blend
# (a pointer chosen at run time, one passed to a helper, comparisons
# within a buffer, two parameters bound to one buffer, a NULL buffer) in
# eight cases, paged in several ranges, every range straight, and with
# the checked paged kernel (VAST_STRAIGHT=0): the bytes of the cc build.
set -u
vastcc=$1
src=$(cd "$(dirname "$0")" && pwd)/straight_ptrs
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-straight-ptrs.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_FAIL_RANGE VAST_LOG VAST_PINNED VAST_FOOTPRINTS \
	VAST_STRAIGHT
cp "$src"/* "$src/../../rt/rt_host.h" "$tmp/" && cd "$tmp" || exit 1
cc -O1 -w -o plain host.c -lOpenCL || { echo "FAIL: cc"; exit 1; }
"$vastcc" -O1 -w -o app host.c ptrs.cl || { echo "FAIL: vastcc"; exit 1; }
./plain ref.bin || { echo "FAIL: the native run failed"; exit 1; }
check() { # name, VAST_STRAIGHT, env...
	local name=$1 st=$2
	shift 2
	rm -f out.bin
	if ! env "$@" VAST_STRAIGHT=$st VAST_STATS=kv ./app out.bin >log 2>&1; then
		echo "FAIL: $name: exit status"; cat log; fail=1; return
	fi
	local ranges straight
	ranges=$(sed -n 's/^vast: kernel blend .* ranges=\([0-9]*\).*/\1/p' log)
	straight=$(sed -n 's/^vast: kernel blend .* straight=\([0-9]*\).*/\1/p' log)
	if ! cmp -s ref.bin out.bin; then
		echo "FAIL: $name: output differs from the native run"; fail=1
	elif [ "${ranges:-0}" -lt 16 ]; then
		echo "FAIL: $name: ranges=$ranges, want at least 2 a launch"; fail=1
	elif { [ "$st" = 1 ] && [ "$straight" != "$ranges" ]; } ||
		{ [ "$st" = 0 ] && [ "$straight" != 0 ]; }; then
		echo "FAIL: $name: straight=$straight of $ranges ranges"; fail=1
	else
		echo "ok: $name: identical; ranges=$ranges straight=$straight"
	fi
}
check "straight" 1 VAST_DEVICE_MEM=256K
check "checked paged kernel" 0 VAST_DEVICE_MEM=256K
[ $fail = 0 ] && echo "straight_ptrs: PASS"
exit $fail
