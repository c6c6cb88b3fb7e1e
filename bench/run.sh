#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench/run.sh - runs the paper's nine workloads (examples/) side by side in
# every mode and writes DIR/results.csv, DIR/summary.txt and PNG charts.
#
#   bench/run.sh [--quick] [--out DIR] [--size BYTES[,BYTES...]] [--only W,W]
#                [--modes M,M] [--reps N] [--timeout S] [--vastcc PATH]
#                [--no-build] [--build-only] [--charts-only]
#
# Modes, per workload and data size:
#   resident  built with cc, default device (the GPU when there is one), all data resident
#   vast      built with vastcc, VAST_DEVICE_MEM = 1/4 of the program's data
#   pocl      built with cc, VAST_EXAMPLE_DEVICE=cpu: the host CPU through PoCL
#   manual    matrixmul only: matrixmul-manual, hand-partitioned for 1/4 of the data
#   paged     built with vastcc, VAST_MODE=paged, no budget: paged kernels, data resident
#   resident-vast  built with vastcc, no budget: the original kernels run natively;
#             its kernel_ms against paged's is the paged kernel's overhead
#   paged-checked  (not by default) paged with VAST_STRAIGHT=0: the checked
#             paged kernel in every range, against paged's straight variant
#   mapped, vast-mapped  (not by default; the streaming workloads only) resident
#             and vast with -m: each host array is its buffer's own mapped
#             CL_MEM_ALLOC_HOST_PTR memory, not a malloc'd array copied to it
# plus the copy bandwidth probe bench/bw.c (pinned and pageable, both directions, and both at once)
# and the host's own copies (bench/hostbw.c: logs/hostbw.log).
#
# Every run's output is kept in DIR/logs/. A run that fails or times out is a
# row with status=fail or status=timeout; a mode that cannot run here (no
# vastcc) is a row with status=skipped. The script never stops at a failed run;
# it exits 1 at the end when any run failed, so CI notices.
#
# --quick: tiny sizes, one repetition, the CPU device: the harness end to end
# in well under a minute (CI). Builds go to DIR/build (carry it to run on
# another machine with --no-build; make the charts where gnuplot is with
# --charts-only).

set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/bench/out
QUICK=0
SIZES=""
ONLY=""
MODES="resident,vast,pocl,manual,paged,resident-vast"
REPS=""
TIMEOUT=""
VASTCC=${VASTCC:-}
BUILD=1
RUN=1
CHARTS=1
WORKLOADS="blackscholes fdtd3d matrixmul medianfilter mersennetwister nbody reduction sobelfilter spmv-ell"

die() { echo "run.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--quick) QUICK=1 ;;
	--out) OUT=$2; shift ;;
	--out=*) OUT=${1#*=} ;;
	--size) SIZES=$2; shift ;;
	--size=*) SIZES=${1#*=} ;;
	--only) ONLY=$2; shift ;;
	--only=*) ONLY=${1#*=} ;;
	--modes) MODES=$2; shift ;;
	--modes=*) MODES=${1#*=} ;;
	--reps) REPS=$2; shift ;;
	--reps=*) REPS=${1#*=} ;;
	--timeout) TIMEOUT=$2; shift ;;
	--timeout=*) TIMEOUT=${1#*=} ;;
	--vastcc) VASTCC=$2; shift ;;
	--vastcc=*) VASTCC=${1#*=} ;;
	--no-build) BUILD=0 ;;
	--build-only) RUN=0; CHARTS=0 ;;
	--charts-only) BUILD=0; RUN=0 ;;
	-h|--help) sed -n '3,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
	shift
done
[ -n "$ONLY" ] && WORKLOADS=$(echo "$ONLY" | tr , ' ')
if [ $QUICK = 1 ]; then
	SIZES=${SIZES:-2M}
	REPS=${REPS:-1}
	TIMEOUT=${TIMEOUT:-60}
	export VAST_EXAMPLE_DEVICE=${VAST_EXAMPLE_DEVICE:-cpu}
else
	SIZES=${SIZES:-4G}
	REPS=${REPS:-1}
	TIMEOUT=${TIMEOUT:-900}
fi
mkdir -p "$OUT" || die "cannot create $OUT"
OUT=$(cd "$OUT" && pwd)
BUILDDIR=$OUT/build
LOGS=$OUT/logs
CSV=$OUT/results.csv

# bytes: 4G, 512M, 64K or a plain number.
to_bytes() {
	local v=$1 n=${1%[kKmMgG]}
	case $v in
	*[kK]) echo $((n << 10)) ;;
	*[mM]) echo $((n << 20)) ;;
	*[gG]) echo $((n << 30)) ;;
	*) echo "$n" ;;
	esac
}

# The arguments that give workload $1 about $2 bytes of data (the program
# prints the exact figure). Shapes follow the SDK samples; NBody is
# quadratic in its size, so its data stays small.
args_for() {
	local w=$1 b=$2 q=$QUICK
	case $w in
	blackscholes) echo $((b / 20)) ;;
	fdtd3d)
		# A work-group marches through every z plane, so its footprint is
		# ~12 rows of every plane: tiny cubes cannot be cut 4 ways, and
		# --quick uses a flat volume instead.
		if [ $q = 1 ]; then
			echo "256 $(( b / 8 / 256 / 8 > 16 ? b / 8 / 256 / 8 : 16 )) 8 2"
		else
			local d
			d=$(awk -v p=$((b / 8)) 'BEGIN { d = int(exp(log(p) / 3)); print d < 8 ? 8 : d }')
			echo "$d $d $d 2"
		fi ;;
	matrixmul|matrixmul-manual)
		# B is W x W and stays resident; A and C grow with the rows.
		local wd=2048 h
		[ $q = 1 ] && wd=64
		h=$(( (b / 4 - wd * wd) / (2 * wd) / 16 * 16 ))
		[ $h -lt 16 ] && h=16
		if [ $w = matrixmul ]; then echo "$h $wd $wd"; else echo "$h $wd $wd $((b / 4))"; fi ;;
	medianfilter|sobelfilter)
		local wd=8192
		[ $q = 1 ] && wd=256
		echo "$wd $(( b / 8 / wd > 0 ? b / 8 / wd : 1 ))" ;;
	mersennetwister)
		if [ $q = 1 ]; then echo "$((b / 4)) 256"; else echo "$((b / 4)) 4096"; fi ;;
	nbody)
		# Every group reads all positions: they must fit in 1/4 of the data
		# next to a page of each other array, hence at least 16K bodies.
		local n=$((b / 80)) max=262144
		[ $q = 1 ] && max=16384
		[ $n -lt 16384 ] && n=16384
		[ $n -gt $max ] && n=$max
		echo "$n 1" ;;
	reduction) echo $((b / 4)) ;;
	spmv-ell) echo "$((b / 136)) 16" ;;
	triad) echo $((b / 12 / 4 * 4)) ;; # three arrays of uints
	*) die "no sizes for workload '$w'" ;;
	esac
}

find_vastcc() {
	local c
	for c in "$VASTCC" "$ROOT/build/bin/vastcc" "$(command -v vastcc 2>/dev/null)"; do
		[ -n "$c" ] && [ -x "$c" ] && { echo "$c"; return 0; }
	done
	return 1
}

# ---- build -----------------------------------------------------------------
# Each example is copied next to a copy of examples/common, once per
# compiler, so the cc and vastcc builds never share an object file.
build_one() {   # kind workload cc
	local dir=$BUILDDIR/$1
	rm -rf "${dir:?}/$2" "$dir/$2.failed"
	cp -r "$ROOT/examples/$2" "$dir/$2"
	make -s -C "$dir/$2" clean >/dev/null 2>&1
	if ! make -s -C "$dir/$2" CC="$3" >"$dir/$2.build.log" 2>&1; then
		echo "run.sh: build of $2 with $3 failed (see $dir/$2.build.log)" >&2
		touch "$dir/$2.failed"
		return 1
	fi
	if [ ! -x "$dir/$2/$2" ]; then
		echo "run.sh: building $2 with $3 made no executable" >&2
		touch "$dir/$2.failed"
		return 1
	fi
}

# Builds run NJOBS at a time.
NJOBS=$(nproc 2>/dev/null || echo 2)
build_bg() {
	while [ "$(jobs -rp | wc -l)" -ge "$NJOBS" ]; do wait -n; done
	build_one "$@" &
}

if [ $BUILD = 1 ]; then
	echo "building in $BUILDDIR" >&2
	for k in native vast; do
		mkdir -p "$BUILDDIR/$k"
		rm -rf "$BUILDDIR/$k/common" && cp -r "$ROOT/examples/common" "$BUILDDIR/$k/common"
	done
	for w in $WORKLOADS matrixmul-manual; do
		build_bg native "$w" "${CC:-cc}"
	done
	cc -O2 -Wall -Wextra -I"$ROOT/examples/common" -o "$BUILDDIR/bw" "$ROOT/bench/bw.c" \
		-lOpenCL -lm || echo "run.sh: build of bench/bw.c failed" >&2
	cc -O2 -Wall -Wextra -I"$ROOT/examples/common" -o "$BUILDDIR/hostbw" "$ROOT/bench/hostbw.c" \
		-lOpenCL -lm -lpthread || echo "run.sh: build of bench/hostbw.c failed" >&2
	if V=$(find_vastcc); then
		echo "vastcc: $V" >&2
		for w in $WORKLOADS; do
			build_bg vast "$w" "$V"
		done
	else
		echo "run.sh: vastcc not found (set VASTCC or build it): vast and paged modes are skipped" >&2
	fi
	wait
fi

# ---- runs ------------------------------------------------------------------
has_mode() { case ",$MODES," in *",$1,"*) return 0 ;; esac; return 1; }
# The workloads that stream their data once (issue 8's streaming goal); they
# take -m (examples/common/vast_example.h: vex_array).
is_streaming() {
	case $1 in blackscholes|reduction|medianfilter|sobelfilter|mersennetwister) return 0 ;; esac
	return 1
}

# run_one workload mode size binary args... ; env comes from the caller.
# Appends one CSV row, best (least seconds) of REPS runs.
FAILED=0
run_one() {
	local w=$1 mode=$2 size=$3 bin=$4
	shift 4
	local log=$LOGS/$w-$size-$mode.log best="" bestlog="" status=ok r
	if [ ! -x "$bin" ]; then
		# No executable: its build failed (a failure), or there is no
		# vastcc here (skipped).
		status=skipped
		if [ -e "$(dirname "$(dirname "$bin")")/$w.failed" ]; then
			status=buildfail
			FAILED=1
		fi
		echo "$w,${DATA:-$size},$mode,,,$status,,,,,,,,$size,\"$*\"" >>"$CSV"
		return
	fi
	for r in $(seq 1 "$REPS"); do
		local l=$log.$r rc
		timeout "$TIMEOUT" "$bin" "$@" >"$l" 2>&1
		rc=$?
		if [ $rc = 124 ]; then status=timeout; bestlog=$l; break; fi
		if [ $rc != 0 ]; then status=fail; bestlog=$l; break; fi
		local s
		s=$(sed -n 's/.* seconds=\([0-9.e+-]*\).*/\1/p' "$l" | head -1)
		if [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$s
			bestlog=$l
		fi
	done
	cp "$bestlog" "$log"
	rm -f "$log".[0-9]*
	[ $status != ok ] && { FAILED=1; echo "run.sh: $w $mode: $status (see $log)" >&2; }
	# One line per kernel from VAST_STATS=kv: the program's totals are the sums.
	awk -v w="$w" -v size="$size" -v data="${DATA:-$size}" -v mode="$mode" -v st="$status" -v args="$*" '
		/^device: / { sub(/^device: /, ""); gsub(/,/, ";"); dev = $0 }
		/ seconds=/ { for (i = 1; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == "seconds") secs = kv[2]
			if (kv[1] == "bytes") bytes = kv[2] } }
		/^vast: kernel / { nk++; for (i = 4; i <= NF; i++) { split($i, kv, "="); s[kv[1]] += kv[2] } }
		END {
			if (bytes == "") bytes = data
			printf "%s,%s,%s,%s,%s,%s", w, bytes, mode, dev, secs, st
			if (nk) printf ",%d,%d,%d,%.0f,%.0f,%.3f,%.3f", s["launches"], s["native"],
				s["ranges"], s["h2d"], s["d2h"], s["inspect_ms"], s["total_ms"]
			else printf ",,,,,,,"
			printf ",%s,\"%s\"", size, args
			printf ",%s\n", nk ? sprintf("%.3f", s["kernel_ms"]) : ""
		}' "$log" >>"$CSV"
}

# The program's own figure for its data size, from its resident run.
data_bytes() {
	awk -F, -v w="$1" -v m="$2" -v t="$3" '$1 == w && $3 == m && $6 == "ok" && $14 == t { b = $2 } END { print b }' "$CSV"
}

if [ $RUN = 1 ]; then
	mkdir -p "$LOGS"
	echo "workload,size_bytes,mode,device,seconds,status,launches,native,ranges,h2d_bytes,d2h_bytes,inspect_ms,total_ms,target_bytes,args,kernel_ms" >"$CSV"
	for sz in $(echo "$SIZES" | tr , ' '); do
		b=$(to_bytes "$sz")
		for w in $WORKLOADS; do
			args=$(args_for "$w" "$b")
			nat=$BUILDDIR/native/$w/$w
			vb=$BUILDDIR/vast/$w/$w
			echo "== $w ($sz): $args" >&2
			# $args is a list of numbers: word splitting is intended.
			# shellcheck disable=SC2086
			{
			DATA=""
			run_one "$w" resident "$b" "$nat" $args
			DATA=$(data_bytes "$w" resident "$b")
			data=${DATA:-$b}
			if has_mode vast; then
				VAST_DEVICE_MEM=$((data / 4)) VAST_STATS=kv2 run_one "$w" vast "$b" "$vb" $args
			fi
			if has_mode pocl; then
				VAST_EXAMPLE_DEVICE=cpu run_one "$w" pocl "$b" "$nat" $args
			fi
			if has_mode manual && [ "$w" = matrixmul ]; then
				margs=$(args_for matrixmul-manual "$b")
				set -- $margs
				run_one "$w" manual "$b" "$BUILDDIR/native/matrixmul-manual/matrixmul-manual" \
					"$1" "$2" "$3" $((data / 4))
			fi
			if has_mode paged; then
				VAST_MODE=paged VAST_STATS=kv2 run_one "$w" paged "$b" "$vb" $args
			fi
			if has_mode resident-vast; then
				VAST_STATS=kv2 run_one "$w" resident-vast "$b" "$vb" $args
			fi
			if has_mode paged-checked; then
				VAST_MODE=paged VAST_STRAIGHT=0 VAST_STATS=kv2 run_one "$w" paged-checked "$b" "$vb" $args
			fi
			if is_streaming "$w"; then
				if has_mode mapped; then
					run_one "$w" mapped "$b" "$nat" -m $args
				fi
				if has_mode vast-mapped; then
					VAST_DEVICE_MEM=$((data / 4)) VAST_STATS=kv2 run_one "$w" vast-mapped "$b" "$vb" -m $args
				fi
			fi
			}
		done
	done
	# The copy bandwidth the streaming workloads are measured against.
	bwsize=1G
	[ $QUICK = 1 ] && bwsize=64M
	if [ -x "$BUILDDIR/bw" ]; then
		echo "== bandwidth ($bwsize)" >&2
		if "$BUILDDIR/bw" "$bwsize" >"$LOGS/bandwidth.log" 2>&1; then
			awk '/^device: / { sub(/^device: /, ""); gsub(/,/, ";"); dev = $0 }
			     /^bw: / { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			               printf "bandwidth,%s,%s-%s,%s,%s,ok,,,,,,,,%s,\"gbps=%s\"\n",
			                      v["bytes"], v["mode"], v["dir"], dev, v["seconds"], v["bytes"], v["gbps"] }' \
				"$LOGS/bandwidth.log" >>"$CSV"
		else
			echo "bandwidth,,probe,,,fail,,,,,,,,,\"\"" >>"$CSV"
			FAILED=1
		fi
	fi
	# What the host's memory copies (bench/hostbw.c): each streamed byte
	# is copied once on the host beside its DMA.
	if [ -x "$BUILDDIR/hostbw" ]; then
		echo "== host copies ($bwsize)" >&2
		"$BUILDDIR/hostbw" -q "$bwsize" >"$LOGS/hostbw.log" 2>&1 ||
			echo "run.sh: bench/hostbw failed (logs/hostbw.log)" >&2
		# The host's copy beside the DMA, on the most threads: the
		# streaming workloads' other bound (report.sh).
		awk '/^hostbw: case=copy\+h2d / { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		                                 if (v["threads"] + 0 >= best) { best = v["threads"] + 0; row = v["bytes"] "," v["seconds"] } }
		     END { if (row != "") { split(row, r, ",")
		           printf "bandwidth,%s,host-copy-beside-h2d,host,%s,ok,,,,,,,,%s,\"\"\n", r[1], r[2], r[1] } }' \
			"$LOGS/hostbw.log" >>"$CSV"
		grep "threads=16" "$LOGS/hostbw.log" >&2
	fi
	echo "wrote $CSV" >&2
fi

# ---- summary and charts ----------------------------------------------------
if [ $CHARTS = 1 ]; then
	[ -f "$CSV" ] || die "no $CSV: run the benchmark first"
	"$ROOT/bench/report.sh" "$CSV" "$OUT" || FAILED=1
fi
exit $FAILED
