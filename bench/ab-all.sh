#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench/ab-all.sh - every no-regression benchmark of a change in one call:
# two builds side by side on one machine, A and B alternating, so that the
# machine's drift falls on both alike (two runs of these machines do not
# compare, bench/README.md).
#
#   bench/ab-all.sh [OPTIONS] A_DIR B_DIR
#   bench/ab-all.sh --build DIR [--vastcc PATH]
#
# Lines, each run REPS times from each side:
#   the nine  the nine workloads at SIZE of data (bench/run.sh's shapes) and
#             VAST_DEVICE_MEM a quarter of SIZE (bench/ab-nine.sh's runs)
#   triad     examples/triad at TRIAD_SIZE, VAST_DEVICE_MEM=TRIAD_BUDGET
#   fdtd2d, jacobi2d  bench/iterative/run.sh's programs at ITER_SIZE of
#             data, VAST_DEVICE_MEM a quarter of it, STEPS steps
# The measure is the program's own time (`seconds=`, the iterative
# programs' `ms=`: its transfers and kernels, not its start nor the making
# of its input). Per line: the medians of A and B and B's speed relative
# to A's (A's median time / B's), and whether that is >= 0.97 (the
# no-regression goal). A run whose program fails (its own check of the
# result) fails the line, and the script exits 1 after the table.
#
# A_DIR and B_DIR hold the programs under build/vast/NAME/NAME, as
# `--build DIR` makes them (bench/run.sh --build-only of the nine and the
# triad, bench/iterative/run.sh --build-only), with the vastcc given (the
# old tree's for A); a line whose program is missing on a side is skipped.
#
# Options: --reps N (3), --size BYTES (4G), --triad-size BYTES (96G),
#   --triad-budget BYTES (24G), --triad-reps N (1), --iter-size BYTES (4G),
#   --steps N (10), --only nine,triad,iterative, --timeout S per run (300),
#   --out DIR (bench/out/ab-all: every run's log and summary.txt),
#   --quick (tiny sizes, one rep: the script end to end on PoCL).
# On the H200 (bench/device.sh h200-ab, carrying both folders): about 6
# to 7 minutes with the defaults by session 22's times (bench/README.md).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
REPS=3 SIZE=4G TRIAD_SIZE=96G TRIAD_BUDGET=24G TRIAD_REPS=1 ITER_SIZE=4G STEPS=10
ONLY=nine,triad,iterative TIMEOUT=300 QUICK=0 BUILD="" VASTCC=${VASTCC:-$ROOT/build/bin/vastcc}
OUT=$ROOT/bench/out/ab-all
NINE="matrixmul nbody blackscholes sobelfilter medianfilter fdtd3d mersennetwister reduction spmv-ell"
die() { echo "ab-all: $*" >&2; exit 2; }
usage() { sed -n '3,36p' "$0" | sed 's/^# \{0,1\}//'; }
pos=()
while [ $# -gt 0 ]; do
	case $1 in
	--reps) REPS=$2; shift ;;
	--size) SIZE=$2; shift ;;
	--triad-size) TRIAD_SIZE=$2; shift ;;
	--triad-budget) TRIAD_BUDGET=$2; shift ;;
	--triad-reps) TRIAD_REPS=$2; shift ;;
	--iter-size) ITER_SIZE=$2; shift ;;
	--steps) STEPS=$2; shift ;;
	--only) ONLY=$2; shift ;;
	--timeout) TIMEOUT=$2; shift ;;
	--out) OUT=$2; shift ;;
	--quick) QUICK=1 REPS=1 SIZE=2M TRIAD_SIZE=12M TRIAD_BUDGET=3M ITER_SIZE=4M STEPS=3 ;;
	--build) BUILD=$2; shift ;;
	--vastcc) VASTCC=$2; shift ;;
	-h | --help) usage; exit 0 ;;
	-*) die "unknown option '$1' (see --help)" ;;
	*) pos+=("$1") ;;
	esac
	shift
done

if [ -n "$BUILD" ]; then
	[ -x "$VASTCC" ] || die "no vastcc at $VASTCC (--vastcc)"
	"$ROOT/bench/run.sh" --build-only --out "$BUILD" --vastcc "$VASTCC" \
		--only "$(echo $NINE triad | tr ' ' ,)" || die "building the nine and the triad failed"
	VASTCC=$VASTCC "$ROOT/bench/iterative/run.sh" --build-only --out "$BUILD" ||
		die "building the iterative programs failed"
	exit 0
fi
[ ${#pos[@]} = 2 ] || { usage >&2; exit 2; }
A=$(cd "${pos[0]}" && pwd) && B=$(cd "${pos[1]}" && pwd) || die "no such folder"
mkdir -p "$OUT/logs" || die "cannot make $OUT"
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_DEVICES VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG

# bench/run.sh's sizes and shapes (to_bytes, args_for), one definition.
eval "$(sed -n '/^to_bytes() {/,/^}/p; /^args_for() {/,/^}/p' "$ROOT/bench/run.sh")"
b=$(to_bytes "$SIZE") tb=$(to_bytes "$TRIAD_SIZE") tbud=$(to_bytes "$TRIAD_BUDGET")
ib=$(to_bytes "$ITER_SIZE")
wb=$(to_bytes 64M) # the warm-up runs' data
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
side() { [ "$1" = A ] && echo "$A" || echo "$B"; }

# measure LINE PROGRAM REPS BUDGET ARGS [WARM_BUDGET WARM_ARGS]: REPS runs
# from each side, the first side alternating (A B, B A, ...); each run's
# time appended to $OUT/LINE.A|B, one line of the table into $OUT/table.
# First, untimed, one small run of each side (WARM_ARGS at WARM_BUDGET,
# paging): the driver compiles the programs the two sides build (at
# clBuildProgram, or at the first launch that may page) once, into its
# cache, so no timed run pays a cold compile that the other side paid
# outside the program's timer.
FAILED=0
measure() {
	local line=$1 prog=$2 reps=$3 budget=$4 args=$5 wbudget=${6:-} wargs=${7:-}
	local r s first second dir exe log t secs rc
	local bytes
	: >"$OUT/$line.A" && : >"$OUT/$line.B" || die "cannot write $OUT"
	for s in A B; do
		[ -x "$(side $s)/build/vast/$prog/$prog" ] || {
			echo "ab-all: $line: skipped, $(side $s) has no build/vast/$prog/$prog" >&2
			printf '%-16s %10s %10s %8s  %s\n' "$line" - - - "skipped (no $prog in $s)" >>"$OUT/table"
			return
		}
	done
	for s in A B; do
		[ -n "$wargs" ] || break
		# shellcheck disable=SC2086 # args are words
		VAST_DEVICE_MEM=$wbudget timeout "$TIMEOUT" "$(side $s)/build/vast/$prog/$prog" $wargs \
			>"$OUT/logs/$line.$s.warm" 2>&1 ||
			echo "ab-all: $line: the warm-up run of $s failed (see $OUT/logs/$line.$s.warm)" >&2
	done
	for r in $(seq "$reps"); do
		first=A second=B
		[ $((r % 2)) = 0 ] && first=B second=A
		for s in $first $second; do
			dir=$(side $s) log=$OUT/logs/$line.$s.$r
			exe=$dir/build/vast/$prog/$prog
			t=$(date +%s.%N)
			# shellcheck disable=SC2086 # args are words
			VAST_DEVICE_MEM=$budget VAST_STATS=kv timeout "$TIMEOUT" "$exe" $args >"$log" 2>&1
			rc=$?
			t=$(awk -v a="$t" -v b="$(date +%s.%N)" 'BEGIN {printf "%.3f", b - a}')
			secs=$(sed -nE 's/.* seconds=([0-9.]+).*/\1/p' "$log" | tail -1)
			[ -n "$secs" ] || secs=$(sed -nE "s/^$prog: .* ms=([0-9.]+).*/\\1/p" "$log" |
				awk 'NR == 1 {printf "%.6f", $1 / 1000}')
			bytes=$(sed -nE 's/^vast: kernel .* h2d=([0-9]+) d2h=([0-9]+).*/\1 \2/p' "$log" |
				awk '{s += $1 + $2} END {print s + 0}')
			if [ $rc != 0 ] || [ -z "$secs" ]; then
				echo "ab-all: $line $s run $r FAILED (exit $rc; see $log):" >&2
				tail -n 5 "$log" >&2
				FAILED=1
				printf '%-16s %10s %10s %8s  %s\n' "$line" - - - "FAIL ($s, exit $rc)" >>"$OUT/table"
				return
			fi
			echo "$secs" >>"$OUT/$line.$s"
			echo "ab-all: $line $s run $r: seconds=$secs wall=${t}s h2d+d2h=$bytes"
		done
	done
	local ma mb ratio ok
	ma=$(median <"$OUT/$line.A") mb=$(median <"$OUT/$line.B")
	ratio=$(awk -v a="$ma" -v b="$mb" 'BEGIN {printf "%.3f", (b > 0 ? a / b : 0)}')
	ok=$(awk -v r="$ratio" 'BEGIN {print (r >= 0.97 ? "yes" : "NO")}')
	printf '%-16s %10s %10s %8s  %s\n' "$line" "$ma" "$mb" "$ratio" "$ok" >>"$OUT/table"
	echo "ab-all: $line median seconds A=$ma B=$mb speed B/A=$ratio"
}

printf '%-16s %10s %10s %8s  %s\n' line A_s B_s "B/A" ">=0.97" >"$OUT/table"
case ",$ONLY," in *,nine,*)
	for w in $NINE; do
		measure "$w" "$w" "$REPS" $((b / 4)) "-q $(args_for "$w" "$b")" \
			$((wb / 4)) "-q $(args_for "$w" "$wb")"
	done ;;
esac
case ",$ONLY," in *,triad,*)
	measure triad triad "$TRIAD_REPS" "$tbud" "-q $(args_for triad "$tb")" \
		$((wb / 4)) "-q $(args_for triad "$wb")" ;;
esac
case ",$ONLY," in *,iterative,*)
	# Grids of floats, sides multiples of 16: fdtd2d has three, jacobi2d two.
	nf=$(awk -v b="$ib" 'BEGIN {s = int(sqrt(b / 12) / 16) * 16; print s < 16 ? 16 : s}')
	nj=$(awk -v b="$ib" 'BEGIN {s = int(sqrt(b / 8) / 16) * 16; print s < 16 ? 16 : s}')
	measure fdtd2d fdtd2d "$REPS" $((nf * nf * 12 / 4)) "$nf $nf $STEPS" \
		$((256 * 256 * 12 / 4)) "256 256 1"
	measure jacobi2d jacobi2d "$REPS" $((nj * nj * 8 / 4)) "$nj $STEPS" \
		$((256 * 256 * 8 / 4)) "256 1" ;;
esac
{
	echo "A=$A"
	echo "B=$B"
	echo "reps=$REPS size=$SIZE (budget a quarter) triad=$TRIAD_SIZE at $TRIAD_BUDGET" \
		"x$TRIAD_REPS iterative=$ITER_SIZE (budget a quarter) steps=$STEPS"
	echo "medians of the programs' own seconds; B/A is B's speed, A's time over B's"
	cat "$OUT/table"
} | tee "$OUT/summary.txt"
exit $FAILED
