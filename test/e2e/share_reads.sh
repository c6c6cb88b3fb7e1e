#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Pages of a read-only buffer that a range shares with the range before
# it are copied device-side from that range's frames, not sent again
# (runtime/paged/reuse.c, share_reads): spmv-ell, whose every range reads the
# whole vector, and fdtd3d, whose ranges share halo rows of every plane,
# with three frame sets in flight at small budgets. Each run's output is
# the native one byte for byte, and it sends at most 3/4 of the bytes the
# same run sends with nothing kept on the device (VAST_RESIDENT=0).
#   VAST_BUILD=build bash test/e2e/share_reads.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "share_reads: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-share.XXXXXX") || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS VAST_RESIDENT

stat() { echo "$1" | sed -E "s/.* $2=([0-9]+).*/\\1/"; }

h2d() { # NAME ARGS MEM RESIDENT: the h2d bytes of the paged launch
	local name=$1 args=$2 mem=$3 res=$4 line
	VAST_PIPELINE=3 VAST_DEVICE_MEM=$mem VAST_RESIDENT=$res VAST_STATS=kv \
		"$tmp/$name/vast/$name/$name" -q -o "$tmp/vast.out" $args >"$tmp/log" 2>&1 ||
		{ cat "$tmp/log" >&2; fail "$name $args at $mem: the run failed"; }
	cmp -s "$tmp/native.out" "$tmp/vast.out" ||
		fail "$name $args at $mem, VAST_RESIDENT=$res: output differs from the native run"
	line=$(grep "^vast: kernel " "$tmp/log" | head -n 1) || fail "$name: no stats"
	[ "$(stat "$line" ranges)" -ge 4 ] || fail "$name $args at $mem: too few ranges ($line)"
	[ "$res" = 1 ] && [ "$(stat "$line" h2d_saved)" = 0 ] &&
		fail "$name $args at $mem: nothing taken from the device ($line)"
	stat "$line" h2d
}

for c in "spmv-ell|200000 16|10%" "spmv-ell|200000 16|25%" "fdtd3d|1024 256 16 1|25%" \
	"fdtd3d|1024 256 16 1|10%"; do
	IFS='|' read -r name args mem <<<"$c"
	if [ ! -d "$tmp/$name" ]; then
		VAST_E2E_BUILD_ONLY=$tmp/$name bash "$here/diff.sh" "$name" >/dev/null 2>&1 ||
			fail "building $name failed"
	fi
	"$tmp/$name/native/$name/$name" -q -o "$tmp/native.out" $args >/dev/null 2>&1 ||
		fail "$name $args: the native run failed"
	shared=$(h2d "$name" "$args" "$mem" 1) || exit 1
	alone=$(h2d "$name" "$args" "$mem" 0) || exit 1
	[ $((4 * shared)) -le $((3 * alone)) ] ||
		fail "$name $args at $mem: h2d $shared with pages shared, $alone without"
	echo "share_reads: $name $args at $mem: h2d $shared with pages shared, $alone without"
done
