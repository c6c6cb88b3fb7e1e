#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/rects/run.sh [--quick] [OUT]: rects.c on the default device (the
# H100 through NVIDIA's OpenCL, or PoCL with --quick at 16 MiB), results
# in OUT/rects.txt (default bench/out/rects). It decides issue 9 item 3's
# open choice: for rows of W bytes of a strided slot, is one rectangular
# copy from pageable memory (runtime/plan/rects.c, the straight path) faster
# than a gather into pinned staging plus one copy (the staged path), and
# from which W on. On the H100, with the device tool:
#   run: bash bench/rects/run.sh   (after
#        echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
size=256M reps=3
if [ "${1:-}" = --quick ]; then size=16M reps=1; shift; fi
out=${1:-$root/bench/out/rects}
mkdir -p "$out"
cc -O2 -Wall -Wextra -I"$root/examples/common" -o "$out/rects" "$root/bench/rects/rects.c" -lOpenCL
"$out/rects" "$size" "$reps" | tee "$out/rects.txt"
