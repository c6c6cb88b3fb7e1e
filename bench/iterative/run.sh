#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench/iterative/run.sh - iterative programs under oversubscription
# (issue 10, "Benchmarks"): examples/fdtd2d (3 kernels a step) and
# examples/jacobi2d (2 sweeps a step), their data 2x a fixed budget.
#
#   bench/iterative/run.sh [--budget SIZE] [--steps N] [--bw-size SIZE]
#       [--vastcc PATH] [--out DIR] [--no-build] [--build-only]
#
# Per workload, three runs of the vastcc build:
#   resident  no budget (VAST_DEVICE_MEM unset: everything fits, the
#             original kernels run natively): the kernels' own time;
#   paged     VAST_DEVICE_MEM=SIZE (default 1G; data 2x that);
# and the link's bandwidth from bench/bw.c (pinned, mean of h2d and d2h).
# Prints, per workload:
#   overhead_us   per-launch overhead (target <= 50 us), two bounds: with
#                 wall the paged run's time, kernel its kernel_ms, xfer
#                 its bytes / bandwidth, the host's share of a launch
#                 lies between (wall - kernel - xfer) / launches (serial:
#                 exact when nothing overlaps, lower than the truth, even
#                 negative, when ranges pipeline transfers under
#                 kernels) and (wall - max(kernel, xfer)) / launches
#                 (overlap: as if kernels and transfers overlapped
#                 perfectly). bench/overhead measures it directly, on one
#                 launch repeated;
#   bytes/step    h2d + d2h per step, and the compulsory minimum: per
#                 launch of a kernel whose buffers take F bytes and write
#                 W, at least F - B must come in (it cannot all have been
#                 resident) and min(W, F - B) go out (target <= 1.1x);
#                 h2d_saved/step: bytes not sent because the pages were
#                 still on the device from the launch before (already
#                 left out of bytes/step; runtime/mem/residency.c);
#   e2e           paged wall / (resident kernel time + compulsory bytes /
#                 bandwidth) (target <= 1.2x).
# Writes the same to DIR/summary.txt (default bench/out/iterative) and
# the runs' logs beside it. Outputs of the paged runs are compared with
# the resident run's byte for byte: a difference fails the script.
# --no-build runs what DIR/build holds (build here, run on the GPU box,
# as bench/README.md says); --build-only stops after building.
# On PoCL (no GPU) a small --budget, e.g. 4M, shows the script works.
# VAST_RESIDENT=0 in the environment measures without pages kept on the
# device between launches (h2d_saved/step 0), VAST_HOLD=0 without the
# hold (docs/runtime.md), for comparison.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUDGET=1G STEPS=20 BWSIZE=1G BUILD=1 RUN=1
VASTCC=${VASTCC:-$ROOT/build/bin/vastcc}
OUT=$ROOT/bench/out/iterative
die() { echo "iterative: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
	case $1 in
	--budget) BUDGET=$2; shift ;;
	--steps) STEPS=$2; shift ;;
	--bw-size) BWSIZE=$2; shift ;;
	--vastcc) VASTCC=$2; shift ;;
	--out) OUT=$2; shift ;;
	--no-build) BUILD=0 ;;
	--build-only) RUN=0 ;;
	-h | --help) sed -n '3,44p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument '$1'" ;;
	esac
	shift
done
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG
BUILDDIR=$OUT/build
mkdir -p "$OUT" "$BUILDDIR" || die "cannot make $OUT"
bytes=$(python3 -c "
import sys; s=sys.argv[1].upper(); m={'K':1<<10,'M':1<<20,'G':1<<30}
print(int(float(s[:-1])*m[s[-1]]) if s[-1] in m else int(s))" "$BUDGET") || die "bad --budget"

if [ $BUILD = 1 ]; then
	[ -x "$VASTCC" ] || die "no vastcc at $VASTCC (build the vastcc target, or --vastcc)"
	for ex in fdtd2d jacobi2d; do
		VAST_BUILD=$(dirname "$(dirname "$VASTCC")") VAST_E2E_BUILD_ONLY=$BUILDDIR \
			bash "$ROOT/test/e2e/diff.sh" $ex >/dev/null || die "building $ex failed"
	done
	cc -O2 -Wall -Wextra -I"$ROOT/examples/common" -o "$BUILDDIR/bw" "$ROOT/bench/bw.c" \
		-lOpenCL -lm || die "building bench/bw.c failed"
fi
[ $RUN = 1 ] || { echo "iterative: built under $BUILDDIR"; exit 0; }

"$BUILDDIR/bw" "$BWSIZE" >"$OUT/bw.log" 2>&1 || { cat "$OUT/bw.log" >&2; die "bw failed"; }
bw=$(awk '/^bw: mode=pinned/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	s += v["gbps"]; n++ } END { if (n) printf "%.3f", s / n }' "$OUT/bw.log")
[ -n "$bw" ] || die "no pinned bandwidth in $OUT/bw.log"

# workload: its sizes for data = 2 x budget, and its kernels as
# "name:grids read or written:grids written" (a grid is G bytes).
run_one() { # name args kernels...
	local name=$1 args=$2
	shift 2
	local exe=$BUILDDIR/vast/$name/$name log=$OUT/$name
	VAST_STATS=kv2 "$exe" -o "$log.resident.out" $args >"$log.resident.log" 2>&1 ||
		{ cat "$log.resident.log" >&2; die "$name: the resident run failed"; }
	VAST_STATS=kv2 VAST_DEVICE_MEM=$bytes "$exe" -o "$log.paged.out" $args >"$log.paged.log" 2>&1 ||
		{ cat "$log.paged.log" >&2; die "$name: the paged run failed"; }
	cmp -s "$log.resident.out" "$log.paged.out" || die "$name: the paged run's output differs"
	python3 - "$name" "$bytes" "$bw" "$log.resident.log" "$log.paged.log" "$@" <<'PY'
import re, sys
name, budget, bw = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]) * 1e9
def parse(path):
    text = open(path).read()
    prog = re.search(r"^%s: .* steps=(\d+) launches=(\d+) bytes=(\d+) ms=([\d.]+)" % name, text, re.M)
    ks = {}
    for m in re.finditer(r"^vast: kernel (\S+) (.*)$", text, re.M):
        ks[m.group(1)] = {k: float(v) for k, v in re.findall(r"(\w+)=([\d.]+)", m.group(2))}
    return [int(prog.group(i)) for i in (1, 2, 3)] + [float(prog.group(4))], ks
(steps, launches, data, res_ms), res = parse(sys.argv[4])
(_, _, _, wall), pag = parse(sys.argv[5])
ngrids = {"fdtd2d": 3, "jacobi2d": 2}[name]
G = data / ngrids
comp = 0.0
for spec in sys.argv[6:]:
    k, f, w = spec.split(":")
    F, W = int(f) * G, int(w) * G
    per = max(0.0, F - budget) + max(0.0, min(W, F - budget))
    comp += per * pag[k]["launches"] / steps
moved = sum(v["h2d"] + v["d2h"] for v in pag.values())
saved = sum(v.get("h2d_saved", 0) for v in pag.values())
kern_paged = sum(v.get("kernel_ms", 0) for v in pag.values())
kern_res = sum(v.get("kernel_ms", 0) for v in res.values())
xfer_ms = moved / bw * 1e3
serial_us = (wall - kern_paged - xfer_ms) / launches * 1e3
overlap_us = (wall - max(kern_paged, xfer_ms)) / launches * 1e3
bound_ms = kern_res + comp * steps / bw * 1e3
print(f"{name}: data={data} budget={budget} steps={steps} launches={launches} bw={bw/1e9:.2f}GB/s")
print(f"  overhead_us: serial={serial_us:.1f} overlap={overlap_us:.1f} (bounds; target <= 50)"
      f" kernel_ms={kern_paged:.1f} xfer_ms={xfer_ms:.1f}")
print(f"  bytes/step={moved/steps:.0f} compulsory/step={comp:.0f} ratio={moved/steps/comp if comp else float('nan'):.3f} (target <= 1.1) h2d_saved/step={saved/steps:.0f}")
print(f"  e2e_ms={wall:.1f} resident_kernel_ms={kern_res:.1f} bound_ms={bound_ms:.1f} ratio={wall/bound_ms:.3f} (target <= 1.2)")
PY
}

python3 - "$bytes" >"$OUT/sizes" <<'PY'
import math, sys
b = int(sys.argv[1])
side = lambda grids: max(16, int(math.sqrt(2 * b / (4 * grids))) // 16 * 16)
print(side(3), side(2))
PY
read -r nf nj <"$OUT/sizes"
{
	run_one fdtd2d "$nf $nf $STEPS" fdtd_ey:2:1 fdtd_ex:2:1 fdtd_hz:3:1 &&
	run_one jacobi2d "$nj $STEPS" jacobi2d:2:1
} | tee "$OUT/summary.txt"
[ "${PIPESTATUS[0]}" = 0 ] || die "a run failed"
