#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench/overhead/run.sh - the host-side cost of one launch (issue 10:
# "cached-plan launch overhead <= 50 us", time per launch minus kernel
# and transfer time), measured directly on examples/repeat, a program
# that repeats one small launch.
#
#   bench/overhead/run.sh [--n N] [--launches L] [--reps R] [--bw-size SIZE]
#       [--vastcc PATH] [--out DIR] [--no-build] [--build-only]
#
# Modes (N floats in, N out; default N 256K, 1 MiB a buffer):
#   native    the cc build on the plain driver: the floor (its kernels
#             timed by their events, REPEAT_PROFILE=1);
#   resident  the vastcc build, no budget: the runtime's native path;
#   paged     the vastcc build, VAST_MODE=paged: a cached plan
#             (plan_hits) and `in` kept on the device (h2d_saved);
#   oversub   the vastcc build, VAST_DEVICE_MEM 3/4 of the data:
#             several ranges a launch, pages sent again;
#   many      the vastcc build, VAST_DEVICE_MEM 1/8 of the data: many
#             small ranges a launch (30 on PoCL), where the host's work
#             per range, not per launch, is what counts.
#   resident-sync, paged-sync  resident and paged with VAST_OVERLAP=0:
#             each launch ends before the next one runs (the ratio of
#             overheads is what overlapping a launch's end saves).
# Each round (--reps, default 3; the modes alternate) runs each mode
# twice, with L and 2L timed launches (default 1000), so
# the first launch (planning, first transfers) and the process's set-up
# cancel: over the L extra launches, with wall the program's time,
# kernel the kernels' own time (the events' on the plain driver,
# VAST_STATS=kv2 kernel_ms under the runtime) and xfer the bytes moved
# (VAST_STATS h2d + d2h) over the pinned bandwidth of bench/bw.c:
#   overhead_us  (wall - kernel - xfer) / L: the host-side time per
#                launch when nothing overlaps; a lower bound when
#                transfers overlap kernels (pipelined ranges);
#   overlap_us   (wall - max(kernel, xfer)) / L: the upper bound, were
#                kernels and transfers to overlap perfectly;
#   range_us     overhead_us / ranges a launch, for the modes that run
#                ranges (paged, oversub, many): the host's work per range
#                (target <= 30 on the GPU).
# Each mode reports its round of median wall time (the walls of all
# rounds follow: launches of a few us swing 2-3x between runs on the
# H100). The target is paged's overhead_us <= 50 on the GPU. Outputs of every
# mode are compared with native's byte for byte. Writes DIR/summary.txt
# (default bench/out/overhead) and the logs beside it. --no-build runs
# what DIR/build holds (build here, run on the GPU box); --build-only
# stops after building. On PoCL, --bw-size 64M keeps the probe short.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
N=262144 LAUNCHES=1000 REPS=3 BWSIZE=1G BUILD=1 RUN=1
VASTCC=${VASTCC:-$ROOT/build/bin/vastcc}
OUT=$ROOT/bench/out/overhead
die() { echo "overhead: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
	case $1 in
	--n) N=$2; shift ;;
	--launches) LAUNCHES=$2; shift ;;
	--reps) REPS=$2; shift ;;
	--bw-size) BWSIZE=$2; shift ;;
	--vastcc) VASTCC=$2; shift ;;
	--out) OUT=$2; shift ;;
	--no-build) BUILD=0 ;;
	--build-only) RUN=0 ;;
	-h | --help) sed -n '3,41p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument '$1'" ;;
	esac
	shift
done
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG
B=$OUT/build
mkdir -p "$B" || die "cannot make $OUT"

if [ $BUILD = 1 ]; then
	[ -x "$VASTCC" ] || die "no vastcc at $VASTCC (build the vastcc target, or --vastcc)"
	VAST_BUILD=$(dirname "$(dirname "$VASTCC")") VAST_E2E_BUILD_ONLY=$B \
		bash "$ROOT/test/e2e/diff.sh" repeat >/dev/null || die "building examples/repeat failed"
	cc -O2 -Wall -Wextra -I"$ROOT/examples/common" -o "$B/bw" "$ROOT/bench/bw.c" -lOpenCL -lm ||
		die "building bench/bw.c failed"
fi
[ $RUN = 1 ] || { echo "overhead: built under $B"; exit 0; }

"$B/bw" "$BWSIZE" >"$OUT/bw.log" 2>&1 || { cat "$OUT/bw.log" >&2; die "bw failed"; }
bw=$(awk '/^bw: mode=pinned/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	s += v["gbps"]; n++ } END { if (n) printf "%.3f", s / n }' "$OUT/bw.log")
[ -n "$bw" ] || die "no pinned bandwidth in $OUT/bw.log"

data=$((2 * N * 4))
run_mode() { # mode, rep: two runs, L and 2L launches
	local mode=$1 r=$2 exe=$B/vast/repeat/repeat
	local -a env=(VAST_STATS=kv2)
	case $mode in
	native) exe=$B/native/repeat/repeat env=(REPEAT_PROFILE=1) ;;
	resident) ;;
	paged) env+=(VAST_MODE=paged) ;;
	resident-sync) env+=(VAST_OVERLAP=0) ;;
	paged-sync) env+=(VAST_MODE=paged VAST_OVERLAP=0) ;;
	oversub) env+=(VAST_DEVICE_MEM=$((data * 3 / 4))) ;;
	many) env+=(VAST_DEVICE_MEM=$((data / 8))) ;;
	esac
	for l in $LAUNCHES $((2 * LAUNCHES)); do
		env "${env[@]}" "$exe" -o "$OUT/$mode.$l.out" "$N" "$l" >"$OUT/$mode.$l.r$r.log" 2>&1 ||
			{ cat "$OUT/$mode.$l.r$r.log" >&2; die "$mode: the run of $l launches failed"; }
		cmp -s "$OUT/native.$l.out" "$OUT/$mode.$l.out" ||
			die "$mode: its output differs from native's"
	done
}
modes="native resident paged oversub many resident-sync paged-sync"
# The modes alternate, R rounds: a machine's slow spell hits them alike.
for r in $(seq "$REPS"); do
	for m in $modes; do
		run_mode $m $r
	done
done
python3 - "$OUT" "$LAUNCHES" "$bw" "$N" "$REPS" $modes <<'PY' | tee "$OUT/summary.txt"
import re, statistics, sys
out, L, bw, n = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]) * 1e9, int(sys.argv[4])
R, modes = int(sys.argv[5]), sys.argv[6:]
def parse(mode, l, r):
    text = open(f"{out}/{mode}.{l}.r{r}.log").read()
    m = re.search(r"^repeat: .* ms=([\d.]+) event_kernel_ms=([\d.]+)", text, re.M)
    st = {}
    for k in re.finditer(r"^vast: kernel bump (.*)$", text, re.M):
        st = {a: float(b) for a, b in re.findall(r"(\w+)=([\d.]+)", k.group(1))}
    kern = st["kernel_ms"] if st else float(m.group(2))
    xfer = (st.get("h2d", 0) + st.get("d2h", 0)) / bw * 1e3
    return float(m.group(1)), kern, xfer, st
print(f"overhead: n={n} ({8 * n} bytes of buffers) launches={L} bw={bw / 1e9:.2f}GB/s"
      f" (medians of {R} rounds)")
overheads = {}
def one(mode, r):
    w1, k1, x1, s1 = parse(mode, L, r)
    w2, k2, x2, s2 = parse(mode, 2 * L, r)
    return w2 - w1, k2 - k1, x2 - x1, s1, s2
for mode in modes:
    rounds = [one(mode, r) for r in range(1, R + 1)]
    # the round of median wall time, whole (its kernel and bytes with it)
    w, k, x, s1, s2 = sorted(rounds, key=lambda t: t[0])[(R - 1) // 2]
    walls = " ".join(f"{t[0] / L * 1e3:.1f}" for t in rounds)
    per = lambda v: v / L * 1e3
    extra = ""
    if s2:
        d = lambda f: (s2.get(f, 0) - s1.get(f, 0)) / L
        if d('ranges') > 0:
            extra = f" range_us={per(w - k - x) / d('ranges'):.1f}"
        extra += (f" ranges/launch={d('ranges'):.2f} plan_hits/launch={d('plan_hits'):.2f}"
                 f" h2d/launch={d('h2d'):.0f} d2h/launch={d('d2h'):.0f}"
                 f" h2d_saved/launch={d('h2d_saved'):.0f}")
    overheads[mode] = per(w - k - x)
    print(f"  {mode:<13} wall_us={per(w):.1f} kernel_us={per(k):.1f} xfer_us={per(x):.1f}"
          f" overhead_us={per(w - k - x):.1f} overlap_us={per(w - max(k, x)):.1f}{extra}"
          f" (wall_us of each round: {walls})")
print("  (overhead_us: host time per launch, nothing overlapping; target <= 50 for paged on the GPU;"
      " range_us: the same per range, target <= 30)")
for m in ("resident", "paged"):
    if overheads.get(m + "-sync"):
        print(f"  {m}: overhead with overlap / without (VAST_OVERLAP=0) = "
              f"{overheads[m] / overheads[m + '-sync']:.3f}")
PY
[ "${PIPESTATUS[0]}" = 0 ] || die "summary failed"
