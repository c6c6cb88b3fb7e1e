#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench/pinspect.sh [OUT] - the paged inspector on the GPU (runtime/inspect/
# pinspect.c): spmv-ell at 4 GiB, vast (a quarter of its data as budget,
# so its 2 GB `col` passes the budget) against resident-vast, through
# bench/run.sh; then one traced run (bench/traces.sh) whose VAST_STATS
# line must show inspect_paged=N (N chunks on the GPU) and inspect_cpu=0,
# and whose trace's inspect_paged events are the inspection's time.
# Before the paged inspector: 0.10 (inspect 1642 ms of 2.04 s, on the CPU).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$ROOT/bench/out/pinspect}
bash "$ROOT/bench/run.sh" --only spmv-ell --size 4G --modes vast,resident-vast \
	--reps 3 --out "$out" || true
bash "$ROOT/bench/traces.sh" "$out" "$out/results.csv" "$out/traces"
grep -o 'inspect_ms=[0-9.]*\|inspect_paged=[0-9]*\|inspect_cpu=[0-9]*' "$out/traces/trace-spmv-ell.log"
python3 "$ROOT/bench/trace_summary.py" "$out/traces/trace-spmv-ell.json"
cat "$out/summary.txt"
