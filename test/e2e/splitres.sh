#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# splitres.sh VASTCC: a launch split over two devices keeps its data
# resident on them (docs/multi.md, "Resident shares"). splitres/host.c
# launches y = 3a + b ten times on PoCL's two CPU devices, then reads y;
# the data fits each device. y must equal the cc build's byte for byte,
# and every launch run on resident shares (the split's log line,
# "resident (h2d B bytes, d2h D)"; VAST_LOG=debug, which prints a line
# again): the first moves a and b to the devices once (h2d =
# their bytes: nothing is written home before a split), every later
# launch split as the one before it moves nothing (it finds its windows
# where that one left them), no launch writes anything home, and y comes
# home once (VAST_STATS d2h = its bytes, the host's one read). With the
# host writing 4 KiB of a after the fifth launch, the sixth (split as the
# fifth) moves exactly those bytes. The partitioner may move a boundary
# between two launches (the devices' measured speeds differ by noise):
# such a launch moves what changed sides, unchecked; a run where the
# sixth launch moved its boundary, or where the partitioner gave one
# device a whole launch, is run again. Then y, left on the devices, is
# read by a kernel of one work-group on its own device, native and
# paged, before the host reads it: both as the cc build's.
set -u
vastcc=$1
src=$(cd "$(dirname "$0")" && pwd)/splitres
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-splitres.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS VAST_RESIDENT \
	VAST_STRAIGHT VAST_DEVICES
export VAST_CACHE_DIR=$tmp/cache
fail() { echo "splitres: FAIL: $*" >&2; exit 1; }
cp "$src"/* "$src/../../rt/rt_host.h" "$tmp/" && cd "$tmp" || exit 1
cc -O1 -w -o plain host.c -lOpenCL || fail "cc"
"$vastcc" -O1 -w -o app host.c splitres.cl || fail "vastcc"
field() { # KEY LOG: the axpb kernel's VAST_STATS value
	sed -n "s/^vast: kernel axpb .* $1=\([0-9,]*\).*/\1/p" "$2"
}
bytes=$((4 << 18)) # of each buffer
check() { # POKE: 0 ok, 1 failed, 2 the partitioner's choices leave nothing to check
	local poke=$1 log=log$1
	POCL_DEVICES="pthread pthread" VAST_DEVICES=all VAST_STATS=kv VAST_LOG=debug \
		./app 10 $poke out$poke.bin >$log 2>&1 || { tail -5 $log; echo "the run failed"; return 1; }
	cmp -s ref$poke.bin out$poke.bin || { echo "y differs from the native run"; return 1; }
	grep "kernel 'axpb': split over" $log |
		sed -n 's/.*(work-groups \([^,)]*\).*resident (h2d \([0-9]*\) bytes, d2h \([0-9]*\)).*/\1 \2 \3/p' |
		tr ' ' , >splits$poke
	if [ "$(wc -l <splits$poke)" != 10 ]; then
		# The partitioner, timing the devices, may give one all of a
		# launch (a slow measurement on a busy machine): run again.
		grep -q -e "one device pays best" -e "private copies [1-9]" $log && return 2
		cat $log; echo "want 10 launches split on resident shares"; return 1
	fi
	awk -F, -v bytes=$bytes -v poke=$poke '
		NR == 1 && $3 != 2 * bytes { print "launch 1 moved " $3 " bytes to the devices, want " 2 * bytes " (a and b once)"; bad = 1 }
		$4 != 0 { print "launch " NR " wrote " $4 " bytes home, want none"; bad = 1 }
		NR > 1 && $1 "," $2 == prev {
			same++
			want = poke && NR == 6 ? 4096 : 0
			if ($3 != want) { print "launch " NR ", split as the one before, moved " $3 " bytes, want " want; bad = 1 }
		}
		NR == 6 && $1 "," $2 != prev && poke { moved = 1 }
		{ prev = $1 "," $2 }
		END {
			if (!bad && same < 3) { print "fewer than 3 launches split as the one before"; moved = 1 }
			exit bad ? 1 : moved ? 2 : 0
		}' splits$poke
	local rc=$?
	[ $rc = 0 ] || { [ $rc = 2 ] && echo "the partitioner moved the boundaries too often to tell, 4 runs"; [ $rc = 2 ] || cat $log; return $rc; }
	local d2h
	d2h=$(field d2h $log)
	[ "$d2h" = "$bytes" ] || { cat $log; echo "d2h=$d2h, want $bytes (y once, read at the end)"; return 1; }
	return 0
}
for poke in 0 1; do
	./plain 10 $poke ref$poke.bin || fail "the native run failed"
	for try in 1 2 3 4; do
		why=$(check $poke)
		rc=$?
		[ $rc = 2 ] || break
	done
	[ $rc = 0 ] || fail "poke=$poke: $why"
done
# y left on the devices, then read by a kernel of one work-group on its
# own device, natively (its device copy gathers y from both devices'
# copies) and paged (y comes home first; budgets of 3/4 of each launch's
# data: axpb's windows fit, gather's y does not): z and y as the cc
# build's.
./plain 10 2 ref2.bin || fail "the native run failed"
for mode in native paged; do
	env POCL_DEVICES="pthread pthread" VAST_DEVICES=all VAST_STATS=kv VAST_LOG=debug \
		$([ $mode = paged ] && echo VAST_DEVICE_MEM=75%) ./app 10 2 out2.bin >log2 2>&1 ||
		{ tail -5 log2; fail "gather ($mode): the run failed"; }
	cmp -s ref2.bin out2.bin || { grep -v debug log2; fail "gather ($mode): y or z differs from the native run"; }
	grep -q "kernel 'axpb': split over.*resident" log2 || { grep -v debug log2; fail "gather ($mode): axpb never ran on resident shares"; }
	grep -q "^vast: kernel gather .* $mode=1" log2 || { grep -v debug log2; fail "gather: want it run $mode"; }
done
echo "splitres: ok"
