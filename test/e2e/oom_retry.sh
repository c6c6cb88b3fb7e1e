#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A device that runs out of memory below its budget (runtime/paged/paged.c,
# plan_and_make_sets): VAST_FAIL_DEVICE_MEM makes a paged launch's device
# buffers fail at first use past that many bytes, as NVIDIA's lazily
# allocating driver does. The launch must shrink its budget and plan
# again, never fail the program: the output stays the native bytes, the
# log shows the retries, and the smaller budget is remembered for the
# device, so the pipeline example's later launches (smooth, sharpen, ...)
# plan under it at once and never run out.
#   VAST_BUILD=build bash test/e2e/oom_retry.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "oom_retry: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-oom.XXXXXX") || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG

name=pipeline args="1048576 3" # 4 MiB buffers, 6 launches
VAST_E2E_BUILD_ONLY=$tmp bash "$here/diff.sh" "$name" >/dev/null 2>&1 || fail "building $name failed"
"$tmp/native/$name/$name" -q -o "$tmp/native.out" $args >/dev/null 2>&1 ||
	fail "$name: the native run failed"
# Nothing kept whole (VAST_RESIDENT=0): smooth's `a` (read at a[i + 1 < n
# ? i + 1 : i], no descriptor the host evaluates) would be, and the frames
# left beside it stay under the 2M.
VAST_RESIDENT=0 VAST_LOG=debug VAST_STATS=kv VAST_DEVICE_MEM=6M VAST_FAIL_DEVICE_MEM=2M \
	"$tmp/vast/$name/$name" -q -o "$tmp/vast.out" $args >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log" >&2; fail "$name: the run failed under VAST_FAIL_DEVICE_MEM=2M"; }
cmp -s "$tmp/native.out" "$tmp/vast.out" || fail "$name: output differs from the native run"
oom=$(grep -c "the device is out of memory" "$tmp/log")
[ "$oom" -ge 1 ] || { cat "$tmp/log" >&2; fail "no launch ran out of memory: the knob did nothing"; }
# Every retry happens before the first launch's ranges run; later
# launches plan once.
plans=$(grep -c "^vast: info: .* frame sets of [0-9]* buffers" "$tmp/log")
launches=$(grep -E "^vast: kernel " "$tmp/log" | sed -n 's/.* launches=\([0-9]*\).*/\1/p' |
	awk '{ n += $1 } END { print n + 0 }')
[ "$plans" -eq $((launches + oom)) ] ||
	{ cat "$tmp/log" >&2; fail "$plans plans for $launches launches and $oom retries: the smaller budget was not remembered"; }
echo "oom_retry: $name: identical after $oom retries; $launches launches, $plans plans"
