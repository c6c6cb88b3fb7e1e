#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The hold (runtime/paged/keeps.c, choose_hold; issue 10, "a device page cache
# shared by all launches"): once two paged launches used a buffer, the
# first pages of it stay on the device from launch to launch in a buffer
# no range refills; a range whose pages of it all lie there is bound to
# it and neither sends nor writes back any of them, the others take them
# device-side. Pages of 4 KiB (VAST_PAGE_SIZE) so that a few MB leave
# the frames their 64 pages a set and the hold the rest.
#   fdtd2d    three kernels a step, at half its data and at a third:
#             straddling ranges share a page with ranges bound to the
#             hold, before and after them (the order flips each launch);
#   jacobi2d  two sweeps a step, at half its data;
#   iterate   the host reads, changes and writes back the grid every
#             10th round and maps it at round 25: pages in the hold go
#             home before the host reads, and are stale after it writes.
# Each run's output is the native one byte for byte, with the hold and
# without it (VAST_HOLD=0), at pipeline depths 3 and 2; fdtd2d and
# jacobi2d make the hold once, keep it, and move fewer bytes (h2d + d2h)
# with it; iterate makes one for its sweeps and one for its gathers (the
# paged inspector between takes the room). VAST_STATS's compulsory= of
# fdtd2d's kernels is checked against the per-launch bound.
#   VAST_BUILD=build bash test/e2e/hold.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "hold: FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-hold.XXXXXX") || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS VAST_RESIDENT \
	VAST_HOLD
for ex in fdtd2d jacobi2d iterate; do
	VAST_E2E_BUILD_ONLY=$tmp bash "$here/diff.sh" $ex >/dev/null 2>&1 || fail "building $ex failed"
done
moved() { # log: h2d + d2h over the kernels
	sed -n 's/^vast: kernel .* h2d=\([0-9]*\) d2h=\([0-9]*\).*/\1 \2/p' "$1" |
		awk '{ s += $1 + $2 } END { print s + 0 }'
}
check() { # fewer|any, example, budget, args...
	local want=$1 ex=$2 mem=$3
	shift 3
	"$tmp/native/$ex/$ex" -q -o "$tmp/native.out" "$@" >/dev/null 2>&1 ||
		fail "$ex: the native run failed"
	for depth in 3 2; do
		local with without
		for hold in 1 0; do
			env VAST_HOLD=$hold VAST_PIPELINE=$depth VAST_DEVICE_MEM=$mem VAST_PAGE_SIZE=4096 \
				VAST_STATS=kv VAST_LOG=debug "$tmp/vast/$ex/$ex" -q -o "$tmp/vast.out" "$@" \
				>"$tmp/log.$hold" 2>&1 ||
				{ tail -5 "$tmp/log.$hold" >&2; fail "$ex $mem depth $depth VAST_HOLD=$hold: the run failed"; }
			cmp -s "$tmp/native.out" "$tmp/vast.out" ||
				fail "$ex $mem depth $depth VAST_HOLD=$hold: output differs from the native run"
		done
		local made
		made=$(grep -c "the hold keeps" "$tmp/log.1")
		grep -q "the hold keeps" "$tmp/log.0" && fail "$ex $mem depth $depth VAST_HOLD=0: a hold"
		with=$(moved "$tmp/log.1")
		without=$(moved "$tmp/log.0")
		if [ "$want" = fewer ]; then
			[ "$made" = 1 ] || fail "$ex $mem depth $depth: want the hold made once, got $made"
			[ "$with" -lt "$without" ] ||
				fail "$ex $mem depth $depth: $with bytes moved with the hold, $without without"
		else
			[ "$made" -ge 1 ] || fail "$ex $mem depth $depth: no hold"
		fi
		echo "hold: $ex $mem depth $depth: identical; $without bytes moved without the hold, $with with it"
	done
}
check fewer fdtd2d 6M 1008 1008 12 || exit 1
# VAST_STATS's compulsory= is the per-launch bound (README): a launch of
# buffers of F bytes writing W under a budget B must move F - B in and
# min(W, F - B) back. fdtd2d's 12 steps launch each kernel 12 times over
# arrays of A bytes: ey and ex over 2A writing A, hz over 3A writing A.
bound() { # F W B launches
	awk -v f="$1" -v w="$2" -v b="$3" -v n="$4" \
		'BEGIN { i = f > b ? f - b : 0; printf "%d\n", n * (i + (w < i ? w : i)) }'
}
a=$((1008 * 1008 * 4)) b=$((6 << 20))
for k in "fdtd_ey $((2 * a))" "fdtd_ex $((2 * a))" "fdtd_hz $((3 * a))"; do
	set -- $k
	want=$(bound "$2" "$a" "$b" 12)
	got=$(sed -n "s/^vast: kernel $1 .* compulsory=\([0-9]*\).*/\1/p" "$tmp/log.0")
	[ "$got" = "$want" ] || fail "fdtd2d 6M: $1 compulsory=$got, want $want"
done
echo "hold: fdtd2d 6M: compulsory= is the per-launch bound"
check fewer fdtd2d 4M 1008 1008 12 || exit 1
check fewer jacobi2d 4M 1008 12 || exit 1
check any iterate 2M 1008 1008 30 || exit 1
