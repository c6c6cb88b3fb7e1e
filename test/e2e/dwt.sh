#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# dwt.sh VASTCC: dwt/dwt.cl, the vertical pass of a 5/3 wavelet shaped like
# Rodinia's dwt2d (a column cursor in a private struct that helpers move
# through pointers, a stride in a second struct that the kernel negates
# at the bottom border through a pointer variable, columns in __local
# structs), built with cc and with vastcc. At budgets of a half and a
# quarter of its data every run writes the native run's bytes in at least
# 2 ranges; the inspector, which loads pixels through the cursor, must
# turn back where the kernel does (its stride negation was sliced away:
# it read past its buffer and died).
# An image of 5 rows makes the kernel itself read outside its input (its
# mirrored walk passes row 0 going up; natively nothing notices): the
# inspector's loads are checked against its buffers, so the launch is
# refused with a warning saying so, not a crash.
set -u
vastcc=$1
src=$(cd "$(dirname "$0")" && pwd)/dwt
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-dwt.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS
cp "$src"/* "$src/../../rt/rt_host.h" "$tmp/" && cd "$tmp" || exit 1
cc -O1 -w -o plain host.c -lOpenCL || { echo "FAIL: cc"; exit 1; }
"$vastcc" -O1 -w -o app host.c dwt.cl || { echo "FAIL: vastcc"; exit 1; }

for size in "1000 300" "999 301"; do
	./plain ref.bin $size || { echo "FAIL: $size: the native run failed"; exit 1; }
	for mem in 50% 25%; do
		name="$size/$mem"
		rm -f out.bin
		VAST_DEVICE_MEM=$mem VAST_STATS=kv ./app out.bin $size >log 2>&1
		rc=$?
		if [ $rc != 0 ]; then
			echo "FAIL: $name: exit status $rc"; cat log; fail=1; continue
		fi
		r=$(sed -n 's/^vast: kernel fdwt53 .* ranges=\([0-9]*\).*/\1/p' log)
		if ! cmp -s ref.bin out.bin; then
			echo "FAIL: $name: output differs from the native run"; fail=1
		elif [ -z "$r" ] || [ "$r" -lt 2 ]; then
			echo "FAIL: $name: ranges='$r', want >= 2"; fail=1
		else
			echo "ok: $name: identical in $r ranges"
		fi
	done
done

VAST_DEVICE_MEM=50% ./app out.bin 64 5 >log 2>&1
rc=$?
if [ $rc -ge 128 ]; then
	echo "FAIL: 64 5/50%: killed by signal $((rc - 128))"; fail=1
elif [ $rc = 0 ]; then
	echo "FAIL: 64 5/50%: ran, want a refusal"; fail=1
elif ! grep -q "^vast: warning: kernel 'fdwt53': its inspector read outside the buffers it was given; refusing to page it$" log; then
	echo "FAIL: 64 5/50%: no warning saying why"; cat log; fail=1
else
	echo "ok: 64 5/50%: refused: the kernel reads outside its input"
fi
[ $fail = 0 ] && echo "dwt: PASS"
exit $fail
