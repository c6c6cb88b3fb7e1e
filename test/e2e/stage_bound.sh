#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Staging never holds a second copy of a large buffer (runtime/paged/move.c,
# choose_direct): a frame set's staging stays within the largest device
# buffer (here VAST_MAX_ALLOC=256K) and 512 MiB, and a slot that would pass
# that moves straight between its host copy and the frames even when the
# host copy is pageable (VAST_PINNED=0). vadd's three 4 MiB buffers at half
# their size: each slot's share of a set is over 256K, so every slot moves
# unstaged, and the output stays the native bytes.
#   VAST_BUILD=build bash test/e2e/stage_bound.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "stage_bound: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-stage.XXXXXX") || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED

name=vadd
VAST_E2E_BUILD_ONLY=$tmp bash "$here/diff.sh" "$name" >/dev/null 2>&1 || fail "building $name failed"
"$tmp/native/$name/$name" -q -o "$tmp/native.out" >/dev/null 2>&1 || fail "the native run failed"
VAST_LOG=debug VAST_PINNED=0 VAST_DEVICE_MEM=50% VAST_MAX_ALLOC=256K \
	"$tmp/vast/$name/$name" -q -o "$tmp/vast.out" >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log" >&2; fail "the run failed"; }
cmp -s "$tmp/native.out" "$tmp/vast.out" || fail "output differs from the native run"
n=$(grep -c "moves unstaged, from pageable memory" "$tmp/log")
[ "$n" -eq 3 ] || { cat "$tmp/log" >&2; fail "$n of 3 slots moved unstaged"; }
echo "stage_bound: $name: identical; 3 pageable slots moved unstaged"
