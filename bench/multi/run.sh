#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench/multi/run.sh - several GPUs as one (docs/multi.md): each workload
# on one GPU and split over N (VAST_DEVICES), side by side in one call,
# the ratio one/N of their times against the goal of DESIGN.md §5.
#
#   bench/multi/run.sh [--gpus N] [--pocl] [--out DIR] [--size BYTES]
#       [--nbody N] [--stencil-size BYTES] [--steps N] [--triad-size BYTES]
#       [--budget BYTES] [--triad-budget BYTES] [--only LINE,LINE]
#       [--reps N] [--timeout S] [--bw-size BYTES] [--vastcc PATH]
#       [--no-build] [--build-only]
#
# Configurations, the vastcc build of each program with VAST_STATS=kv:
#   one   VAST_DEVICES unset: the first GPU alone
#   many  VAST_DEVICES=gpu0,gpu1 (gpu0,...,gpu3 with --gpus 4)
# Lines and goals (many/one is one's time over many's, the median of
# --reps runs each, alternating; >= 1.0 for every line):
#   the nine at SIZE (4G; bench/run.sh's shapes), nbody with NBODY bodies
#   (1M) instead of its cap: matrixmul and nbody (compute-bound) >= 1.8
#   (>= 3.4 on four), the streaming ones (blackscholes, mersennetwister,
#   medianfilter, reduction, sobelfilter) >= 1.5, fdtd3d and spmv-ell >= 1.0
#   jacobi2d   bench/iterative's stencil, STENCIL_SIZE (8G) of data, STEPS
#              (10) steps, every device given the budget --budget (default
#              4/3 of data/N: the data fits across the N GPUs, a quarter
#              spare, not on one, which pages): >= 1.8
#   triad      examples/triad at TRIAD_SIZE (96G), budget --triad-budget
#              (the same rule): >= 1.6
#   links      not a program: bench/links.c, the pinned copies of the
#              first GPU alone and of the N at once (BW_SIZE, 1G): what N
#              host links carry together, the bound of a streaming
#              workload's many/one (the host's memory may bind first)
# The time is the program's own (`seconds=`, jacobi2d's `ms=`: transfers
# and kernels). Shares are the work-groups each device ran, summed over
# the kernels (VAST_STATS dev_groups). many's output must equal one's byte
# for byte (two equal GPUs compute the same bits; the triad checks its
# own). A run that fails, times out or differs fails its line, and the
# script exits 1; a ratio below its goal is a FAIL in the table.
#
# --pocl: here, on PoCL's CPU devices (POCL_DEVICES="pthread pthread",
# VAST_DEVICES=all, no GPU names), at tiny sizes: the harness end to end;
# its ratios mean nothing (the devices share the same cores).
#
# Writes DIR/multi.csv, DIR/summary.txt and DIR/logs/ (default
# bench/out-multi). On the 2xH200 machine, built here (--build-only,
# carried) or there: bench/multi/run.sh --no-build --out DIR (about 6
# minutes by session 22's one-GPU times; bench/device.sh h200x2-multi).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$ROOT/bench/out-multi
GPUS=2 POCL=0 SIZE="" NBODY="" STENCIL_SIZE="" STEPS="" TRIAD_SIZE="" BUDGET="" TRIAD_BUDGET=""
ONLY="" REPS=1 TIMEOUT=300 BW_SIZE="" BUILD=1 RUN=1
VASTCC=${VASTCC:-$ROOT/build/bin/vastcc}
NINE="blackscholes fdtd3d matrixmul medianfilter mersennetwister nbody reduction sobelfilter spmv-ell"
die() { echo "multi/run.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--gpus) GPUS=$2; shift ;;
	--pocl) POCL=1 ;;
	--out) OUT=$2; shift ;;
	--size) SIZE=$2; shift ;;
	--nbody) NBODY=$2; shift ;;
	--stencil-size) STENCIL_SIZE=$2; shift ;;
	--steps) STEPS=$2; shift ;;
	--triad-size) TRIAD_SIZE=$2; shift ;;
	--budget) BUDGET=$2; shift ;;
	--triad-budget) TRIAD_BUDGET=$2; shift ;;
	--only) ONLY=$2; shift ;;
	--reps) REPS=$2; shift ;;
	--timeout) TIMEOUT=$2; shift ;;
	--bw-size) BW_SIZE=$2; shift ;;
	--vastcc) VASTCC=$2; shift ;;
	--no-build) BUILD=0 ;;
	--build-only) RUN=0 ;;
	-h|--help) sed -n '3,47p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
	shift
done
case $GPUS in [2-8]) ;; *) die "--gpus must be 2 to 8" ;; esac
LINES="$NINE jacobi2d triad links"
[ -n "$ONLY" ] && LINES=$(echo "$ONLY" | tr , ' ')
for w in $LINES; do
	case " $NINE jacobi2d triad links " in *" $w "*) ;; *) die "no line '$w' (--only)" ;; esac
done
# bench/run.sh's args_for reads QUICK: its tiny shapes under --pocl.
QUICK=$POCL
if [ $POCL = 1 ]; then
	SIZE=${SIZE:-2M} NBODY=${NBODY:-16384} STENCIL_SIZE=${STENCIL_SIZE:-4M} STEPS=${STEPS:-3}
	TRIAD_SIZE=${TRIAD_SIZE:-12M} BW_SIZE=${BW_SIZE:-16M}
	POCL_DEVICES=$(for _ in $(seq "$GPUS"); do printf 'pthread '; done)
	export POCL_DEVICES=${POCL_DEVICES% }
	TYPE=cpu MANY=all
else
	SIZE=${SIZE:-4G} NBODY=${NBODY:-1048576} STENCIL_SIZE=${STENCIL_SIZE:-8G} STEPS=${STEPS:-10}
	TRIAD_SIZE=${TRIAD_SIZE:-96G} BW_SIZE=${BW_SIZE:-1G}
	TYPE=gpu MANY=$(seq -s, -f 'gpu%g' 0 $((GPUS - 1)))
fi
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_DEVICES VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG
mkdir -p "$OUT/logs" || die "cannot create $OUT"
OUT=$(cd "$OUT" && pwd)

# One definition of the workloads' shapes: bench/run.sh's to_bytes and
# args_for; one build of every program: bench/ab-all.sh --build.
eval "$(sed -n '/^to_bytes() {/,/^}/p; /^args_for() {/,/^}/p' "$ROOT/bench/run.sh")"
if [ $BUILD = 1 ]; then
	"$ROOT/bench/ab-all.sh" --build "$OUT" --vastcc "$VASTCC" || die "build failed"
	cc -O2 -Wall -Wextra -I"$ROOT/examples/common" -o "$OUT/build/links" "$ROOT/bench/links.c" \
		-lOpenCL -lm -lpthread || die "building bench/links.c failed"
fi
[ $RUN = 1 ] || { echo "multi/run.sh: built under $OUT/build"; exit 0; }

b=$(to_bytes "$SIZE")
# jacobi2d: two N x N grids of floats, N a multiple of 16.
nj=$(awk -v b="$(to_bytes "$STENCIL_SIZE")" 'BEGIN {s = int(sqrt(b / 8) / 16) * 16; print s < 16 ? 16 : s}')
tn=$(args_for triad "$(to_bytes "$TRIAD_SIZE")")
# Each device 4/3 of its equal share: fits across GPUS devices, not one.
share() { echo $(($1 * 4 / 3 / GPUS)); }
BUDGET=$(to_bytes "${BUDGET:-$(share $((nj * nj * 8)))}")
TRIAD_BUDGET=$(to_bytes "${TRIAD_BUDGET:-$(share $((tn * 12)))}")

goal() {
	case $1 in
	matrixmul|nbody) [ "$GPUS" -ge 4 ] && echo 3.4 || echo 1.8 ;;
	blackscholes|mersennetwister|medianfilter|reduction|sobelfilter) echo 1.5 ;;
	jacobi2d) echo 1.8 ;;
	triad) echo 1.6 ;;
	*) echo 1.0 ;;
	esac
}

CSV=$OUT/multi.csv
echo "line,config,rep,seconds,status,dev_groups,same_as_one" >"$CSV"
FAILED=0
# run LINE CONFIG REP BUDGET ARGS: one row of multi.csv.
run() {
	local w=$1 cfg=$2 rep=$3 budget=$4 args=$5
	local exe=$OUT/build/vast/$w/$w log=$OUT/logs/$w.$cfg.$rep env=(VAST_EXAMPLE_DEVICE=$TYPE VAST_STATS=kv)
	local out=(-o "$log.out")
	[ "$cfg" = many ] && env+=(VAST_DEVICES=$MANY)
	[ -n "$budget" ] && env+=(VAST_DEVICE_MEM=$budget)
	[ "$w" = triad ] && out=()   # it checks every byte itself; a is a third of the data
	# shellcheck disable=SC2086 # args are words
	env "${env[@]}" timeout "$TIMEOUT" "$exe" ${out[@]+"${out[@]}"} $args >"$log.log" 2>&1
	local rc=$? status=ok secs groups same=""
	[ $rc -ne 0 ] && status=fail
	[ $rc -eq 124 ] && status=timeout
	secs=$(sed -n 's/.* seconds=\([0-9.]*\).*/\1/p' "$log.log" | tail -n 1)
	[ -n "$secs" ] || secs=$(sed -nE "s/^$w: .* ms=([0-9.]+).*/\\1/p" "$log.log" |
		awk 'NR == 1 {printf "%.6f", $1 / 1000}')
	[ $status = ok ] && [ -z "$secs" ] && status=fail
	groups=$(sed -n 's/^vast: kernel .* dev_groups=\([0-9,]*\).*/\1/p' "$log.log" |
		awk -F, '{ for (i = 1; i <= NF; i++) s[i] += $i; n = NF }
		         END { for (i = 1; i <= n; i++) printf "%s%d", (i > 1 ? ";" : ""), s[i] }' |
		sed 's/\(;0\)*$//')   # VAST_STATS lists every device slot
	if [ "$cfg" = many ] && [ -f "$OUT/logs/$w.one.$rep.out" ] && [ -f "$log.out" ]; then
		cmp -s "$OUT/logs/$w.one.$rep.out" "$log.out" && same=yes || { same=no; status=differs; }
		rm -f "$OUT/logs/$w.one.$rep.out" "$log.out"
	fi
	[ $status = ok ] || { FAILED=1; echo "multi: $w $cfg: $status (see $log.log)" >&2; }
	echo "$w,$cfg,$rep,${secs:-},$status,$groups,$same" >>"$CSV"
	echo "multi: $w $cfg run $rep: $status ${secs:-?} s${groups:+ shares $groups}${same:+ same=$same}"
}

for w in $LINES; do
	case $w in
	links) continue ;;
	jacobi2d) budget=$BUDGET args="$nj $STEPS" ;;
	triad) budget=$TRIAD_BUDGET args="-q $tn" ;;
	nbody) budget="" args="-q $NBODY 1" ;;
	*) budget="" args="-q $(args_for "$w" "$b")" ;;
	esac
	[ -x "$OUT/build/vast/$w/$w" ] || { FAILED=1; echo "$w,all,0,,missing,," >>"$CSV"; continue; }
	for rep in $(seq 1 "$REPS"); do
		run "$w" one "$rep" "$budget" "$args"
		run "$w" many "$rep" "$budget" "$args"
	done
done

# links: bench/links.c on the first device alone and on GPUS at once.
linksline=""
case " $LINES " in *" links "*)
	if VAST_EXAMPLE_DEVICE=$TYPE "$OUT/build/links" "$(to_bytes "$BW_SIZE")" "$GPUS" 3 \
		>"$OUT/links.log" 2>&1; then
		linksline=$(awk -v n="$GPUS" '/^links: / { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			g[v["dir"], v["devices"]] = v["gbps"] }
			END { for (d = 0; d < 2; d++) { dir = d ? "d2h" : "h2d"
				printf "links %s: one %.2f GB/s, %d at once %.2f GB/s (%.2fx)%s", dir, g[dir, 1], n,
				       g[dir, n], (g[dir, 1] > 0 ? g[dir, n] / g[dir, 1] : 0), (d ? "" : "; ") } }' "$OUT/links.log")
	else
		FAILED=1
		linksline="links: failed (see $OUT/links.log)"
	fi ;;
esac

# The table: medians per configuration, many/one against the goal.
{
	echo "devices: one = the first ${TYPE}, many = VAST_DEVICES=$MANY$([ $POCL = 1 ] && echo " (POCL_DEVICES=\"$POCL_DEVICES\")")"
	echo "size=$SIZE nbody=$NBODY jacobi2d=${nj}x$nj steps=$STEPS budget=$BUDGET" \
		"triad=$tn uints x3 budget=$TRIAD_BUDGET reps=$REPS"
	awk -F, -v lines="$LINES" -v goals="$(for w in $LINES; do printf '%s=%s ' "$w" "$(goal "$w")"; done)" '
	function median(k,   n, i, j, t, a) {
		n = split(times[k], a, " ")
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	BEGIN { split(goals, gs, " "); for (i in gs) { split(gs[i], kv, "="); goal[kv[1]] = kv[2] } }
	NR > 1 {
		if ($5 != "ok") bad[$1] = $5
		else { times[$1, $2] = times[$1, $2] " " $4; if ($2 == "many") groups[$1] = $6 }
	}
	END {
		printf "%-16s %10s %10s %8s %6s  %-6s %s\n", "line", "one_s", "many_s", "many/one", "goal", "result", "shares (many)"
		n = split(lines, ls, " ")
		for (i = 1; i <= n; i++) {
			w = ls[i]
			if (w == "links") continue
			if (w in bad) { printf "%-16s %10s %10s %8s %6s  %-6s %s\n", w, "-", "-", "-", ">=" goal[w], "FAIL", bad[w]; continue }
			if (!((w, "one") in times) || !((w, "many") in times)) continue
			one = median(w SUBSEP "one"); many = median(w SUBSEP "many")
			r = many > 0 ? one / many : 0
			printf "%-16s %10.4f %10.4f %7.2fx %6s  %-6s %s\n", w, one, many, r, ">=" goal[w],
			       (r >= goal[w] ? "PASS" : "FAIL"), groups[w]
		}
	}' "$CSV"
	[ -n "$linksline" ] && echo "$linksline"
} | tee "$OUT/summary.txt"
exit $FAILED
