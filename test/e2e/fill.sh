#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Ranges wide enough to fill the device (runtime/plan/fill.c), on PoCL with
# its compute units faked by VAST_UNITS: blackscholes (streaming) at 10%:
# ranges of three frame sets that cannot fill 64 units plan with one set,
# whose ranges are wider; with the device's own 2 units, three sets.
# Every output is the native run's, byte for byte.
#   VAST_BUILD=build bash test/e2e/fill.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "fill: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-fill.XXXXXX") || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE VAST_UNITS \
	VAST_PLAN_DUMP VAST_RESIDENT

build() { # NAME ARGS: both builds, and the native output
	VAST_E2E_BUILD_ONLY=$tmp bash "$here/diff.sh" "$1" >/dev/null 2>&1 || fail "building $1 failed"
	"$tmp/native/$1/$1" -q -o "$tmp/$1.native" $2 >/dev/null 2>&1 || fail "$1: the native run failed"
}
run() { # NAME ARGS ENV...: the vastcc build, its log in $tmp/log
	local name=$1 args=$2
	shift 2
	env VAST_LOG=info "$@" "$tmp/vast/$name/$name" -q -o "$tmp/$name.vast" $args \
		>"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; fail "$name $*: failed"; }
	cmp -s "$tmp/$name.vast" "$tmp/$name.native" || fail "$name $*: output differs from the native run"
}

# nbody, 8192 bodies: 32 groups of 256; a group's velocities are one 4 KiB
# page of slot 2, so a range's pages of slot 2 are its groups.
sets() { sed -n 's/.* ranges, \([0-9]*\) frame sets.*/\1/p' "$tmp/log" | head -n 1; }
build blackscholes 65536
run blackscholes 65536 VAST_DEVICE_MEM=10%
[ "$(sets)" = 3 ] || fail "blackscholes on 2 units: $(sets) frame sets, want 3"
run blackscholes 65536 VAST_DEVICE_MEM=10% VAST_UNITS=64
[ "$(sets)" = 1 ] || fail "blackscholes on 64 units: $(sets) frame sets, want 1"
echo "fill: blackscholes: 3 frame sets on 2 units, 1 on 64"
