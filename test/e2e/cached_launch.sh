#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A launch repeated with a cached plan and its pages kept on the device
# (issue 10, bench/overhead) sends nothing: examples/repeat under
# VAST_MODE=paged (one range a launch) and under a budget of 3/4 of its
# data (several ranges a launch, pages sent again), each with L and 2L
# launches. Outputs equal the native run's byte for byte; every launch
# after the first reuses the plan (under the budget, after the second:
# from the second on one buffer is kept whole on the device, which the
# plan depends on); and, in paged mode, the L launches
# more send no byte more (h2d equal): `in` is kept, `out` needs no fill,
# and the LPT and the cleared fault word are on the device already
# (runtime/paged/kargs.c, send_lpt_and_fault).
#   VAST_BUILD=build bash test/e2e/cached_launch.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "cached_launch: FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-cached.XXXXXX") || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS VAST_RESIDENT
VAST_E2E_BUILD_ONLY=$tmp bash "$here/diff.sh" repeat >/dev/null 2>&1 || fail "building repeat failed"
field() { # name, log
	sed -n "s/^vast: kernel bump .* $1=\([0-9]*\).*/\1/p" "$2"
}
n=65536 l=20
h2d=()
for mode in VAST_MODE=paged VAST_DEVICE_MEM=$((n * 8 * 3 / 4)); do
	for k in $l $((2 * l)); do
		"$tmp/native/repeat/repeat" -q -o "$tmp/native.out" $n $k >/dev/null 2>&1 ||
			fail "the native run failed"
		env $mode VAST_STATS=kv VAST_LOG=info "$tmp/vast/repeat/repeat" -q -o "$tmp/vast.out" \
			$n $k >"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; fail "$mode $k launches: the run failed"; }
		cmp -s "$tmp/native.out" "$tmp/vast.out" || fail "$mode $k launches: output differs"
		want=$k
		if [ "$mode" != VAST_MODE=paged ]; then
			grep -q "kernel 'bump': 1 buffers .* kept whole on the device" "$tmp/log" ||
				fail "$mode $k launches: no buffer kept whole on the device"
			want=$((k - 1))
		fi
		[ "$(field plan_hits "$tmp/log")" = "$want" ] ||
			fail "$mode $k launches: plan_hits=$(field plan_hits "$tmp/log"), want $want"
		h2d+=("$(field h2d "$tmp/log")")
		echo "cached_launch: $mode $k launches: identical; h2d=${h2d[-1]} ranges=$(field ranges "$tmp/log")"
	done
done
[ "${h2d[0]}" = "${h2d[1]}" ] ||
	fail "VAST_MODE=paged: $l launches more sent $((h2d[1] - h2d[0])) bytes more (want 0)"
echo "cached_launch: PASS"
