#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A work-group that walks every plane of a volume (fdtd3d: a tile of rows
# in each of its 128 planes) touches one run of pages per plane: 128
# copies a buffer a range, where a box bounding its rows of every plane
# (boxframes.c, rows of the outermost stride) is one. Planned from the
# footprint descriptors, both buffers go in as strided boxes
# (VRT_BOX_RUNS); the output is the native one byte for byte at a
# quarter and a fifth of the data, and the boxes send fewer bytes than
# the pages of the inspector's plan (VAST_FOOTPRINTS=0).
#   VAST_BUILD=build bash test/e2e/box_planes.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "box_planes: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-planes.XXXXXX") || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS VAST_RESIDENT
args="96 64 128 2"
VAST_E2E_BUILD_ONLY=$tmp bash "$here/diff.sh" fdtd3d >/dev/null 2>&1 || fail "building fdtd3d failed"
"$tmp/native/fdtd3d/fdtd3d" -q -o "$tmp/native.out" $args >/dev/null 2>&1 ||
	fail "the native run failed"
stat() { echo "$1" | sed -E "s/.* $2=([0-9]+).*/\\1/"; }
run() { # NAME ENV...: the h2d bytes of a run whose output is the native one
	local name=$1 line
	shift
	env VAST_LOG=debug VAST_STATS=kv "$@" "$tmp/vast/fdtd3d/fdtd3d" -q -o "$tmp/vast.out" $args \
		>"$tmp/log" 2>&1 || { tail -5 "$tmp/log" >&2; fail "$name: the run failed"; }
	cmp -s "$tmp/native.out" "$tmp/vast.out" || fail "$name: output differs from the native run"
	line=$(grep "^vast: kernel fdtd3d " "$tmp/log") || fail "$name: no stats"
	[ "$(stat "$line" ranges)" -ge 4 ] || fail "$name: too few ranges ($line)"
	stat "$line" h2d
}
for mem in 25% 20%; do
	boxed=$(run "$mem" VAST_DEVICE_MEM=$mem) || exit 1
	grep -q "kernel 'fdtd3d': 2 buffers go in as strided boxes" "$tmp/log" || fail "$mem: not boxed"
	paged=$(run "$mem VAST_FOOTPRINTS=0" VAST_DEVICE_MEM=$mem VAST_FOOTPRINTS=0) || exit 1
	grep -q "strided boxes" "$tmp/log" && fail "$mem VAST_FOOTPRINTS=0: boxed"
	[ "$boxed" -lt "$paged" ] || fail "$mem: h2d $boxed boxed, $paged in pages"
	echo "box_planes: $mem: h2d $boxed boxed, $paged in pages"
done
