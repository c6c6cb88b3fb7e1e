#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Must-write pages of inspector-planned launches (runtime/plan/
# cover.c): a kernel with an access that has no footprint descriptor is
# planned by its inspector, but the pages of a pure output that a range's
# must-write boxes cover whole are not filled from the host first. Each
# case runs at a quarter and a tenth of its data, with the launch's own
# pages and with 1 KiB (or 256-byte) pages, and once from pageable memory
# (VAST_PINNED=0: staged slots, whose frames go in as few large copies,
# paged/move.c write_staged), each twice: by default, and with
# VAST_FOOTPRINTS=0 (no descriptors: every written page filled, as before).
# Both must equal the native run byte for byte, in several ranges.
# padout reads its input at indices loaded from it: no descriptor bounds
# that, and its launches must be planned by the inspector (fp_plans=0).
# sobelfilter's and medianfilter's reads go through clamp(), inspected
# today; should their reads get descriptors, the bytes saved must hold
# all the same.
#
# Dense cases (an image W pixels wide, W not a multiple of the 16-pixel
# tile or of a page, stores guarded by x < w, y < h): the bytes sent must
# drop by at least half the output's bytes, and the bytes sent beyond the
# input must be fewer than the output's (before, every written page went
# in: at least input + output). Padded case (padout, rows PITCH > W apart,
# the host's pattern in the padding and in two rows past the image): the
# guarded boxes leave gaps, and every byte the kernel does not write must
# come back as the host put it.
#   VAST_BUILD=build bash test/e2e/mustwrite.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "mustwrite: FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-mw.XXXXXX") || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS VAST_RESIDENT

stat() { echo "$1" | sed -E "s/.* $2=([0-9]+).*/\\1/"; }

# example, must it be inspector-planned, small pages, input bytes, output
# bytes (0: padded, exactness only), arguments
cases=(
	"sobelfilter any 1K $((1000 * 2000 * 4)) $((1000 * 2000 * 4)) 1000 2000"
	"medianfilter any 1K $((1000 * 2000 * 4)) $((1000 * 2000 * 4)) 1000 2000"
	"padout inspector 1K $((1500 * 1400 * 4)) $((1500 * 1400 * 4)) 1500 1400"
	"padout inspector 256 $((1000 * 777 * 4)) 0 1000 777 1003"
	"padout inspector 1K $((1000 * 777 * 4)) 0 1000 777 3000"
)
for c in "${cases[@]}"; do
	set -- $c
	name=$1 planner=$2 small=$3 input=$4 output=$5
	shift 5
	if [ ! -d "$tmp/$name" ]; then
		VAST_E2E_BUILD_ONLY=$tmp/$name bash "$here/diff.sh" "$name" >/dev/null 2>&1 ||
			fail "building $name failed"
	fi
	"$tmp/$name/native/$name/$name" -q -o "$tmp/native.out" "$@" >/dev/null 2>&1 ||
		fail "$name $*: the native run failed"
	for run in "25% auto 1" "25% $small 1" "10% auto 1" "10% $small 1" "25% auto 0"; do
		read -r mem page pinned <<<"$run"
		[ "$page" = auto ] && page=
		at="$name $* at $mem, pages '${page:-auto}'$([ "$pinned" = 0 ] && echo ', pageable')"
		declare -A h2d=()
		for fp in 0 1; do
			log=$tmp/log
			VAST_PINNED=$pinned VAST_PAGE_SIZE=$page VAST_FOOTPRINTS=$fp VAST_STATS=kv \
				VAST_DEVICE_MEM=$mem "$tmp/$name/vast/$name/$name" -q -o "$tmp/vast.out" "$@" \
				>"$log" 2>&1 ||
				{ cat "$log" >&2; fail "$at, VAST_FOOTPRINTS=$fp: the run failed"; }
			cmp -s "$tmp/native.out" "$tmp/vast.out" ||
				fail "$at, VAST_FOOTPRINTS=$fp: output differs from the native run"
			line=$(grep "^vast: kernel $name " "$log") || { cat "$log" >&2; fail "$at: no stats"; }
			[ "$(stat "$line" ranges)" -ge 2 ] || fail "$at: not paged ($line)"
			[ "$planner" = any ] || [ "$(stat "$line" fp_plans)" = 0 ] ||
				fail "$at: planned from descriptors, not by the inspector ($line)"
			h2d[$fp]=$(stat "$line" h2d)
		done
		if [ "$output" != 0 ]; then
			[ $((2 * (h2d[0] - h2d[1]))) -ge "$output" ] ||
				fail "$at: h2d ${h2d[1]}, ${h2d[0]} filling every written page: less than half the output's $output bytes saved"
			[ $((h2d[1] - input)) -lt "$output" ] ||
				fail "$at: h2d ${h2d[1]} for $input bytes of input: the output was filled"
		fi
		echo "mustwrite: $at: identical; h2d ${h2d[1]} (${h2d[0]} filling every written page), input $input"
	done
done

# Boxes that only cover together (cover.c fuses them): fdtd3d's store is
# guarded by x < dx, y < dy, so each range's must-write boxes are the whole
# tiles, the clipped column, the clipped row and the corner; with dx and
# dy not multiples of the 32x8 tile, no one box covers a page. With the
# paged kernels over all the data (one range, VAST_MODE=paged) the output
# must not go in at all, and at a quarter budget with 1 KiB pages at
# least half of it must be saved.
name=fdtd3d input=$((120 * 100 * 50 * 4))
VAST_E2E_BUILD_ONLY=$tmp/$name bash "$here/diff.sh" $name >/dev/null 2>&1 || fail "building $name failed"
"$tmp/$name/native/$name/$name" -q -o "$tmp/native.out" 120 100 50 1 >/dev/null 2>&1 ||
	fail "$name: the native run failed"
for run in "paged auto" "25% 1K"; do
	read -r mem page <<<"$run"
	[ "$page" = auto ] && page=
	declare -A h2d=()
	for fp in 0 1; do
		log=$tmp/log
		if [ "$mem" = paged ]; then m=VAST_MODE=paged; else m=VAST_DEVICE_MEM=$mem; fi
		env $m VAST_PAGE_SIZE=$page VAST_FOOTPRINTS=$fp VAST_STATS=kv \
			"$tmp/$name/vast/$name/$name" -q -o "$tmp/vast.out" 120 100 50 1 >"$log" 2>&1 ||
			{ cat "$log" >&2; fail "$name at $mem, VAST_FOOTPRINTS=$fp: the run failed"; }
		cmp -s "$tmp/native.out" "$tmp/vast.out" ||
			fail "$name at $mem, VAST_FOOTPRINTS=$fp: output differs from the native run"
		line=$(grep "^vast: kernel $name " "$log") || { cat "$log" >&2; fail "$name: no stats"; }
		h2d[$fp]=$(stat "$line" h2d)
	done
	if [ "$mem" = paged ]; then # the output is as large as the input
		[ $((100 * (h2d[1] - input))) -lt "$input" ]
	else
		[ $((2 * (h2d[0] - h2d[1]))) -ge "$input" ]
	fi || fail "$name at $mem: h2d ${h2d[1]} for $input bytes of input (${h2d[0]} filling every written page)"
	echo "mustwrite: $name at $mem: identical; h2d ${h2d[1]} (${h2d[0]} filling every written page), input $input"
done
echo "mustwrite: PASS"
