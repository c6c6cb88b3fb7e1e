#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The whole suite, as CI runs it: a release build and an AddressSanitizer +
# UndefinedBehaviorSanitizer + LeakSanitizer build, each built and run
# through test/check.sh, then the fuzz target (clang-19, libFuzzer) built
# and smoke-tested through test/fuzz/smoke.sh. Ends with one line
# "N passed, N failed" over all three.
set -u
cd "$(dirname "$0")/.."
jobs=${JOBS:-2}
total_p=0
total_f=0
# Adds the closing "N passed, N failed" line of a log to the totals; a log
# without one counts as one failure.
tally() {
	local out p f
	out=$(tail -n 1 "$1")
	p=$(echo "$out" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
	f=$(echo "$out" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
	total_p=$((total_p + ${p:-0}))
	total_f=$((total_f + ${f:-1}))
}
run() { # name, build dir, targets, test script, cmake args...
	local name=$1 dir=$2 targets=$3 script=$4
	shift 4
	echo "=== $name build ($dir)"
	if ! cmake -S . -B "$dir" "$@" >/dev/null || ! cmake --build "$dir" -j"$jobs" --target $targets; then
		echo "FAIL: $name build"
		total_f=$((total_f + 1))
		return
	fi
	# The run is shown as it goes and kept for its summary line (tee to
	# a file: /dev/stderr would truncate a log that stderr points at).
	local log
	log=$(mktemp)
	bash "$script" "$dir" 2>&1 | tee "$log"
	tally "$log"
	rm -f "$log"
}
run release build "all vast-clbuild" test/check.sh
# LeakSanitizer on: our code frees what it allocates; leaks inside PoCL and
# the ICD loader are suppressed by library name (test/lsan.supp).
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
LSAN_OPTIONS=suppressions=$PWD/test/lsan.supp:print_suppressions=0 \
	run sanitizers build-asan "all vast-clbuild" test/check.sh \
	-DVAST_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
CC=clang-19 run fuzz build-fuzz vast-fuzz test/fuzz/smoke.sh -DVAST_FUZZ=ON
echo "$total_p passed, $total_f failed"
[ "$total_f" -eq 0 ]
