#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The whole suite, as CI runs it: a release build and an AddressSanitizer +
# UndefinedBehaviorSanitizer build, each built and run through
# test/check.sh. Ends with one line "N passed, N failed" over both.
set -u
cd "$(dirname "$0")/.."
jobs=${JOBS:-2}
total_p=0
total_f=0
run() { # name, build dir, cmake args...
	local name=$1 dir=$2
	shift 2
	echo "=== $name build ($dir)"
	if ! cmake -S . -B "$dir" "$@" >/dev/null || ! cmake --build "$dir" -j"$jobs" --target all vast-clbuild; then
		echo "FAIL: $name build"
		total_f=$((total_f + 1))
		return
	fi
	# The run is shown as it goes and kept for its summary line (tee to
	# a file: /dev/stderr would truncate a log that stderr points at).
	local log out
	log=$(mktemp)
	bash test/check.sh "$dir" 2>&1 | tee "$log"
	out=$(tail -n 1 "$log")
	rm -f "$log"
	local p f
	p=$(echo "$out" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
	f=$(echo "$out" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
	total_p=$((total_p + ${p:-0}))
	total_f=$((total_f + ${f:-1}))
}
run release build
ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
	run sanitizers build-asan -DVAST_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
echo "$total_p passed, $total_f failed"
[ "$total_f" -eq 0 ]
