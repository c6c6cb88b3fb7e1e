#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench/jit-build/run.sh - what compiling at clBuildProgram costs (issue
# 11: "a second run of a program hits the cache: its clBuildProgram costs
# no more than 1.2x the native build").
#
#   bench/jit-build/run.sh [--reps N] [--kernel FILE.cl] [--options "OPTS"]
#       [--vastcc PATH] [--out DIR] [--no-build] [--build-only]
#       [--launch KERNEL] [--cold]
#
# buildtime.c (a plain OpenCL host) is built twice, with cc (native) and
# with vastcc (the runtime linked in; the kernel file is never named, so
# the runtime compiles it when the program builds it). Three figures, each
# the median over N processes (default 5), every process timing the
# clBuildProgram of one fresh program object:
#   native  the cc build;
#   first   the vastcc build, each process with an empty cache: vastcc
#           runs, then the driver builds the generated program;
#   cached  the vastcc build, the cache filled once beforehand: every
#           process is a "second run".
# Prints them with the ratios first/native and cached/native, and writes
# the same to DIR/summary.txt (default bench/out/jit-build). The driver's
# own cache (PoCL's, NVIDIA's ComputeCache) is warmed for both programs
# before timing, so the figures compare vastcc's part, not the driver's
# first compile. Exits 1 when a build or run fails, or when the "first"
# runs left no cache (the runtime did not compile at clBuildProgram).
#
# --launch KERNEL times each build and the first launch of KERNEL after
# it to its end (buildtime -k): what a program waits before its first
# result. --cold gives every process an empty driver cache too (PoCL's
# POCL_CACHE_DIR), instead of warming it: a first run on a fresh machine.
#
# Default kernel: test/thirdparty/sgemm/sgemm.cl with that program's
# options. Builds go to DIR/build: --build-only stops there, --no-build
# runs what is there (to build here and run on another machine; the
# vastcc runtime needs its compiler there too, see README.md).
set -u
NAME=jit-build
. "$(dirname "$0")/common.sh"
LAUNCH= COLD=0
KERNEL=$ROOT/test/thirdparty/sgemm/sgemm.cl
OPTIONS="-DTILE=16 -DREAL=float -cl-mad-enable"
script_option() {
	case $1 in
	--kernel) KERNEL=$2; return 2 ;;
	--options) OPTIONS=$2; return 2 ;;
	--launch) LAUNCH=$2; return 2 ;;
	--cold) COLD=1; return 1 ;;
	esac
	return 0
}
parse_options "$@"
[ -f "$KERNEL" ] || die "no kernel file '$KERNEL'"
prepare_run

once() { # PROGRAM CACHE-DIR: one process, one build; prints its seconds (exits on failure)
	local log=$tmp/once.log
	local pocl=$POCL_CACHE_DIR
	[ $COLD = 1 ] && pocl=$2/pocl
	XDG_CACHE_HOME=$2 VAST_CACHE_DIR=$2/vastcc POCL_CACHE_DIR=$pocl \
		"$B/buildtime-$1" -n 1 ${LAUNCH:+-k "$LAUNCH"} "$KERNEL" "$OPTIONS" \
		>"$log" 2>&1 || { cat "$log" >&2; die "buildtime-$1 failed"; }
	sed -n 's/^median_s=//p' "$log"
}

# Warm the driver's cache for the original and for the generated program.
if [ $COLD = 0 ]; then
	once native "$tmp/warm" >/dev/null
	once vast "$tmp/warm" >/dev/null
fi
device=$("$B/buildtime-native" -n 1 "$KERNEL" "$OPTIONS" | sed -n 's/^device=//p')

for i in $(seq "$REPS"); do
	once native "$tmp/none$i" >>"$tmp/native.s"
done
for i in $(seq "$REPS"); do
	once vast "$tmp/first$i" >>"$tmp/first.s"
	[ -n "$(find "$tmp/first$i/vastcc" -type f 2>/dev/null)" ] ||
		die "the vastcc build left no cache under \$XDG_CACHE_HOME/vastcc: it did not compile at clBuildProgram"
done
once vast "$tmp/cached" >/dev/null
for i in $(seq "$REPS"); do
	once vast "$tmp/cached" >>"$tmp/cached.s"
done
native=$(median <"$tmp/native.s") first=$(median <"$tmp/first.s") cached=$(median <"$tmp/cached.s")
if [ -z "$native" ] || [ -z "$first" ] || [ -z "$cached" ]; then
	die "a run printed no time"
fi

{
	echo "jit-build: $(basename "$KERNEL") '$OPTIONS' on '$device', median of $REPS processes${LAUNCH:+, build and first launch of '$LAUNCH'}$([ $COLD = 1 ] && echo ', driver cache cold')"
	printf 'native  %.4f s\n' "$native"
	printf 'first   %.4f s  first/native  %s\n' "$first" "$(ratio "$first" "$native")"
	printf 'cached  %.4f s  cached/native %s  (goal <= 1.20)\n' "$cached" "$(ratio "$cached" "$native")"
} | tee "$OUT/summary.txt"
