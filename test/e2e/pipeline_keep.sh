#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The kernels of an iterative pipeline keep one plan each and one
# another's frames (issue 10, items 1 and 4): fdtd2d runs fdtd_ey, fdtd_ex
# and fdtd_hz each step, 4 MiB arrays under a 3 MiB budget (fixed, so
# the three plan alike: a percentage would give each its own).
#   - fdtd_ey reads hz[(y - 1) * w + x] in the second branch of
#     `y == 0 ? source : ...`: the guard y - 1 >= 0 folds in, so it is
#     planned from descriptors (fp_plans > 0; before, a superset reaching
#     before the buffer sent every launch to the inspector), and its
#     plan is kept under the scalars the descriptors name, not `source`,
#     which changes every step: plan_hits = launches - 1 (before, 0);
#   - a set of one frame buffer takes all the room of its share, so
#     fdtd_hz, whose plan needs less than fdtd_ex's, keeps ex's buffers
#     and their pages: `every frame buffer kept` for every kernel (before,
#     never for fdtd_hz, and fdtd_ey's after it), and pages taken from
#     kept frames (h2d_saved > 0) for each.
# (Unfused, VAST_FUSE=0: fdtd_hz reads the 4 MiB ex that fdtd_ex writes,
# more than the budget, so the pair would run fused, planned anew at every
# launch; e2e/fuse.) The output must equal the native run's byte for byte. And the room of
# a share is capped at the launch's own pages: examples/repeat paged on a
# budget far above its 2 MiB (VAST_MODE=paged) gets frame sets of what
# its plan needs, not of the budget (256 MiB here, gigabytes by default).
#   VAST_BUILD=build bash test/e2e/pipeline_keep.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "pipeline_keep: FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-keep.XXXXXX") || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS VAST_RESIDENT

stat() { echo "$1" | sed -E "s/.* $2=([0-9]+).*/\\1/"; }

VAST_E2E_BUILD_ONLY=$tmp/f bash "$here/diff.sh" fdtd2d >/dev/null 2>&1 || fail "building fdtd2d failed"
args=(1024 1024 4)
"$tmp/f/native/fdtd2d/fdtd2d" -q -o "$tmp/native.out" "${args[@]}" >/dev/null 2>&1 ||
	fail "the native run failed"
VAST_FUSE=0 VAST_DEVICE_MEM=3M VAST_STATS=kv VAST_LOG=debug "$tmp/f/vast/fdtd2d/fdtd2d" -q -o "$tmp/vast.out" \
	"${args[@]}" >"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; fail "the vastcc run failed"; }
cmp -s "$tmp/native.out" "$tmp/vast.out" || fail "output differs from the native run"
for k in fdtd_ey fdtd_ex fdtd_hz; do
	line=$(grep "^vast: kernel $k " "$tmp/log") || fail "no stats for $k"
	launches=$(stat "$line" launches) ranges=$(stat "$line" ranges)
	[ "$ranges" -ge $((2 * launches)) ] || fail "$k not paged in every launch: $line"
	[ "$(stat "$line" fp_plans)" -ge 1 ] || fail "$k not planned from descriptors: $line"
	[ "$(stat "$line" plan_hits)" = $((launches - 1)) ] ||
		fail "$k: plan_hits, want $((launches - 1)): $line"
	[ "$(stat "$line" h2d_saved)" -gt 0 ] || fail "$k took no page from kept frames: $line"
	kept=$(grep -c "kernel '$k': every frame buffer kept from an earlier launch" "$tmp/log")
	[ "$kept" -ge $((launches - 1)) ] ||
		fail "$k kept its frame buffers $kept times, want $((launches - 1))"
	echo "pipeline_keep: $k: $line"
done
VAST_E2E_BUILD_ONLY=$tmp/r bash "$here/diff.sh" repeat >/dev/null 2>&1 || fail "building repeat failed"
VAST_MODE=paged VAST_DEVICE_MEM=256M VAST_LOG=debug "$tmp/r/vast/repeat/repeat" -q 262144 3 >"$tmp/rlog" 2>&1 ||
	{ grep -v "^vast: debug" "$tmp/rlog" >&2; fail "repeat: the paged run failed"; }
sets=$(grep -m1 -o "frame sets of [0-9]* bytes" "$tmp/rlog" | grep -o "[0-9]*") ||
	fail "repeat: no frame set size in the log"
[ "$sets" -le $(((2 << 20) + (1 << 20))) ] ||
	fail "repeat: frame sets of $sets bytes for 2 MiB of buffers"
echo "pipeline_keep: repeat paged: frame sets of $sets bytes"
echo "pipeline_keep: PASS"
