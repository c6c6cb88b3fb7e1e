#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/ab-nine.sh A_DIR B_DIR [REPS]: bench/ab.sh over the nine workloads
# at 4 GiB of data and a budget of a quarter of it (1 GiB), the arguments
# bench/run.sh gives them at --size 4G; one line per run and the medians.
set -u
[ $# -ge 2 ] || { sed -n '3,5p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
A=$1 B=$2 REPS=${3:-3}
exec "$(dirname "$0")/ab.sh" "$A" "$B" 1073741824 "$REPS" \
	"matrixmul:261120 2048 2048" "nbody:262144 1" "blackscholes:214748364" \
	"sobelfilter:8192 65536" "medianfilter:8192 65536" "fdtd3d:812 812 812 2" \
	"mersennetwister:1073741824 4096" "reduction:1073741824" "spmv-ell:31580641 16"
