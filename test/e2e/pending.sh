#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A non-blocking whole write followed by the paged launch that reads it
# is left in the program's memory, and the launch copies each range's
# pages into the host copy just before it sends them (runtime/exec/pending.c;
# issue 8, streaming): stencil2d (its grid read and written by ranges that
# share pages) and reduction must say so under VAST_LOG=debug, and their
# outputs equal the native run's byte for byte; with VAST_OVERLAP=0 the
# write is copied at once, same output. Without the launch's copy of each
# range's pages (paged.c, start_range) stencil2d's output differs.
# A program writes several inputs, then launches: blackscholes' three
# writes and spmv-ell's three are all left for the launch (the writes in
# between wait for it too, queue.c). spmv-ell's col is read by its
# inspector when x is not kept whole (VAST_RESIDENT=0): copied whole
# before the inspector runs (inspect.c), same output.
#   VAST_BUILD=build bash test/e2e/pending.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "pending: FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-pending.XXXXXX") || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS VAST_RESIDENT \
	VAST_OVERLAP
said="a whole write of [0-9]* bytes is left for the launch after it to copy"
for ex in stencil2d reduction; do
	VAST_E2E_BUILD_ONLY=$tmp/b bash "$here/diff.sh" $ex >/dev/null 2>&1 ||
		fail "building $ex failed"
	"$tmp/b/native/$ex/$ex" -o "$tmp/native.out" >/dev/null 2>&1 || fail "$ex: the native run failed"
	# reduction's second kernel is a few bytes: a share of its footprint
	# would leave it no room, so fixed budgets.
	if [ $ex = reduction ]; then budgets="16M 6M"; else budgets="50% 10%"; fi
	for mem in $budgets; do
		for overlap in 1 0; do
			VAST_DEVICE_MEM=$mem VAST_OVERLAP=$overlap VAST_LOG=debug \
				"$tmp/b/vast/$ex/$ex" -o "$tmp/vast.out" >"$tmp/log" 2>&1 ||
				{ grep -v "^vast: debug" "$tmp/log"; fail "$ex at $mem (VAST_OVERLAP=$overlap) failed"; }
			cmp -s "$tmp/native.out" "$tmp/vast.out" ||
				fail "$ex at $mem (VAST_OVERLAP=$overlap): output differs"
			n=$(grep -c "$said" "$tmp/log")
			if [ $overlap = 1 ] && [ "$n" = 0 ]; then fail "$ex at $mem: no write left pending"; fi
			if [ $overlap = 0 ] && [ "$n" != 0 ]; then fail "$ex at $mem: a write left pending with VAST_OVERLAP=0"; fi
		done
		echo "ok: $ex at $mem"
	done
done

for c in "blackscholes 1048576;25%" "spmv-ell 262144 16;25% 25%:0"; do
	set -- ${c%;*}
	ex=$1
	shift
	VAST_E2E_BUILD_ONLY=$tmp/b bash "$here/diff.sh" $ex >/dev/null 2>&1 ||
		fail "building $ex failed"
	"$tmp/b/native/$ex/$ex" -q -o "$tmp/native.out" "$@" >/dev/null 2>&1 ||
		fail "$ex: the native run failed"
	for run in ${c#*;}; do
		mem=${run%:*} res=1
		[ "$run" != "$mem" ] && res=${run#*:}
		VAST_DEVICE_MEM=$mem VAST_RESIDENT=$res VAST_LOG=debug \
			"$tmp/b/vast/$ex/$ex" -q -o "$tmp/vast.out" "$@" >"$tmp/log" 2>&1 ||
			{ grep -v "^vast: debug" "$tmp/log"; fail "$ex at $mem (VAST_RESIDENT=$res) failed"; }
		cmp -s "$tmp/native.out" "$tmp/vast.out" ||
			fail "$ex at $mem (VAST_RESIDENT=$res): output differs"
		n=$(grep -c "$said" "$tmp/log")
		[ "$n" = 3 ] || fail "$ex at $mem (VAST_RESIDENT=$res): $n of its 3 writes left pending"
		echo "ok: $ex at $mem (VAST_RESIDENT=$res): 3 writes left for the launch"
	done
done
