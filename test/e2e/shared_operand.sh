#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A read-only buffer every range reads (the B of a matrix multiply, whose
# every column strip crosses all its rows) is sent once and kept whole on
# the device for the launch (runtime/paged/keeps.c, keep_resident), not
# sent again by every range. mm2 (PolyBench's 2mm: tmp = alpha A B, then
# D = beta D + tmp C) at half of each launch's data: each kernel moves at
# most 1.5 times the bytes it must (VAST_STATS compulsory=) from the host,
# where C sent range by range beside tmp kept whole moved 14 times that
# (96 ranges); matrixmul's B is kept whole too. Outputs are the native
# ones byte for byte.
#   VAST_BUILD=build bash test/e2e/shared_operand.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "shared_operand: FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-shared.XXXXXX") || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS VAST_RESIDENT

# example, the kernel whose B is kept whole, its arguments
cases=(
	"mm2 mm2_kernel2 256"
	# B of 43 pages at 4 KiB: a page count that is no multiple of 8
	"mm2 mm2_kernel2 208"
	# B of 43 pages at 4 KiB: a page count that is no multiple of 8
	"mm2 mm2_kernel2 208"
	"matrixmul matrixmul 512 512 512"
)
for c in "${cases[@]}"; do
	set -- $c
	name=$1 shared=$2
	shift 2
	mkdir -p "$tmp/$name"
	VAST_E2E_BUILD_ONLY=$tmp/$name bash "$here/diff.sh" "$name" >/dev/null 2>&1 ||
		fail "building $name failed"
	"$tmp/$name/native/$name/$name" -q -o "$tmp/$name/native.out" "$@" >/dev/null 2>&1 ||
		fail "$name: the native run failed"
	log=$tmp/$name/log
	VAST_DEVICE_MEM=50% VAST_STATS=kv VAST_LOG=info \
		"$tmp/$name/vast/$name/$name" -q -o "$tmp/$name/vast.out" "$@" >"$log" 2>&1 ||
		{ tail -5 "$log" >&2; fail "$name: the run failed"; }
	cmp -s "$tmp/$name/native.out" "$tmp/$name/vast.out" ||
		fail "$name: output differs from the native run"
	grep -q "kernel '$shared': 1 buffers .* kept whole on the device" "$log" ||
		{ grep "kernel '$shared'" "$log" >&2; fail "$name: kernel $shared kept no buffer whole"; }
	lines=$(grep "^vast: kernel " "$log") || { cat "$log" >&2; fail "$name: no stats"; }
	while read -r line; do
		k=$(echo "$line" | sed -E 's/^vast: kernel ([^ ]*) .*/\1/')
		ranges=$(echo "$line" | sed -E 's/.* ranges=([0-9]+).*/\1/')
		h2d=$(echo "$line" | sed -E 's/.* h2d=([0-9]+).*/\1/')
		least=$(echo "$line" | sed -E 's/.* compulsory=([0-9]+).*/\1/')
		[ "$ranges" -ge 2 ] || fail "$name: kernel $k not paged ($line)"
		[ $((2 * h2d)) -le $((3 * least)) ] ||
			fail "$name: kernel $k sent $h2d bytes, more than 1.5 x compulsory $least"
		echo "shared_operand: $name: $k: identical; h2d=$h2d compulsory=$least ranges=$ranges"
	done <<<"$lines"
done
echo "shared_operand: PASS"
