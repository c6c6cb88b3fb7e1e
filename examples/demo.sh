#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# demo.sh - vastcc's main job in one run: an unmodified OpenCL program whose
# data is four times the device budget gives exactly the native result.
#
#   VAST_BUILD=build bash examples/demo.sh [M [N [K]]]
#
# Builds examples/matmul with cc and with vastcc (from the existing build
# tree ${VAST_BUILD:-build}; this script does not build vastcc), runs the
# native program, then the vastcc program on the default device with
# VAST_DEVICE_MEM set to a quarter of the matrices' bytes and VAST_STATS=kv,
# and compares the two results byte for byte.
set -u
src=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$src/.." && pwd)
build=${VAST_BUILD:-$root/build}
case $build in /*) ;; *) build=$PWD/$build ;; esac
vastcc=$build/bin/vastcc
die() { echo "demo: $*" >&2; exit 1; }
[ -x "$vastcc" ] || die "$vastcc not found: build first (cmake -S . -B build && cmake --build build)"

M=${1:-16384} N=${2:-256} K=${3:-256}
data=$(( (M * K + K * N + M * N) * 4 ))
budget_k=$(( data / 4 / 1024 ))

work=$build/demo
rm -rf "$work" && mkdir -p "$work/native" "$work/vast" || die "cannot create $work"
for d in native vast; do
	cp -r "$src/matmul" "$work/$d/matmul" && cp -r "$src/common" "$work/$d/common" &&
		rm -f "$work/$d/matmul/matmul" "$work/$d/matmul/matmul.o" || die "cannot copy the example"
done

echo "== building examples/matmul with cc and with vastcc"
make -C "$work/native/matmul" CC="${VAST_CC:-cc}" >"$work/native.build.log" 2>&1 ||
	{ cat "$work/native.build.log"; die "native build failed"; }
make -C "$work/vast/matmul" CC="$vastcc" >"$work/vast.build.log" 2>&1 ||
	{ cat "$work/vast.build.log"; die "vastcc build failed"; }

unset VAST_DEVICE_MEM VAST_MODE VAST_STATS
echo "== native run: C = A * B, A ${M}x${K}, B ${K}x${N}: $((data / 1048576)) MiB of matrices"
"$work/native/matmul/matmul" -o "$work/native.out" "$M" "$N" "$K" ||
	die "the native run failed"

echo "== vastcc run: VAST_DEVICE_MEM=${budget_k}K (a quarter of the data) VAST_STATS=kv"
VAST_DEVICE_MEM=${budget_k}K VAST_STATS=kv \
	"$work/vast/matmul/matmul" -o "$work/vast.out" "$M" "$N" "$K" 2>"$work/vast.err"
rc=$?
cat "$work/vast.err" >&2
[ $rc -eq 0 ] || die "the vastcc run failed (exit status $rc)"
line=$(grep '^vast: kernel matmul ' "$work/vast.err" | tail -n 1)
[ -n "$line" ] || die "no VAST_STATS line for kernel 'matmul'"
ranges=$(echo "$line" | sed -n 's/.* ranges=\([0-9][0-9]*\).*/\1/p')
[ "${ranges:-0}" -ge 2 ] || die "kernel 'matmul' was not paged (ranges=${ranges:-?})"

bytes=$(stat -c %s "$work/native.out")
if cmp -s "$work/native.out" "$work/vast.out"; then
	echo "result: identical to the native run ($bytes bytes)"
else
	cmp "$work/native.out" "$work/vast.out"
	die "result: DIFFERS from the native run"
fi
