#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# splitpaths.sh VASTCC: the paths that take a buffer's bytes from where
# split launches on resident shares left them (docs/multi.md, "Resident
# shares"), one scenario of splitpaths/host.c each (its comment says
# what it pins), on PoCL's two CPU devices: the output must equal the cc
# build's byte for byte, and the scenario's splits must have run on
# resident shares (VAST_LOG=debug), else it pinned nothing.
set -u
vastcc=$1
src=$(cd "$(dirname "$0")" && pwd)/splitpaths
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-splitpaths.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS VAST_RESIDENT \
	VAST_STRAIGHT VAST_DEVICES
export VAST_CACHE_DIR=$tmp/cache
fail() { echo "splitpaths: FAIL: $*" >&2; exit 1; }
cp "$src"/* "$src/../../rt/rt_host.h" "$tmp/" && cd "$tmp" || exit 1
cc -O1 -w -o plain host.c -lOpenCL || fail "cc"
"$vastcc" -O1 -w -o app host.c splitpaths.cl runtable.cl || fail "vastcc"
# scenario NAME ENV... -- KERNEL...: runs it; each KERNEL must have
# split on resident shares, each !KERNEL split, never on resident shares.
scenario() {
	local name=$1
	shift
	local env=()
	while [ "$1" != -- ]; do env+=("$1"); shift; done
	shift
	POCL_DEVICES="pthread pthread" ./plain "$name" ref.bin || fail "$name: the native run failed"
	env POCL_DEVICES="pthread pthread" VAST_DEVICES=all VAST_LOG=debug "${env[@]}" \
		./app "$name" out.bin >log 2>&1 || { tail -5 log; fail "$name: the run failed"; }
	for k in "$@"; do
		case $k in
		!*)
			grep -q "kernel '${k#!}': split over 2 devices" log &&
				! grep -q "kernel '${k#!}': split over.*resident" log ||
				{ grep -v debug log; fail "$name: kernel '${k#!}' did not split, or split on resident shares"; } ;;
		*)
			grep -q "kernel '$k': split over 2 devices.*resident" log ||
				{ grep -v debug log; fail "$name: kernel '$k' did not split on resident shares"; } ;;
		esac
	done
	cmp -s ref.bin out.bin || { grep -v debug log; fail "$name: the output differs from the cc build's"; }
	# No device holds more than its budget once a split's windows are
	# placed.
	sed -n 's/.* holds \([0-9]*\) bytes of it and other buffers, budget \([0-9]*\)$/\1 \2/p' log |
		awk '$1 > $2 { bad = 1 } END { exit bad }' ||
		fail "$name: a device holds more than its budget"
	echo "splitpaths: $name: ok"
}
# Budgets of 160 KiB: y's device copy (64 KiB) and twice's and axpb's
# windows fit, with y's replicas written home on both devices first.
scenario stale VAST_PINNED=0 VAST_DEVICE_MEM=160K -- inc twice axpb
scenario poke VAST_PINNED=0 VAST_DEVICE_MEM=160K -- inc twice axpb
# Budgets of 80 KiB: each window of y and a fits, their union on the
# second device (inc's window and dec's) does not.
scenario grow VAST_DEVICE_MEM=80K -- inc dec
scenario runtable -- inc addh
scenario twoctx -- inc dec
# dec's window on its own device, inside the replica inc left there in a
# runtime context, is placed anew in the program's: y's and a's windows
# of that replica written home (each [32768, 65536) and the room a new
# replica has before it: 32 KiB / 64 rounded up to a 4 KiB page).
[ "$(grep -c "window \[28672, 65536) kept on a split launch's device" log)" = 2 ] ||
	{ grep -v debug log; fail "twoctx: a replica of another context was kept"; }
# Budgets of 100 KiB: w's device copy on the second device (64 KiB) needs
# the room of the replicas there (64 KiB), those of y's and a's second
# halves, never the first device's.
scenario tworoom VAST_DEVICE_MEM=100K -- inc
[ "$(grep -c "window \[28672, 65536) kept on a split launch's device" log)" = 2 ] &&
	! grep -q "window \[0, 36864) kept on a split launch's device" log ||
	{ grep -v debug log; fail "tworoom: room made on another device than the native launch's"; }
scenario uhpwrite -- inc
# Each device's window of flip is the half of y the other one's scale
# wrote: it crosses between the two contexts through the pinned relay
# (runtime/host/ring.c), both ways, each more than 16 MiB (below that the
# driver's own transfers move it) in more pieces than the relay has
# chunks, the last one short.
scenario relay -- scale flip
sed -n 's/.*relay: \([0-9]*\) bytes between two contexts, \([0-9]*\) pieces through \([0-9]*\) pinned chunks of \([0-9]*\) bytes$/\1 \2 \3 \4/p' log |
	awk '$1 > 16 * 1048576 && $2 > $3 && $1 % $4 { moved++ } END { exit moved < 2 }' ||
	{ grep relay log; fail "relay: want both halves of y moved between the contexts through the pinned relay"; }
# VAST_MODE=paged pages every buffer, keeps none whole on a device
# (docs/runtime.md): a split's shares are paged launches.
scenario once VAST_MODE=paged -- '!axpb'
# VAST_FOOTPRINTS=check refuses a launch whose descriptors miss a page
# the inspector marks (README.md): resident shares, planned from the
# descriptors alone, are not checked, so the shares are paged launches.
scenario once VAST_FOOTPRINTS=check -- '!axpb'
echo "splitpaths: ok"
