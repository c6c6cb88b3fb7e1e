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
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$ROOT/bench/jit-build
REPS=5 BUILD=1 RUN=1 LAUNCH= COLD=0
KERNEL=$ROOT/test/thirdparty/sgemm/sgemm.cl
OPTIONS="-DTILE=16 -DREAL=float -cl-mad-enable"
VASTCC=${VASTCC:-$ROOT/build/bin/vastcc}
OUT=$ROOT/bench/out/jit-build
die() { echo "jit-build: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
	case $1 in
	--reps) REPS=$2; shift ;;
	--kernel) KERNEL=$2; shift ;;
	--options) OPTIONS=$2; shift ;;
	--vastcc) VASTCC=$2; shift ;;
	--out) OUT=$2; shift ;;
	--no-build) BUILD=0 ;;
	--launch) LAUNCH=$2; shift ;;
	--cold) COLD=1 ;;
	--build-only) RUN=0 ;;
	-h | --help) sed -n '3,38p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "jit-build: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
	shift
done
[ "$REPS" -ge 1 ] 2>/dev/null || die "--reps wants a positive count"
[ -f "$KERNEL" ] || die "no kernel file '$KERNEL'"
mkdir -p "$OUT/build" || die "cannot make $OUT"
OUT=$(cd "$OUT" && pwd)
B=$OUT/build

if [ $BUILD = 1 ]; then
	[ -x "$VASTCC" ] || die "$VASTCC not found: build vastcc, or pass --vastcc"
	cc -O2 -o "$B/buildtime-native" "$HERE/buildtime.c" -lOpenCL ||
		die "the native build of buildtime.c failed"
	"$VASTCC" -O2 -o "$B/buildtime-vast" "$HERE/buildtime.c" ||
		die "the vastcc build of buildtime.c failed"
fi
[ $RUN = 1 ] || { echo "jit-build: built under $B"; exit 0; }
# The compiler the runtime runs at clBuildProgram: this one, wherever the
# runtime would look by itself (the build tree may have moved).
[ -x "$VASTCC" ] || die "$VASTCC not found: the runtime needs it to compile at clBuildProgram (--vastcc)"
export VAST_COMPILER=$VASTCC
for p in native vast; do
	[ -x "$B/buildtime-$p" ] || die "$B/buildtime-$p not found: build first (without --no-build)"
done

# The runtime's knobs must not leak in; every cache this script uses is its own.
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_LOG VAST_JIT VAST_CACHE VAST_CACHE_DIR
# The driver's cache stays where it was (PoCL keeps it under XDG_CACHE_HOME,
# which the runs below change to give each its own vastcc cache).
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pocl}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-jit-build.XXXXXX") || die "mktemp"
trap 'rm -rf "$tmp"' EXIT

once() { # PROGRAM CACHE-DIR: one process, one build; prints its seconds (exits on failure)
	local log=$tmp/once.log
	local pocl=$POCL_CACHE_DIR
	[ $COLD = 1 ] && pocl=$2/pocl
	XDG_CACHE_HOME=$2 VAST_CACHE_DIR=$2/vastcc POCL_CACHE_DIR=$pocl \
		"$B/buildtime-$1" -n 1 ${LAUNCH:+-k "$LAUNCH"} "$KERNEL" "$OPTIONS" \
		>"$log" 2>&1 || { cat "$log" >&2; die "buildtime-$1 failed"; }
	sed -n 's/^median_s=//p' "$log"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

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
