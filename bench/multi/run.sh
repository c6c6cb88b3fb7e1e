#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench/multi/run.sh - the nine workloads on one device and split over
# several (VAST_DEVICES, issue 12, docs/multi.md): per-device shares and
# the ratios to the best single device.
#
#   bench/multi/run.sh [--quick] [--out DIR] [--size BYTES] [--only W,W]
#                      [--reps N] [--timeout S] [--no-build]
#
# Configurations, each the vastcc build of the workload with VAST_STATS=kv:
#   one     VAST_EXAMPLE_DEVICE=gpu, no VAST_DEVICES: the first GPU alone
#   cpu     VAST_EXAMPLE_DEVICE=cpu: the CPU (PoCL) alone
#   two     the first GPU's program, VAST_DEVICES=gpu0,gpu1
#   three   the first GPU's program, VAST_DEVICES=gpu0,gpu1,cpu0
# The time is the program's own `seconds=` (transfers and kernels, from the
# first command to the results on the host). Shares are the work-groups
# each device ran, summed over the kernels (VAST_STATS dev_groups). The
# output of `two` is compared byte for byte with `one` (two equal GPUs
# compute the same bits); `three` mixes a CPU's arithmetic in, so its
# comparison is reported, not required.
#
# --quick: tiny sizes, PoCL here: POCL_DEVICES="pthread pthread pthread"
# stands in for gpu0, gpu1 and cpu0 (cpu0, cpu1 and cpu2), to show the
# harness works end to end; its ratios mean nothing (three devices on the
# same cores).
#
# On the 2xH200 machine (NVIDIA's OpenCL and PoCL installed, vastcc built
# here and carried with --no-build, or built there):
#   bench/multi/run.sh --out bench/results/DATE-multi --size 4G
# writes DIR/multi.csv and DIR/summary.txt (and DIR/logs/).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$ROOT/bench/out-multi
QUICK=0
SIZE=""
ONLY=""
REPS=1
TIMEOUT=""
BUILD=1
WORKLOADS="blackscholes fdtd3d matrixmul medianfilter mersennetwister nbody reduction sobelfilter spmv-ell"
die() { echo "multi/run.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--quick) QUICK=1 ;;
	--out) OUT=$2; shift ;;
	--size) SIZE=$2; shift ;;
	--only) ONLY=$2; shift ;;
	--reps) REPS=$2; shift ;;
	--timeout) TIMEOUT=$2; shift ;;
	--no-build) BUILD=0 ;;
	-h|--help) sed -n '3,31p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
	shift
done
[ -n "$ONLY" ] && WORKLOADS=$(echo "$ONLY" | tr , ' ')
if [ $QUICK = 1 ]; then
	SIZE=${SIZE:-2M}
	TIMEOUT=${TIMEOUT:-120}
	export POCL_DEVICES="pthread pthread pthread"
	OWN=cpu TWO=cpu0,cpu1 THREE=cpu0,cpu1,cpu2 ALONE=cpu
else
	SIZE=${SIZE:-4G}
	TIMEOUT=${TIMEOUT:-900}
	OWN=gpu TWO=gpu0,gpu1 THREE=gpu0,gpu1,cpu0 ALONE=cpu
fi
mkdir -p "$OUT/logs" || die "cannot create $OUT"
OUT=$(cd "$OUT" && pwd)

# One definition of the workloads' shapes: bench/run.sh's to_bytes and
# args_for, and its build (DIR/build/{native,vast}).
eval "$(sed -n '/^to_bytes() {/,/^}/p; /^args_for() {/,/^}/p' "$ROOT/bench/run.sh")"
if [ $BUILD = 1 ]; then
	quick=""
	[ $QUICK = 1 ] && quick=--quick
	"$ROOT/bench/run.sh" $quick --out "$OUT" --only "$(echo $WORKLOADS | tr ' ' ,)" --build-only ||
		die "build failed"
fi
B=$(to_bytes "$SIZE")

CSV=$OUT/multi.csv
echo "workload,config,devices,rep,seconds,status,dev_groups,same_as_one" >"$CSV"
# run WORKLOAD CONFIG REP ENV...: one row of multi.csv
run() {
	local w=$1 cfg=$2 rep=$3
	shift 3
	local exe=$OUT/build/vast/$w/$w log=$OUT/logs/$w.$cfg.$rep
	local args
	args=$(args_for "$w" "$B")
	env "$@" VAST_STATS=kv timeout "$TIMEOUT" "$exe" -o "$log.out" $args >"$log.log" 2>"$log.err"
	local rc=$? status=ok
	[ $rc -eq 124 ] && status=timeout
	[ $rc -ne 0 ] && [ $rc -ne 124 ] && status=fail
	local secs groups same=""
	secs=$(sed -n 's/.* seconds=\([0-9.]*\).*/\1/p' "$log.log" "$log.err" | tail -n 1)
	# Work-groups per device, summed over the kernels.
	groups=$(sed -n 's/^vast: kernel .* dev_groups=\([0-9,]*\).*/\1/p' "$log.err" |
		awk -F, '{ for (i = 1; i <= NF; i++) s[i] += $i; n = NF }
		         END { for (i = 1; i <= n; i++) printf "%s%d", (i > 1 ? ";" : ""), s[i] }' |
		sed 's/\(;0\)*$//')
	if [ "$cfg" != one ] && [ -f "$OUT/logs/$w.one.$rep.out" ]; then
		cmp -s "$OUT/logs/$w.one.$rep.out" "$log.out" && same=yes || same=no
	fi
	echo "$w,$cfg,$(printenv_devices "$@"),$rep,${secs:-},$status,$groups,$same" >>"$CSV"
	echo "$w $cfg: $status ${secs:-?} s${groups:+ shares $groups}${same:+ same=$same}" >&2
}
printenv_devices() { local e; for e in "$@"; do case $e in VAST_DEVICES=*) echo "${e#*=}" | tr , ';'; return ;; esac; done; echo "-"; }

for w in $WORKLOADS; do
	[ -x "$OUT/build/vast/$w/$w" ] || { echo "$w,all,-,0,,skipped,," >>"$CSV"; continue; }
	for rep in $(seq 1 "$REPS"); do
		run "$w" one "$rep" VAST_EXAMPLE_DEVICE=$OWN
		run "$w" cpu "$rep" VAST_EXAMPLE_DEVICE=$ALONE
		run "$w" two "$rep" VAST_EXAMPLE_DEVICE=$OWN VAST_DEVICES=$TWO
		run "$w" three "$rep" VAST_EXAMPLE_DEVICE=$OWN VAST_DEVICES=$THREE
	done
done

# summary: best time per configuration, ratios to the best single device.
awk -F, 'NR > 1 && $6 == "ok" && $5 != "" {
	k = $1 SUBSEP $2
	if (!(k in t) || $5 < t[k]) { t[k] = $5; g[k] = $7 }
	w[$1] = 1
}
END {
	printf "%-16s %9s %9s %9s %9s %8s %8s  %s\n", "workload", "one_s", "cpu_s", "two_s",
	       "three_s", "two/best", "three/b", "shares two | three"
	for (x in w) {
		one = t[x, "one"]; cpu = t[x, "cpu"]; best = one
		if (cpu != "" && (best == "" || cpu < best)) best = cpu
		two = t[x, "two"]; three = t[x, "three"]
		printf "%-16s %9s %9s %9s %9s %8s %8s  %s | %s\n", x, one, cpu, two, three,
		       (two != "" && best > 0 ? sprintf("%.2fx", best / two) : "-"),
		       (three != "" && best > 0 ? sprintf("%.2fx", best / three) : "-"),
		       g[x, "two"], g[x, "three"]
	}
}' "$CSV" | tee "$OUT/summary.txt"
grep -q ',fail,\|,timeout,' "$CSV" && exit 1
exit 0
