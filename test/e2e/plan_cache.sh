#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The plan cache (runtime/plan/plans.c, issue 10 item 1): examples/iterate runs
# 50 rounds of two kernels on two buffers swapped each round, the host
# reading and rewriting (and once mapping) the grid between them, then an
# indirect gather 5 times whose index buffer the host rewrites before the
# 3rd (a write) and the 4th (a map). At half and a quarter of each
# launch's data, and with one frame set, its output must equal the native
# run's byte for byte, every kernel must be paged (ranges >= 2), and:
#   jacobi         inspected: plans twice (one plan per buffer order),
#                  then hits: plan_hits = launches - 2, whatever the host
#                  wrote;
#   relax          planned from its descriptors, whose plan depends on the
#                  buffers' sizes, not which they are: plans once,
#                  plan_hits = launches - 1;
#   gather         plans again only when its index buffer changed:
#                  plan_hits = launches - 1 - 2; and its 2nd and 5th
#                  launches, the same plan as the launch just before,
#                  make no device buffer: the frame sets are kept
#                  (runtime/mem/framepool.c; a line at VAST_LOG=info).
# The last run asks for 4 KiB pages in 16 KiB device buffers: jacobi's
# plan falls back to 256-byte pages, and a launch that reuses it must lay
# its frames out by those (it failed, CL_OUT_OF_RESOURCES, when it took
# the frames a buffer holds from the 4 KiB pages first tried).
#   VAST_BUILD=build bash test/e2e/plan_cache.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "plan_cache: FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-plans.XXXXXX") || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS
args=(256 256 50)
VAST_E2E_BUILD_ONLY=$tmp bash "$here/diff.sh" iterate >/dev/null 2>&1 || fail "building iterate failed"
"$tmp/native/iterate/iterate" -q -o "$tmp/native.out" "${args[@]}" >/dev/null 2>&1 ||
	fail "the native run failed"
field() { echo "$1" | sed -E "s/.* $2=([0-9]+).*/\\1/"; }
for run in "VAST_DEVICE_MEM=50%" "VAST_DEVICE_MEM=25%" "VAST_DEVICE_MEM=25% VAST_PIPELINE=1" \
	"VAST_DEVICE_MEM=25% VAST_PIPELINE=4 VAST_PAGE_SIZE=4K VAST_MAX_ALLOC=16K"; do
	log=$tmp/log
	env $run VAST_STATS=kv VAST_LOG=debug "$tmp/vast/iterate/iterate" -q -o "$tmp/vast.out" "${args[@]}" \
		>"$log" 2>&1 || { cat "$log" >&2; fail "$run: the run failed"; }
	cmp -s "$tmp/native.out" "$tmp/vast.out" || fail "$run: output differs from the native run"
	for k in jacobi relax gather; do
		line=$(grep "^vast: kernel $k " "$log") || { cat "$log" >&2; fail "$run: no stats for $k"; }
		launches=$(field "$line" launches)
		ranges=$(field "$line" ranges)
		hits=$(field "$line" plan_hits)
		case $k in
		gather) want=$((launches - 3)) ;;
		relax) want=$((launches - 1)) ;;
		*) want=$((launches - 2)) ;;
		esac
		[ "$ranges" -ge $((2 * launches)) ] || fail "$run: $k not paged in every launch ($line)"
		[ "$hits" = "$want" ] || fail "$run: $k: plan_hits=$hits, want $want ($line)"
	done
	kept=$(grep -c "kernel 'gather': every frame buffer kept from an earlier launch" "$log")
	[ "$kept" -ge 2 ] || fail "$run: gather kept its frame sets $kept times, want >= 2"
	echo "plan_cache: $run: identical; $(grep -c '^vast: kernel' "$log") kernels hit as expected"
done
echo "plan_cache: PASS"
