#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# oob_vector.sh VASTCC: oob_vector/gather.cl, a gather whose inspector
# needs an int4 of indices loaded through a __global int4 *, built with
# cc and with vastcc. At a half and a quarter of its data it writes the
# native run's bytes in at least 2 ranges.
# Launched over more work-items than it has indices, the kernel reads
# past idx: the inspector's checked load (prelude.cl, vast_load) reads
# the zero scratch at the end of its pasinfo instead, and the launch is
# refused with a warning saying so, not a crash. With four buffers the
# scratch began at byte 120, so the aligned 16-byte load there was
# misaligned (PoCL's CPU died of it, NVIDIA's sticks an error); it now
# begins at a multiple of VAST_INSPECT_SCRATCH bytes.
set -u
vastcc=$1
src=$(cd "$(dirname "$0")" && pwd)/oob_vector
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-oob_vector.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS
cp "$src"/* "$src/../../rt/rt_host.h" "$tmp/" && cd "$tmp" || exit 1
cc -O1 -w -o plain host.c -lOpenCL || { echo "FAIL: cc"; exit 1; }
"$vastcc" -O1 -w -o app host.c gather.cl || { echo "FAIL: vastcc"; exit 1; }

size="4096 65536"
./plain ref.bin $size 0 || { echo "FAIL: $size: the native run failed"; exit 1; }
for mem in 50% 25%; do
	name="$size/$mem"
	rm -f out.bin
	VAST_DEVICE_MEM=$mem VAST_STATS=kv ./app out.bin $size 0 >log 2>&1
	rc=$?
	if [ $rc != 0 ]; then
		echo "FAIL: $name: exit status $rc"; cat log; fail=1; continue
	fi
	r=$(sed -n 's/^vast: kernel gather4 .* ranges=\([0-9]*\).*/\1/p' log)
	if ! cmp -s ref.bin out.bin; then
		echo "FAIL: $name: output differs from the native run"; fail=1
	elif [ -z "$r" ] || [ "$r" -lt 2 ]; then
		echo "FAIL: $name: ranges='$r', want >= 2"; fail=1
	else
		echo "ok: $name: identical in $r ranges"
	fi
done

# 256 work-items past idx's 4096 int4s.
for mem in 50% 25%; do
	name="$size +256/$mem"
	VAST_DEVICE_MEM=$mem ./app out.bin $size 256 >log 2>&1
	rc=$?
	if [ $rc -ge 128 ]; then
		echo "FAIL: $name: killed by signal $((rc - 128))"; fail=1
	elif [ $rc = 0 ]; then
		echo "FAIL: $name: ran, want a refusal"; fail=1
	elif ! grep -q "^vast: warning: kernel 'gather4': its inspector read outside the buffers it was given; refusing to page it$" log; then
		echo "FAIL: $name: no warning saying why"; cat log; fail=1
	else
		echo "ok: $name: refused: the kernel reads past idx"
	fi
done
[ $fail = 0 ] && echo "oob_vector: PASS"
exit $fail
