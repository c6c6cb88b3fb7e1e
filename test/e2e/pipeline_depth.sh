#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The default pipeline depth (runtime/paged/planner.c, resends_too_much): a
# launch whose smaller ranges would send its shared pages again (fdtd3d's halo
# planes, of a written slot or, with no pages kept on the device, of any)
# runs with one frame set; one whose ranges share nothing (vadd), or only
# pages of read-only slots (taken from the range before: share_reads),
# keeps three; an explicit VAST_PIPELINE is used as given. Outputs stay
# the native bytes either way.
#   VAST_BUILD=build bash test/e2e/pipeline_depth.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "pipeline_depth: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-depth.XXXXXX") || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE VAST_RESIDENT

sets() { # NAME ARGS ENV...: the frame sets of its paged launch
	local name=$1 args=$2
	shift 2
	env VAST_LOG=info "$@" "$tmp/vast/$name/$name" -q -o "$tmp/$name.vast" $args \
		>"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; fail "$name $*: failed"; }
	cmp -s "$tmp/$name.vast" "$tmp/$name.native" || fail "$name $*: output differs from the native run"
	sed -n 's/.* ranges, \([0-9]*\) frame sets.*/\1/p' "$tmp/log" | head -n 1
}
check() { # NAME ARGS WANT ENV...
	local name=$1 args=$2 want=$3
	shift 3
	VAST_E2E_BUILD_ONLY=$tmp bash "$here/diff.sh" "$name" >/dev/null 2>&1 ||
		fail "building $name failed"
	"$tmp/native/$name/$name" -q -o "$tmp/$name.native" $args >/dev/null 2>&1 ||
		fail "$name: the native run failed"
	local got
	got=$(sets "$name" "$args" "$@")
	if [ "$want" = several ]; then
		[ "${got:-0}" -gt 1 ] || fail "$name $*: $got frame sets, want several"
	else
		[ "$got" = "$want" ] || fail "$name $*: $got frame sets, want $want"
	fi
	echo "pipeline_depth: $name $*: $got frame sets"
}
check fdtd3d "256 256 32 1" 1 VAST_DEVICE_MEM=25%
check fdtd3d "256 256 32 1" several VAST_DEVICE_MEM=25% VAST_PIPELINE=3
check fdtd3d "1024 256 16 1" 3 VAST_DEVICE_MEM=25%
check fdtd3d "1024 256 16 1" 1 VAST_DEVICE_MEM=25% VAST_RESIDENT=0
check vadd "1048576" 3 VAST_DEVICE_MEM=10%
