#!/bin/bash
# SPDX-License-Identifier: MIT
# fresh_zeros.sh VAST SOURCE.cl: host_fresh's step 9 (FRESH_ZEROS) under
# every way the runtime may hold a buffer nobody wrote: a buffer that reads
# as anything but zeros fails. malloc hands out recycled, perturbed memory
# (glibc: below the mmap threshold, MALLOC_PERTURB_), so host copies the
# runtime forgot to zero read as garbage.
set -u
vast=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export FRESH_ZEROS=1 MALLOC_MMAP_THRESHOLD_=33554432 MALLOC_PERTURB_=165
fail=0
for env in "" VAST_MODE=paged VAST_DEVICE_MEM=6M "VAST_DEVICE_MEM=6M VAST_PINNED=0" \
	VAST_DEVICE_MEM=10%; do
	# shellcheck disable=SC2086 # the words are assignments
	if env $env "$vast" "$tmp/out.bin" "$src" 2>"$tmp/err"; then
		echo "ok: ${env:-no budget}"
	else
		echo "FAIL: ${env:-no budget}"
		cat "$tmp/err"
		fail=1
	fi
done
exit $fail
