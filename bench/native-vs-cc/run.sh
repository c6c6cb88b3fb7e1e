#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench/native-vs-cc/run.sh - the native path against cc (issue 8 item 5):
# the same programs built with cc and with vastcc, the data fitting on the
# device (no budget), and the ratio vastcc/cc of their times.
#
#   bench/native-vs-cc/run.sh [--quick] [--out DIR] [--size BYTES]
#       [--use-size BYTES] [--reps N] [--vastcc PATH] [--no-build]
#       [--build-only] [--no-fill] [--no-workloads]
#
# 1. fill.c, every way of creating, filling and reading back buffers
#    (CREATE write|copy|use|alloc|fill|dup x READ read|map, see fill.c) at --size
#    (default 1G), and `use` also at --use-size (default 3G); timed whole
#    (creation to the output on the host), best of --reps (default 3).
# 2. The nine workloads of bench/run.sh at --size in its modes `resident`
#    (cc) and `resident-vast` (vastcc, no budget), their `seconds`.
# Writes DIR/fill.csv, DIR/workloads/results.csv (bench/run.sh's) and
# DIR/summary.txt: one line per program, cc and vastcc seconds and their
# ratio (the goal: <= 1.10), and the geometric mean of each part. A failed
# run is a line with status=fail and makes the script exit 1.
#
# --quick: 8M of data on the CPU device (PoCL), one repetition: proves the
# harness end to end in a minute (PoCL pins nothing, so its ratios are a
# sanity check only). Builds go to DIR/build; carry DIR to another machine
# and run there with --no-build; --no-fill and --no-workloads run one part
# (each part's files are kept, so two calls fill the summary).

set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$ROOT/bench/native-vs-cc
OUT=$ROOT/bench/out/native-vs-cc
QUICK=0 SIZE="" USESIZE="" REPS="" BUILD=1 RUN=1 FILL=1 WORKLOADS=1
VASTCC=${VASTCC:-}
die() { echo "native-vs-cc: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--quick) QUICK=1 ;;
	--out) OUT=$2; shift ;;
	--size) SIZE=$2; shift ;;
	--use-size) USESIZE=$2; shift ;;
	--reps) REPS=$2; shift ;;
	--vastcc) VASTCC=$2; shift ;;
	--no-build) BUILD=0 ;;
	--build-only) RUN=0 ;;
	--no-fill) FILL=0 ;;
	--no-workloads) WORKLOADS=0 ;;
	-h|--help) sed -n '3,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option '$1' (see --help)" ;;
	esac
	shift
done
if [ $QUICK = 1 ]; then
	SIZE=${SIZE:-8M} USESIZE=${USESIZE:-16M} REPS=${REPS:-1}
	export VAST_EXAMPLE_DEVICE=${VAST_EXAMPLE_DEVICE:-cpu}
fi
SIZE=${SIZE:-1G} USESIZE=${USESIZE:-3G} REPS=${REPS:-3}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
B=$OUT/build
if [ -z "$VASTCC" ]; then
	for c in "$ROOT/build/bin/vastcc" "$(command -v vastcc 2>/dev/null)"; do
		[ -n "$c" ] && [ -x "$c" ] && { VASTCC=$c; break; }
	done
fi

# ---- build: fill with cc and with vastcc, each beside its fill.cl ----------
if [ $BUILD = 1 ]; then
	[ -n "$VASTCC" ] || die "no vastcc (build it, or pass --vastcc)"
	mkdir -p "$B/native" "$B/vast"
	cp "$HERE/fill.cl" "$B/native/" && cp "$HERE/fill.cl" "$B/vast/"
	cc -O2 -Wall -Wextra -I"$ROOT/examples/common" -o "$B/native/fill" "$HERE/fill.c" \
		-lOpenCL || die "build of fill.c with cc failed"
	"$VASTCC" -c "$B/vast/fill.cl" -o "$B/vast/fill.o" &&
		"$VASTCC" -O2 -Wall -Wextra -I"$ROOT/examples/common" -o "$B/vast/fill" \
			"$HERE/fill.c" "$B/vast/fill.o" -lOpenCL ||
		die "build of fill.c with vastcc failed"
	if [ $WORKLOADS = 1 ]; then
		VASTCC=$VASTCC "$ROOT/bench/run.sh" --build-only --out "$OUT/workloads" ||
			die "bench/run.sh --build-only failed"
	fi
fi
[ $RUN = 1 ] || exit 0

FAILED=0
# best BIN ARGS...: the least `seconds=` of REPS runs, or "fail".
best() {
	local b="" s r
	for r in $(seq 1 "$REPS"); do
		s=$("$@" 2>>"$OUT/fill.log" | tee -a "$OUT/fill.log" |
			sed -n 's/.* seconds=\([0-9.e+-]*\).*/\1/p')
		[ -n "$s" ] || { echo fail; return; }
		if [ -z "$b" ] || awk -v a="$s" -v c="$b" 'BEGIN { exit !(a < c) }'; then b=$s; fi
	done
	echo "$b"
}

[ $FILL = 1 ] && : >"$OUT/fill.log" &&
	echo "program,bytes,cc_seconds,vastcc_seconds,ratio,status" >"$OUT/fill.csv"
for create in write copy use alloc fill dup; do
	[ $FILL = 1 ] || break
	sizes=$SIZE
	[ $create = use ] && sizes="$SIZE $USESIZE"
	for sz in $sizes; do
		for read in read map; do
			echo "== fill $create $read $sz" >&2
			c=$(best "$B/native/fill" $create $read "$sz")
			v=$(best "$B/vast/fill" $create $read "$sz")
			if [ "$c" = fail ] || [ "$v" = fail ]; then
				echo "fill-$create-$read,$sz,$c,$v,,fail" >>"$OUT/fill.csv"
				FAILED=1
			else
				awk -v p="fill-$create-$read" -v s="$sz" -v c="$c" -v v="$v" \
					'BEGIN { printf "%s,%s,%s,%s,%.3f,ok\n", p, s, c, v, v / c }' \
					>>"$OUT/fill.csv"
			fi
		done
	done
done

if [ $WORKLOADS = 1 ]; then
	q=""
	[ $QUICK = 1 ] && q=--quick
	"$ROOT/bench/run.sh" $q --no-build --out "$OUT/workloads" --size "$SIZE" \
		--reps "$REPS" --modes resident,resident-vast >&2 || FAILED=1
fi

# ---- summary ----------------------------------------------------------------
{
	echo "# vastcc (native path, no budget) / cc; goal <= 1.10"
	printf '%-28s %10s %10s %10s %7s\n' program bytes cc_s vastcc_s ratio
	[ -f "$OUT/fill.csv" ] && awk -F, 'NR > 1 { printf "%-28s %10s %10s %10s %7s %s\n", $1, $2, $3, $4, $5, $6 == "ok" ? "" : $6
	                  if ($6 == "ok") { g += log($5); n++ } }
	         END { if (n) printf "fill geomean %.3f over %d\n", exp(g / n), n }' "$OUT/fill.csv"
	csv=$OUT/workloads/results.csv
	if [ -f "$csv" ]; then
		awk -F, '$3 == "resident" && $6 == "ok" { cc[$1] = $5; b[$1] = $2 }
		         $3 == "resident-vast" && $6 == "ok" { v[$1] = $5 }
		         $3 ~ /^resident/ && $6 != "ok" { bad[$1] = $6 }
		         END { for (w in b) if (!(w in bad) && (w in v)) {
		                   r = v[w] / cc[w]; g += log(r); n++
		                   printf "%-28s %10s %10s %10s %7.3f\n", w, b[w], cc[w], v[w], r }
		               for (w in bad) printf "%-28s %10s %10s %10s %7s %s\n", w, "", "", "", "", bad[w]
		               if (n) printf "workloads geomean %.3f over %d\n", exp(g / n), n }' "$csv"
	fi
} >"$OUT/summary.txt"
cat "$OUT/summary.txt"
exit $FAILED
