#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Each range's kernel reads its own look-ahead page table: a kept plan's
# tables go to the device once, a buffer each, and range r binds its own
# (runtime/paged/lpts.c). examples/repeat under a
# budget of 1/8 of its data (tens of ranges a launch, each mapping other
# pages of `in` and `out` into the frames), with the paged kernel
# (VAST_STRAIGHT=0: it translates every access through the table; a
# range bound to another range's table faults or writes the wrong
# bytes), L and 2L launches (the plan and its tables reused; every
# other launch runs its ranges last first). Outputs equal the native
# run's byte for byte; the ranges' tables (their LPTs and pages to fill)
# are made once, at the plan's second launch (VAST_LOG=debug says so once,
# however many launches run it; a single launch makes none); and the L
# launches more send no table: their
# extra bytes in are whole 4 KiB pages (a table of this launch is 672
# bytes).
#   VAST_BUILD=build bash test/e2e/range_tables.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "range_tables: FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-tables.XXXXXX") || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS VAST_RESIDENT \
	VAST_STRAIGHT
VAST_E2E_BUILD_ONLY=$tmp bash "$here/diff.sh" repeat >/dev/null 2>&1 || fail "building repeat failed"
field() { # name, log
	sed -n "s/^vast: kernel bump .* $1=\([0-9]*\).*/\1/p" "$2"
}
n=65536 l=4
h2d=()
for k in $l $((2 * l)); do
	"$tmp/native/repeat/repeat" -q -o "$tmp/native.out" $n $k >/dev/null 2>&1 ||
		fail "the native run failed"
	VAST_DEVICE_MEM=$((n * 8 / 8)) VAST_PAGE_SIZE=4096 VAST_STRAIGHT=0 VAST_STATS=kv VAST_LOG=debug \
		"$tmp/vast/repeat/repeat" -q -o "$tmp/vast.out" $n $k >"$tmp/log" 2>&1 ||
		{ cat "$tmp/log" >&2; fail "$k launches: the run failed"; }
	cmp -s "$tmp/native.out" "$tmp/vast.out" || fail "$k launches: output differs"
	ranges=$(field ranges "$tmp/log") straight=$(field straight "$tmp/log")
	[ "${ranges:-0}" -ge $((8 * (k + 1))) ] ||
		fail "$k launches: ranges=$ranges, want at least 8 a launch"
	[ "$straight" = 0 ] || fail "$k launches: straight=$straight, want 0 (VAST_STRAIGHT=0)"
	[ "$(field plan_hits "$tmp/log")" = "$k" ] ||
		fail "$k launches: plan_hits=$(field plan_hits "$tmp/log"), want $k"
	made=$(grep -c "kernel 'bump': the tables of [0-9]* ranges made" "$tmp/log")
	[ "$made" = 1 ] || fail "$k launches: the ranges' tables made $made times, want once (with the plan)"
	h2d+=("$(field h2d "$tmp/log")")
	echo "range_tables: $k launches: identical; ranges=$ranges h2d=${h2d[-1]}"
done
# A plan launched once makes no tables: its ranges build their own, each
# while the one before runs, rather than all before the first (vadd: one
# launch, tens of ranges).
VAST_E2E_BUILD_ONLY=$tmp bash "$here/diff.sh" vadd >/dev/null 2>&1 || fail "building vadd failed"
"$tmp/native/vadd/vadd" -q -o "$tmp/native.out" $n >/dev/null 2>&1 || fail "the native vadd failed"
VAST_DEVICE_MEM=$((n * 12 / 8)) VAST_PAGE_SIZE=4096 VAST_STATS=kv VAST_LOG=debug \
	"$tmp/vast/vadd/vadd" -q -o "$tmp/vast.out" $n >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log" >&2; fail "vadd: the run failed"; }
cmp -s "$tmp/native.out" "$tmp/vast.out" || fail "vadd: output differs"
ranges=$(sed -n "s/^vast: kernel vadd .* ranges=\([0-9]*\).*/\1/p" "$tmp/log")
[ "${ranges:-0}" -ge 8 ] || fail "vadd: ranges=$ranges, want at least 8"
made=$(grep -c "kernel 'vadd': the tables of [0-9]* ranges made" "$tmp/log")
[ "$made" = 0 ] || fail "vadd, one launch: the ranges' tables made $made times, want none"
echo "range_tables: vadd, one launch of $ranges ranges: identical, no tables made"
more=$((h2d[1] - h2d[0]))
[ $((more % 4096)) = 0 ] ||
	fail "$l launches more sent $more bytes, not whole pages: tables sent again"
echo "range_tables: PASS"
