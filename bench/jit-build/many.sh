#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench/jit-build/many.sh - the first run of a program that builds many
# kernel files at its start (an application of fifty programs), against
# the same program built with cc: what compiling at clBuildProgram costs
# the whole run.
#
#   bench/jit-build/many.sh [--reps N] [--list FILE] [--vastcc PATH]
#       [--out DIR] [--no-build] [--build-only]
#
# buildtime -l (buildtime.c) builds every program of the list in one
# process, each its own clCreateProgramWithSource and clBuildProgram,
# then one launch of its first kernel to its end, as an application's
# start does. Built twice, with cc (native) and with vastcc (the runtime
# linked in, no kernel file named, so the runtime compiles every program
# at its build). Three figures, each the median over N processes (default
# 5) of the process's wall time, exit included:
#   native  the cc build;
#   cold    the vastcc build, each process with an empty vastcc cache;
#   warm    the vastcc build, the cache filled beforehand.
# The driver's own cache (PoCL's POCL_CACHE_DIR, NVIDIA's ComputeCache)
# is warmed for both first, so the figures compare vastcc's part. Prints
# them with cold/native (goal <= 4) and warm/native (goal <= 1.2), each
# side's time in clBuildProgram and in the launches, and writes the same
# to DIR/many.txt (default bench/out/jit-build).
#
# The default list: every .cl under examples/ and test/thirdparty/, with
# the build options of those that need some; --list FILE gives another
# ("PATH [OPTIONS]" a line).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$ROOT/bench/jit-build
REPS=5 BUILD=1 RUN=1 LIST=
VASTCC=${VASTCC:-$ROOT/build/bin/vastcc}
OUT=$ROOT/bench/out/jit-build
die() { echo "jit-build many: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
	case $1 in
	--reps) REPS=$2; shift ;;
	--list) LIST=$2; shift ;;
	--vastcc) VASTCC=$2; shift ;;
	--out) OUT=$2; shift ;;
	--no-build) BUILD=0 ;;
	--build-only) RUN=0 ;;
	-h | --help) sed -n '3,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "jit-build many: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
	shift
done
[ "$REPS" -ge 1 ] 2>/dev/null || die "--reps wants a positive count"
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
[ $RUN = 1 ] || { echo "jit-build many: built under $B"; exit 0; }
[ -x "$VASTCC" ] || die "$VASTCC not found: the runtime needs it to compile at clBuildProgram (--vastcc)"
export VAST_COMPILER=$VASTCC
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_LOG VAST_JIT VAST_CACHE VAST_CACHE_DIR
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pocl}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-jit-many.XXXXXX") || die "mktemp"
trap 'rm -rf "$tmp"' EXIT

if [ -z "$LIST" ]; then
	LIST=$tmp/list
	for f in $(cd "$ROOT" && find examples test/thirdparty -name '*.cl' | sort); do
		case $f in
		*/sgemm.cl) echo "$ROOT/$f -DTILE=16 -DREAL=float -cl-mad-enable" ;;
		*/fir.cl) echo "$ROOT/$f -DTYPE=float -DTAPS=16" ;;
		*) echo "$ROOT/$f" ;;
		esac
	done >"$LIST"
fi
nprog=$(grep -cv '^[[:space:]]*\(#\|$\)' "$LIST")

once() { # SIDE CACHE-DIR [ENV...]: one process; appends "wall build launch" to $tmp/SIDE.s
	local side=$1 cache=$2 log=$tmp/once.log; shift 2
	local t0 t1
	t0=$(date +%s.%N)
	env "$@" XDG_CACHE_HOME="$cache" VAST_CACHE_DIR="$cache/vastcc" "$B/buildtime-${side%%-*}" \
		-l "$LIST" >"$log" 2>&1 || { cat "$log" >&2; die "buildtime-${side%%-*} failed"; }
	t1=$(date +%s.%N)
	echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
		"$(sed -n 's/^build_s=//p' "$log")" "$(sed -n 's/^launch_s=//p' "$log")" >>"$tmp/$side.s"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
col() { awk -v c="$2" '{ print $c }' "$tmp/$1.s" | median; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

# The driver's cache, for the original programs (and, paged, the
# generated ones); the vastcc cache that "warm" reads, filled by a run
# whose launches all wait for their program's analysis (VAST_MODE=paged).
once native "$tmp/warm-native"
once vast-fill "$tmp/warm" VAST_MODE=paged
entries=$(find "$tmp/warm/vastcc" -name '*.vc' | wc -l)
[ "$entries" -gt 0 ] || die "the vastcc build filled no cache: it did not compile at clBuildProgram"
rm -f "$tmp"/*.s
for i in $(seq "$REPS"); do
	once native "$tmp/none$i"
	once vast-cold "$tmp/cold$i"
	once vast-warm "$tmp/warm"
done
native=$(col native 1) cold=$(col vast-cold 1) warm=$(col vast-warm 1)
{
	echo "jit-build many: $nprog programs built and launched in one process ($(basename "$LIST")), median of $REPS processes"
	printf '%-7s %8s %8s %8s\n' "" "run_s" "build_s" "launch_s"
	for s in native vast-cold vast-warm; do
		printf '%-7s %8.3f %8.3f %8.3f\n' "${s#vast-}" "$(col $s 1)" "$(col $s 2)" "$(col $s 3)"
	done
	echo "cold/native $(ratio "$cold" "$native")  (goal <= 4.00)"
	echo "warm/native $(ratio "$warm" "$native")  (goal <= 1.20; the cache held $entries entries)"
} | tee "$OUT/many.txt"
