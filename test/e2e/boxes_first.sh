#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A launch whose buffers go in as strided boxes (fdtd3d: a tile of rows
# in each of its 128 planes) chooses them on the first range a plan
# would cut (paged.c, boxes_first), then plans its ranges once, with the
# boxes: not first a whole plan in pages that the boxes replace (fdtd3d
# planned three times before its first transfer on the H200). One launch
# at a quarter and a fifth of the data: one plan that made ranges
# (VAST_TRACE "plan" events with ranges), the output the native one.
#   VAST_BUILD=build bash test/e2e/boxes_first.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "boxes_first: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-boxes-first.XXXXXX") || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS VAST_RESIDENT
args="96 64 128 1"
VAST_E2E_BUILD_ONLY=$tmp bash "$here/diff.sh" fdtd3d >/dev/null 2>&1 || fail "building fdtd3d failed"
"$tmp/native/fdtd3d/fdtd3d" -q -o "$tmp/native.out" $args >/dev/null 2>&1 ||
	fail "the native run failed"
for mem in 25% 20%; do
	rm -f "$tmp/trace.json"
	VAST_DEVICE_MEM=$mem VAST_LOG=debug VAST_TRACE="$tmp/trace.json" \
		"$tmp/vast/fdtd3d/fdtd3d" -q -o "$tmp/vast.out" $args >"$tmp/log" 2>&1 ||
		{ tail -5 "$tmp/log" >&2; fail "$mem: the run failed"; }
	cmp -s "$tmp/native.out" "$tmp/vast.out" || fail "$mem: output differs from the native run"
	grep -q "kernel 'fdtd3d': 2 buffers go in as strided boxes, .* in the first range" "$tmp/log" ||
		fail "$mem: the boxes were not chosen on the first range"
	plans=$(grep -o '"name":"plan",[^}]*"range":-1,[^}]*"ranges":[1-9]' "$tmp/trace.json" | wc -l)
	[ "$plans" = 1 ] || fail "$mem: the launch planned its ranges $plans times, want once"
	echo "boxes_first: $mem: boxes chosen on the first range, ranges planned once"
done
