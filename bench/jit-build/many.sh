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
NAME="jit-build many"
. "$(dirname "$0")/common.sh"
LIST=
script_option() {
	case $1 in
	--list) LIST=$2; return 2 ;;
	esac
	return 0
}
parse_options "$@"
prepare_run

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
col() { awk -v c="$2" '{ print $c }' "$tmp/$1.s" | median; }

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
