#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench/ab.sh - two builds of the workloads side by side, alternating, so
# that a change is measured against the tree before it on one machine in
# one run (these machines are noisy: numbers from two runs do not compare).
#
#   bench/ab.sh A_DIR B_DIR BUDGET REPS WORKLOAD:ARGS...
#
# A_DIR and B_DIR are bench/run.sh --build-only output folders (their
# build/vast/W/W programs); each WORKLOAD:ARGS (arguments space-separated)
# runs REPS times from each, A then B, with VAST_DEVICE_MEM=BUDGET and
# VAST_STATS=kv. Prints one line per run (wall seconds, the runtime's
# total_ms summed over kernels, the program's own seconds= where it prints
# one) and per workload the median of each and their ratio B/A.
set -u
[ $# -ge 5 ] || { sed -n '3,15p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
A=$1 B=$2 BUDGET=$3 REPS=$4
shift 4
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
for spec in "$@"; do
	w=${spec%%:*} args=${spec#*:}
	: >"/tmp/ab.$w.A" && : >"/tmp/ab.$w.B"
	for r in $(seq "$REPS"); do
		for side in A B; do
			dir=$A
			[ $side = B ] && dir=$B
			t0=$(date +%s.%N)
			out=$(VAST_DEVICE_MEM=$BUDGET VAST_STATS=kv "$dir/build/vast/$w/$w" -q $args 2>&1) ||
				{ echo "ab: $w ($side) failed: $out" >&2; exit 1; }
			t1=$(date +%s.%N)
			total=$(echo "$out" | sed -nE 's/.* total_ms=([0-9.]+).*/\1/p' | awk '{s += $1} END {print s + 0}')
			wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.4f", b - a}')
			secs=$(echo "$out" | sed -nE 's/.* seconds=([0-9.]+).*/\1/p' | tail -1)
			echo "$wall $total ${secs:-0}" >>"/tmp/ab.$w.$side"
			echo "ab: $w $side run $r: wall=${wall}s total_ms=$total seconds=${secs:-?}"
		done
	done
	wa=$(cut -d' ' -f1 "/tmp/ab.$w.A" | median) wb=$(cut -d' ' -f1 "/tmp/ab.$w.B" | median)
	ta=$(cut -d' ' -f2 "/tmp/ab.$w.A" | median) tb=$(cut -d' ' -f2 "/tmp/ab.$w.B" | median)
	sa=$(cut -d' ' -f3 "/tmp/ab.$w.A" | median) sb=$(cut -d' ' -f3 "/tmp/ab.$w.B" | median)
	echo "ab: $w median wall A=$wa B=$wb B/A=$(awk -v a="$wa" -v b="$wb" 'BEGIN {printf "%.3f", b / a}')" \
		"total_ms A=$ta B=$tb B/A=$(awk -v a="$ta" -v b="$tb" 'BEGIN {printf "%.3f", b / a}')" \
		"seconds A=$sa B=$sb B/A=$(awk -v a="$sa" -v b="$sb" 'BEGIN {printf "%.3f", b ? b / a : 0}')"
done
