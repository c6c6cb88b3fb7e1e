#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench/traces.sh BUILD RESULTS_CSV OUTDIR - runs every workload of a
# bench/run.sh results.csv once more in its `vast` configuration (same
# arguments, VAST_DEVICE_MEM = a quarter of its data) with VAST_TRACE, so
# the time of each phase (footprints or inspect, plan, setup, gather, H2D,
# kernel, D2H, scatter) can be read per range: OUTDIR/trace-W.json (open
# it in Perfetto or chrome://tracing) and OUTDIR/trace-W.log (VAST_STATS).
# BUILD is the --out folder of bench/run.sh (its build/vast/W/W binaries).
# bench/trace_summary.py OUTDIR prints the phases' totals.
set -eu
build=$1 csv=$2 out=$3
mkdir -p "$out"
awk -F, '$3 == "vast" && $6 == "ok" { print $1, $2 }' "$csv" | sort -u |
while read -r w bytes; do
	args=$(awk -F, -v w="$w" '$1 == w && $3 == "vast" {
		match($0, /"[^"]*"/); print substr($0, RSTART + 1, RLENGTH - 2); exit }' "$csv")
	bin=$build/build/vast/$w/$w
	[ -x "$bin" ] || { echo "traces: no $bin" >&2; continue; }
	echo "== $w $args"
	# shellcheck disable=SC2086 # the arguments are words
	VAST_DEVICE_MEM=$((bytes / 4)) VAST_STATS=kv2 VAST_TRACE="$out/trace-$w.json" \
		timeout 120 "$bin" $args > "$out/trace-$w.log" 2>&1 || echo "traces: $w failed" >&2
	tail -3 "$out/trace-$w.log"
done
