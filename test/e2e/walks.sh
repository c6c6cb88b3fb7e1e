#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# walks.sh VASTCC: the kernels of walks/walks.cl (issue 9's Tests: gemm
# whose B alone exceeds half the budget, A^T x, column sums, a transpose,
# a 2-D stencil), each in its own run of walks/host.c, built with cc and
# with vastcc. At budgets of a quarter and a tenth of the data, planned
# from footprint descriptors (VAST_FOOTPRINTS=1: fp_plans=1), from them
# cross-checked by the inspector (=check: a page the inspector marks and
# they miss fails the run) and by the inspector alone (=0: fp_plans=0),
# every run writes the bytes of the native run in at least 2 ranges. One work-group's 4 KiB pages do not fit these
# budgets: they page with smaller pages (runtime/paged/planner.c).
#   transpose, tposeodd (writes half its output's elements), colsum,
#   colbump (reads and writes its strips) and leftcols (strips of half the
#   columns; the other groups touch none of the matrix) at a quarter and
#   a tenth page some buffers as packed boxes of their strips
#   (boxframes.c), whose pages would move twice their bytes or more; the
#   runs with the inspector alone (=0) page.
#   colsum, colbump and leftcols at a tenth: rows of 4000 bytes put each
#   group's 256-byte strip of a row across two 256-byte pages, twice its
#   bytes, plus an LPT entry per 256 bytes, so no page size fits; the
#   matrix goes in as one packed strided box per range instead (issue 9
#   item 3), its bytes sent once. The inspector alone (=0) knows no boxes:
#   colsum, whose work-items are independent of their group, runs as
#   smaller groups (runtime/launch/launch.c); with that off (VAST_WGSPLIT=0) it
#   is refused, naming the kernel, the bytes and the budget, with no
#   output (the other two are not run so).
#   atx at a quarter with device buffers of at most 64K and groups kept
#   whole (VAST_WGSPLIT=0) is refused: one group's strip of A is larger
#   than a buffer, and the warning says so; split, its columns go in as
#   boxes.
#   atx at a tenth with device buffers of at most 140K: the frames a
#   buffer holds follow the halved pages (it was refused, saying that
#   166624 bytes were more than a budget of 210329).
#   Slots too large for staging (pageable, buffers of 140K) move straight
#   between their host copies and the frames, and column strips go as
#   rectangles (rects.c): atx's A in, transpose's output in and out
#   (planned by the inspector, which knows no boxes: from descriptors,
#   A's strip, a run of pages in each of 512 rows, is one box).
set -u
vastcc=$1
src=$(cd "$(dirname "$0")" && pwd)/walks
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-walks.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS
cp "$src"/* "$tmp/" && cd "$tmp" || exit 1
cc -O1 -w -o plain host.c -lOpenCL || { echo "FAIL: cc"; exit 1; }
"$vastcc" -O1 -w -o app host.c walks.cl || { echo "FAIL: vastcc"; exit 1; }

stat() { # log, key
	sed -n "s/^vast: kernel $k .* $2=\([0-9]*\).*/\1/p" "$1"
}
run() { # kernel, name, env...: the same bytes as natively, in >= 2 ranges
	local k=$1
	name=$2
	log=$(echo "$2" | tr -c "a-z0-9=\n" _).log
	shift 2
	rm -f out.bin
	if ! env "$@" VAST_STATS=kv ./app "$k" out.bin >"$log" 2>&1; then
		echo "FAIL: $name: exit status"; cat "$log"; fail=1; return
	fi
	if ! cmp -s "ref.$k" out.bin; then
		echo "FAIL: $name: output differs from the native run"; fail=1; return
	fi
	local r p want=1
	r=$(stat "$log" ranges) p=$(stat "$log" fp_plans)
	case " $* " in *" VAST_FOOTPRINTS=0 "* | *" WANT_FP=0 "*) want=0 ;; esac
	if [ -z "$r" ] || [ "$r" -lt 2 ]; then
		echo "FAIL: $name: ranges='$r', want >= 2"; fail=1; return
	fi
	if [ "$p" != "$want" ]; then
		echo "FAIL: $name: fp_plans='$p', want $want"; fail=1; return
	fi
	echo "ok: $name: $r ranges"
}

for k in gemm atx colsum colbump leftcols transpose tposeodd stencil; do
	./plain "$k" "ref.$k" >/dev/null 2>&1 || { echo "FAIL: $k: the native run failed"; exit 1; }
	for mem in 25% 10%; do
		for fp in check 1 0; do
			case $k/$mem/$fp in colsum/10%/0 | colbump/10%/0 | leftcols/10%/0) continue ;; esac
			run "$k" "$k/$mem/fp=$fp" VAST_DEVICE_MEM=$mem VAST_FOOTPRINTS=$fp
		done
	done
done
# clampfar's descriptor is refused by its clamp() checks (the right half's
# reads all clamp to the last column): the inspector plans it, exactly.
# So are minfar's and maxfar's, whose min() and max() are clamp()s with
# one bound infinite (the groups wholly past n - 1, or below 0).
for k in clampfar minfar maxfar; do
	./plain $k ref.$k >/dev/null 2>&1 || { echo "FAIL: $k: the native run failed"; exit 1; }
	for mem in 25% 10%; do
		run $k "$k/$mem" VAST_DEVICE_MEM=$mem VAST_FOOTPRINTS=1 WANT_FP=0
	done
done
# minstore writes every other element of its min()'s hull: planned from
# descriptors (not a must-write: footprint-min.cl), the elements between
# keep out's first bytes.
./plain minstore ref.minstore >/dev/null 2>&1 || { echo "FAIL: minstore: the native run failed"; exit 1; }
for mem in 25% 10%; do
	for fp in check 1; do
		run minstore "minstore/$mem/fp=$fp" VAST_DEVICE_MEM=$mem VAST_FOOTPRINTS=$fp
	done
done
rects() { # slot: the last run moved some of its spans as rectangles
	grep -Eq "^vast: debug: \[[0-9.]*\] slot $1: [0-9]+ spans in [0-9]+ rectangular copies$" "$log" ||
		{ echo "FAIL: $name: no rectangular copies of slot $1"; fail=1; }
}
run atx "atx/10%/max_alloc=140K" VAST_DEVICE_MEM=10% VAST_MAX_ALLOC=140K VAST_PINNED=0 \
	VAST_FOOTPRINTS=0 VAST_LOG=debug
rects 1
run transpose "transpose/10%/rects" VAST_DEVICE_MEM=10% VAST_MAX_ALLOC=140K VAST_PINNED=0 \
	VAST_PAGE_SIZE=256 VAST_FOOTPRINTS=0 VAST_LOG=debug
rects 2

refused() { # kernel, name, pattern of the warning, env...: fails, says why, writes nothing
	local k=$1 name=$2 why=$3
	shift 3
	rm -f out.bin
	if env "$@" ./app "$k" out.bin >refused.log 2>&1; then
		echo "FAIL: $name: succeeded, want a refusal"; fail=1
	elif ! grep -Eq "^vast: warning: kernel '$k': $why" refused.log; then
		echo "FAIL: $name: no refusal saying why"; cat refused.log; fail=1
	elif [ -e out.bin ]; then
		echo "FAIL: $name: refused but wrote an output"; fail=1
	else
		echo "ok: $name: refused: $(grep -m1 "kernel '$k': work-group" refused.log)"
	fi
}
# bumpsum: colsum over a matrix whose first rows a kernel just wrote,
# its pages left dirty in the kept frames: the box must see them.
./plain bumpsum ref.bumpsum >/dev/null 2>&1 || { echo "FAIL: bumpsum: the native run failed"; exit 1; }
rm -f out.bin
if ! VAST_DEVICE_MEM=10% VAST_STATS=kv VAST_LOG=debug ./app bumpsum out.bin >bumpsum.log 2>&1; then
	echo "FAIL: bumpsum/10%: exit status"; cat bumpsum.log; fail=1
elif ! cmp -s ref.bumpsum out.bin; then
	echo "FAIL: bumpsum/10%: output differs from the native run"; fail=1
elif ! grep -q "^vast: kernel bump .* d2h=0 " bumpsum.log ||
	! grep -q "kernel 'colsum': .* go in as strided boxes" bumpsum.log; then
	echo "FAIL: bumpsum/10%: bump's pages were not left on the device, or colsum had no boxes"; fail=1
else
	echo "ok: bumpsum/10%: colsum's boxes read what bump left on the device"
fi
# Where pages move twice a slot's bytes or more, its strips go in and
# out as packed boxes (boxframes.c): transpose's output, a 64-byte strip
# of each of its 4000-byte rows per tile, goes back once (its 2560000
# bytes) and, every byte of each box written (must-write), never in: at
# most 1.1x its input's 2560000 bytes go in, LPTs included.
run transpose "transpose/10%/boxes" VAST_DEVICE_MEM=10% VAST_FOOTPRINTS=1 VAST_LOG=debug
h2d=$(k=transpose stat "$log" h2d) d2h=$(k=transpose stat "$log" d2h)
if ! grep -q "kernel 'transpose': 2 buffers go in as strided boxes" "$log"; then
	echo "FAIL: transpose/10%/boxes: no boxes"; fail=1
elif [ -z "$d2h" ] || [ "$d2h" -gt $((2560000 * 11 / 10)) ] || [ "$h2d" -gt $((2560000 * 11 / 10)) ]; then
	echo "FAIL: transpose/10%/boxes: h2d=$h2d d2h=$d2h, want each at most 1.1x 2560000"; fail=1
else
	echo "ok: transpose/10%/boxes: h2d=$h2d d2h=$d2h"
fi
# tposeodd writes only odd elements: its output's boxes go in before
# they come back. With 3 sets, ranges in plan order (VAST_RESIDENT=0: no
# reversing), the first range, cut short, writes bytes inside the
# second's box, so the second's box goes in only after the first's came
# back (after_box_writers; PoCL's queues never show that race, NVIDIA's
# may): some bytes go back twice, and all are the native run's.
run tposeodd "tposeodd/25%/overlap" VAST_DEVICE_MEM=25% VAST_PIPELINE=3 VAST_RESIDENT=0
d2h=$(k=tposeodd stat "$log" d2h)
if [ -z "$d2h" ] || [ "$d2h" -le 2560000 ]; then
	echo "FAIL: tposeodd/25%/overlap: d2h=$d2h, want more than the output (overlapping boxes)"; fail=1
fi
# twopitch: boxes chosen for its first range (one pitch), then a group
# whose bytes stride by two pitches: no one box, so pages again, exact.
# At a tenth its pages do not fit: refused, naming that group, unless
# the group may be split (its work-items are independent): then exact.
./plain twopitch ref.twopitch >/dev/null 2>&1 || { echo "FAIL: twopitch: the native run failed"; exit 1; }
run twopitch "twopitch/25%/pages-again" VAST_DEVICE_MEM=25% VAST_FOOTPRINTS=1 VAST_LOG=debug
grep -q "kernel 'twopitch': 1 buffers go in as strided boxes" "$log" ||
	{ echo "FAIL: twopitch/25%/pages-again: no boxes tried"; fail=1; }
refused twopitch "twopitch/10%" \
	"work-group 7 alone needs [0-9]+ bytes of device memory, more than the budget of [0-9]+$" \
	VAST_DEVICE_MEM=10% VAST_WGSPLIT=0
run twopitch "twopitch/10%/split" VAST_DEVICE_MEM=10%
# leftcols: the ranges of the right half touch none of the matrix (empty
# boxes); the left half's strips go in once: at most 1.1x its 1024000
# bytes.
run leftcols "leftcols/10%/boxes" VAST_DEVICE_MEM=10% VAST_FOOTPRINTS=1
h2d=$(k=leftcols stat "$log" h2d)
if [ -z "$h2d" ] || [ "$h2d" -gt $((1024000 * 11 / 10)) ]; then
	echo "FAIL: leftcols/10%/boxes: h2d=$h2d, want at most 1.1x 1024000"; fail=1
fi
# A launch like an earlier one reuses its plan, boxes and all.
run transpose "transpose/10%/boxes/again" VAST_DEVICE_MEM=10% WALKS_REPEAT=3
if [ "$(k=transpose stat "$log" plan_hits)" != 2 ]; then
	echo "FAIL: transpose/10%/boxes/again: plan_hits='$(k=transpose stat "$log" plan_hits)', want 2"; fail=1
fi
refused colsum "colsum/10%/fp=0" \
	"work-group [0-9]+ alone needs (at least )?[0-9]+ bytes of device memory, more than the budget of [0-9]+$" \
	VAST_DEVICE_MEM=10% VAST_FOOTPRINTS=0 VAST_WGSPLIT=0
run colsum "colsum/10%/fp=0/split" VAST_DEVICE_MEM=10% VAST_FOOTPRINTS=0
# With boxes, colsum's matrix (512 rows of 4000 bytes) goes in once,
# packed: at most 1.1x its bytes cross (LPTs included), where whole
# 256-byte pages would be twice them.
run colsum "colsum/10%/boxes" VAST_DEVICE_MEM=10% VAST_FOOTPRINTS=1 VAST_LOG=debug
h2d=$(k=colsum stat "$log" h2d)
if ! grep -q "kernel 'colsum': work-group 0 does not fit in pages; 1 buffers go in as strided boxes" "$log"; then
	echo "FAIL: colsum/10%/boxes: the matrix did not go in as a box"; fail=1
elif [ -z "$h2d" ] || [ "$h2d" -gt $((512 * 4000 * 11 / 10)) ]; then
	echo "FAIL: colsum/10%/boxes: h2d=$h2d bytes, want at most 1.1x the matrix's 2048000"; fail=1
else
	echo "ok: colsum/10%/boxes: h2d=$h2d bytes for a matrix of 2048000"
fi
# A's strip of one group (128 KiB at 256-byte pages) is within the budget
# but larger than one device buffer (64K): the warning says so, rather
# than that its bytes pass the budget.
refused atx "atx/25%/max_alloc=64K" \
	"work-group [0-9]+ alone needs 131072 bytes of argument 'A', more than one device buffer holds \\(65536 bytes" \
	VAST_DEVICE_MEM=25% VAST_MAX_ALLOC=64K VAST_PINNED=0 VAST_WGSPLIT=0
run atx "atx/25%/max_alloc=64K/split" VAST_DEVICE_MEM=25% VAST_MAX_ALLOC=64K VAST_PINNED=0
[ $fail = 0 ] && echo "walks: PASS"
exit $fail
