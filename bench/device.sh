#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench/device.sh PART - the benchmarks the open issues name, in parts that
# each fit one call of the device tool (10 minutes; a session has 30 of
# device time), so a session with a GPU spends it on measuring, not on
# setting up. Build everything here first:
#
#   bench/device.sh build            # here: every part's binaries under bench/out/
#
# then, on the device machine, one call per part, carrying what `build`
# printed, results under $OUT (default bench/out/device):
#
#   h100-workloads  issues 8, 9: the nine workloads at 4 GiB, modes resident,
#                   vast (1/4 budget), paged, resident-vast, and a VAST_TRACE
#                   of blackscholes (about 4 minutes)
#   h100-native     issue 8 item 5: the native path vs cc (fill at 1 GiB, the
#                   nine workloads at 1 GiB) (about 5 minutes)
#   h100-triad      issue 8 item 8: 96 GiB past the GPU's memory, no cap (about
#                   5 minutes)
#   h100-small      issues 9, 10, 11: rectangular copies, the iterative
#                   programs (FDTD, Jacobi at 2x a 1 GiB budget), the host's
#                   share of a repeated launch (bench/overhead, and a
#                   VAST_TRACE of its paged mode), clBuildProgram time
#                   (about 5 minutes)
#   h100-traces     a VAST_TRACE of every workload at 4 GiB in its vast
#                   configuration (RESULTS=a results.csv of h100-workloads,
#                   default the newest under bench/results), carrying
#                   bench/out/h100 (about 2 minutes)
#   h200-ab         no regression against the tree before a change: bench/ab-all.sh
#                   over A_DIR and B_DIR (default bench/out/ab-A, ab-B, each made
#                   here by `bench/ab-all.sh --build DIR --vastcc ITS_VASTCC`,
#                   A's from a worktree of the old tree), carrying both and
#                   bench/out/lib (about 7 minutes)
#   h200x2-multi    several GPUs, on kind nvidia-h200-x2: one GPU against two,
#                   the nine at 4 GiB (nbody 1M bodies), jacobi2d and the
#                   96 GiB triad fitting two but not one, the two host links
#                   at once (about 6 minutes; ONLY=w,w to split it over calls)
#
# The device machine lacks libcjson (libvastrt needs it): `build` copies it
# into bench/out/lib, which every part puts on LD_LIBRARY_PATH. NVIDIA's
# OpenCL is registered and put ahead of PoCL (programs take platform 0).
set -u
cd "$(dirname "$0")/.."
part=${1:-}
OUT=${OUT:-bench/out/device}

device_env() {
	export OCL_ICD_FILENAMES=libnvidia-opencl.so.1:libpocl.so.2
	[ -w /etc/OpenCL/vendors ] && [ ! -e /etc/OpenCL/vendors/nvidia.icd ] &&
		echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
	export LD_LIBRARY_PATH=$PWD/bench/out/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	mkdir -p "$OUT"
}

case $part in
build)
	set -e
	mkdir -p bench/out/lib
	cp -L "$(ldconfig -p | awk '/libcjson.so.1 / {print $NF; exit}')" bench/out/lib/libcjson.so.1
	bench/run.sh --build-only --out bench/out/h100
	bench/run.sh --build-only --out bench/out/h100-triad --only triad
	bench/native-vs-cc/run.sh --build-only --out bench/out/nvc
	bench/iterative/run.sh --build-only --out bench/out/iterative
	# inside iterative's folder: h100-small carries that one
	bench/overhead/run.sh --build-only --out bench/out/iterative/overhead
	bench/multi/run.sh --build-only --out bench/out/multi
	echo "carry: bench/out/lib and the bench/out/ folder of the part (du -sh: $(du -sh bench/out | cut -f1))"
	;;
h100-workloads)
	device_env
	bench/run.sh --no-build --out bench/out/h100 --size 4G \
		--modes resident,vast,paged,resident-vast --timeout 100
	cp bench/out/h100/results.csv bench/out/h100/summary.txt "$OUT"/
	VAST_DEVICE_MEM=1073741824 VAST_STATS=kv2 VAST_TRACE="$OUT/trace-blackscholes-4G.json" \
		bench/out/h100/build/vast/blackscholes/blackscholes 214748364 > "$OUT/trace-run.log" 2>&1
	;;
h100-native)
	device_env
	bench/native-vs-cc/run.sh --no-build --no-workloads --out bench/out/nvc
	bench/native-vs-cc/run.sh --no-build --no-fill --reps 1 --out bench/out/nvc
	cp -r bench/out/nvc/summary.txt bench/out/nvc/*.csv "$OUT"/
	;;
h100-triad)
	device_env
	VAST_STATS=kv VAST_LOG=info bench/run.sh --no-build --out bench/out/h100-triad --only triad \
		--size 96G --modes resident-vast --timeout 500
	cp bench/out/h100-triad/results.csv "$OUT/triad-results.csv"
	cp -r bench/out/h100-triad/logs "$OUT/triad-logs"
	;;
h100-small)
	device_env
	bash bench/rects/run.sh "$OUT"
	bench/iterative/run.sh --no-build --out bench/out/iterative
	cp bench/out/iterative/summary.txt "$OUT/iterative.txt"
	bench/overhead/run.sh --no-build --out bench/out/iterative/overhead
	cp bench/out/iterative/overhead/summary.txt "$OUT/overhead.txt"
	VAST_MODE=paged VAST_STATS=kv2 VAST_TRACE="$OUT/trace-repeat-paged.json" \
		bench/out/iterative/overhead/build/vast/repeat/repeat 262144 200 \
		> "$OUT/trace-repeat-paged.log" 2>&1
	;;
h100-traces)
	device_env
	csv=${RESULTS:-$(ls -d bench/results/*/h100-workloads/results.csv | tail -1)}
	bench/traces.sh bench/out/h100 "$csv" "$OUT/traces"
	# The device tool brings back a few files only: one archive.
	tar -C "$OUT" -czf "$OUT/traces.tar.gz" traces && rm -r "$OUT/traces"
	;;
h200-ab)
	device_env
	bench/ab-all.sh --out "$OUT/ab-all" "${A_DIR:-bench/out/ab-A}" "${B_DIR:-bench/out/ab-B}"
	;;
h200x2-multi)
	device_env
	# Split with --only (ONLY=w,w) when the lines do not fit one call.
	bench/multi/run.sh --no-build --out bench/out/multi ${ONLY:+--only $ONLY}
	for f in multi.csv summary.txt links.log; do
		[ ! -e "bench/out/multi/$f" ] || cp "bench/out/multi/$f" "$OUT"/
	done
	# The device tool brings back a few files only: the logs as one archive.
	tar -C bench/out/multi -czf "$OUT/logs.tar.gz" logs
	;;
*)
	sed -n '3,39p' "$0" | sed 's/^# \{0,1\}//'
	[ -z "$part" ] || { echo "bench/device.sh: unknown part '$part'" >&2; exit 2; }
	;;
esac
