#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# bench/fuse.sh DIR [SIZE] [REPS] - fused launches (docs/runtime.md step 6)
# against VAST_FUSE=0, side by side: mersennetwister (its two kernels on
# one buffer) built by bench/run.sh --build-only --out DIR, at SIZE bytes
# (default 4G) and a budget of a quarter of its data, with malloc'd arrays
# and with -m (mapped), alternating fused and not REPS times (default 3).
# Prints one line a run (seconds, GB/s of data, h2d and d2h bytes) and the
# medians.
set -u
DIR=${1:?usage: bench/fuse.sh DIR [SIZE] [REPS]}
SIZE=${2:-4G}
REPS=${3:-3}
bin=$DIR/build/vast/mersennetwister/mersennetwister
[ -x "$bin" ] || { echo "fuse.sh: $bin not built (bench/run.sh --build-only --out $DIR)" >&2; exit 2; }
n=$(( $(numfmt --from=iec "$SIZE") / 4 ))
# Its data: n floats and the generators' parameters (16 bytes per 4096).
data=$(( n * 4 + n / 4096 * 16 ))
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for r in $(seq 1 "$REPS"); do
	for m in "" -m; do
		for f in 1 0; do
			VAST_FUSE=$f VAST_DEVICE_MEM=$((data / 4)) VAST_STATS=kv "$bin" $m "$n" 4096 >"$tmp" 2>&1 ||
				{ cat "$tmp"; echo "fuse.sh: run failed" >&2; exit 1; }
			awk -v f=$f -v m="${m:-copy}" '
				/ seconds=/ { for (i = 1; i <= NF; i++) { split($i, kv, "=")
					if (kv[1] == "seconds") s = kv[2]; if (kv[1] == "bytes") b = kv[2] } }
				/^vast: kernel / { for (i = 1; i <= NF; i++) { split($i, kv, "=")
					if (kv[1] == "h2d") h += kv[2]; if (kv[1] == "d2h") d += kv[2] } }
				END { printf "run %s fuse=%s seconds=%.4f gbps=%.2f h2d=%d d2h=%d\n", m, f, s, b / s / 1e9, h, d }' "$tmp"
		done
	done
done | tee "$tmp.all"
for m in copy -m; do
	for f in 1 0; do
		grep "^run $m fuse=$f " "$tmp.all" | sed 's/.* seconds=\([0-9.]*\).*/\1/' | sort -n |
			awk -v k="$m fuse=$f" '{ v[NR] = $1 } END { printf "median %s seconds=%s\n", k, v[int((NR + 1) / 2)] }'
	done
done
rm -f "$tmp.all"
