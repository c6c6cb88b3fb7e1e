#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Pages a range writes in part go in by their gaps (issue 9 item 3,
# runtime/plan/gaps.c): jacobi2d's sweep writes every cell of its output but
# the border ones (x == 0, x == n-1: a few bytes at the end of each row
# and the start of the next), so no page of a row is covered whole, and
# every page of the output went in from the host before. Now only the
# border cells' bytes do, where their copies take less time than the
# pages' (gaps.c, vrt_gaps_worth). At a quarter of each launch's data
# (2048 x 2048 floats: ranges large enough for the gaps to pay), with the
# default pages and with pages kept on the device off (VAST_RESIDENT=0,
# every page of the input goes in each launch): the output must equal
# the native run byte for byte, the log must say the gaps went in, and
# the bytes sent must stay within the inputs' plus an eighth of the
# outputs' (before: inputs plus outputs). With 1 KiB pages (eight a row:
# the middle six covered whole, the two others cheaper whole), exactness
# only.
#   VAST_BUILD=build bash test/e2e/gaps.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "gaps: FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-gaps.XXXXXX") || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS VAST_RESIDENT

stat() { echo "$1" | sed -E "s/.* $2=([0-9]+).*/\\1/"; }

VAST_E2E_BUILD_ONLY=$tmp/j bash "$here/diff.sh" jacobi2d >/dev/null 2>&1 || fail "building jacobi2d failed"
n=2048 steps=2
bytes=$((n * n * 4))
"$tmp/j/native/jacobi2d/jacobi2d" -q -o "$tmp/native.out" $n $steps >/dev/null 2>&1 ||
	fail "the native run failed"
for run in "auto 1 gaps" "auto 0 gaps" "1K 1 any"; do
	read -r page resident want <<<"$run"
	at="pages '$page', resident $resident"
	[ "$page" = auto ] && page=
	VAST_DEVICE_MEM=25% VAST_PAGE_SIZE=$page VAST_RESIDENT=$resident VAST_LOG=debug VAST_STATS=kv \
		"$tmp/j/vast/jacobi2d/jacobi2d" -q -o "$tmp/vast.out" $n $steps >"$tmp/log" 2>&1 ||
		{ grep -v "^vast: debug" "$tmp/log" >&2; fail "$at: the vastcc run failed"; }
	cmp -s "$tmp/native.out" "$tmp/vast.out" || fail "$at: output differs from the native run"
	line=$(grep "^vast: kernel jacobi2d " "$tmp/log") || fail "$at: no stats"
	launches=$(stat "$line" launches) ranges=$(stat "$line" ranges) h2d=$(stat "$line" h2d)
	[ "$ranges" -ge $((2 * launches)) ] || fail "$at: fewer than 2 ranges a launch: $line"
	limit=$((launches * (bytes + bytes / 8)))
	if [ "$want" = gaps ]; then
		grep -q "gaps of pages written in part" "$tmp/log" || fail "$at: no gaps went in"
		[ "$h2d" -le "$limit" ] || fail "$at: $h2d bytes sent, more than $limit: $line"
	fi
	echo "gaps: $at: h2d=$h2d (limit $limit, launches=$launches ranges=$ranges)"
done
echo "gaps: PASS"
