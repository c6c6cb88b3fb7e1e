#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Buffers a paged launch keeps whole on the device (runtime/paged/keeps.c,
# keep_resident; issue 10, "data one kernel produces and the next
# consumes stays on the device when it fits"): fdtd2d's three kernels
# share hz, which after the first launch stays on the device while the
# others page through what it leaves of the budget. At 384K (its data is
# 768K: every kernel paged) each kernel keeps one buffer whole, and at
# 600K (ey's and ex's launches run natively, hz's is paged beside one of
# their buffers kept on the device, switching paths every launch) hz's
# does. The output is the native one byte for byte, and the link moves
# fewer bytes (h2d + d2h) than with nothing kept (VAST_RESIDENT=0).
# nbody's every work-group reads all positions: at 40% of its data its
# third launch keeps the buffer that leaves them too little room; it pages
# everything instead, with no warning, and its fourth keeps nothing; the
# output is still the native one. spmv-ell's x, read only through the
# column indices, is kept whole from the first launch: no inspector.
#   VAST_BUILD=build bash test/e2e/keep_whole.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "keep_whole: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-whole.XXXXXX") || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS VAST_RESIDENT
args="256 256 20"
VAST_E2E_BUILD_ONLY=$tmp bash "$here/diff.sh" fdtd2d >/dev/null 2>&1 || fail "building fdtd2d failed"
"$tmp/native/fdtd2d/fdtd2d" -q -o "$tmp/native.out" $args >/dev/null 2>&1 ||
	fail "the native run failed"
moved() { # MEM RESIDENT: h2d + d2h of a run whose output is the native one
	env VAST_DEVICE_MEM=$1 VAST_RESIDENT=$2 VAST_STATS=kv VAST_LOG=debug \
		"$tmp/vast/fdtd2d/fdtd2d" -q -o "$tmp/vast.out" $args >"$tmp/log.$2" 2>&1 ||
		{ tail -5 "$tmp/log.$2" >&2; fail "$1 VAST_RESIDENT=$2: the run failed"; }
	cmp -s "$tmp/native.out" "$tmp/vast.out" ||
		fail "$1 VAST_RESIDENT=$2: output differs from the native run"
	sed -n 's/^vast: kernel .* h2d=\([0-9]*\) d2h=\([0-9]*\).*/\1 \2/p' "$tmp/log.$2" |
		awk '{ s += $1 + $2 } END { print s + 0 }'
}
for c in "384K fdtd_ey fdtd_ex fdtd_hz" "600K fdtd_hz"; do
	set -- $c
	mem=$1
	shift
	kept=$(moved "$mem" 1) || exit 1
	for k in "$@"; do
		grep -q "^vast: info: \[[0-9.]*\] kernel '$k': 1 buffers .* kept whole on the device" "$tmp/log.1" ||
			fail "$mem: kernel $k kept no buffer whole"
	done
	alone=$(moved "$mem" 0) || exit 1
	grep -q "kept whole" "$tmp/log.0" && fail "$mem VAST_RESIDENT=0: a buffer kept whole"
	[ "$kept" -lt "$alone" ] || fail "$mem: $kept bytes moved with buffers kept whole, $alone without"
	echo "keep_whole: $mem: identical; $alone bytes moved -> $kept"
done

VAST_E2E_BUILD_ONLY=$tmp bash "$here/diff.sh" nbody >/dev/null 2>&1 || fail "building nbody failed"
"$tmp/native/nbody/nbody" -q -o "$tmp/native.out" 16384 4 >/dev/null 2>&1 ||
	fail "nbody: the native run failed"
VAST_DEVICE_MEM=40% VAST_LOG=debug "$tmp/vast/nbody/nbody" -q -o "$tmp/vast.out" 16384 4 \
	>"$tmp/log" 2>&1 || { tail -5 "$tmp/log" >&2; fail "nbody 40%: the run failed"; }
cmp -s "$tmp/native.out" "$tmp/vast.out" || fail "nbody 40%: output differs from the native run"
[ "$(grep -c "kernel 'nbody': paging every buffer after" "$tmp/log")" = 1 ] ||
	fail "nbody 40%: want one launch paging every buffer after keeping one failed"
grep -q "warning" "$tmp/log" && fail "nbody 40%: a warning: $(grep warning "$tmp/log")"
[ "$(grep -c "kept whole" "$tmp/log")" = 2 ] ||
	fail "nbody 40%: want the second and third launches to keep a buffer whole, no other"
echo "keep_whole: nbody 40%: identical; one launch paged everything after keeping failed"

# spmv-ell reads x through col (x[col[i]]: addresses that are data): at a
# quarter of its data x is kept whole from the first launch on, and the
# launch is planned from the descriptors of the others, with no
# inspector; with nothing kept (VAST_RESIDENT=0) the inspector plans.
VAST_E2E_BUILD_ONLY=$tmp bash "$here/diff.sh" spmv-ell >/dev/null 2>&1 || fail "building spmv-ell failed"
sargs="262144 16"
"$tmp/native/spmv-ell/spmv-ell" -q -o "$tmp/native.out" $sargs >/dev/null 2>&1 ||
	fail "spmv-ell: the native run failed"
for res in 1 0; do
	VAST_DEVICE_MEM=25% VAST_RESIDENT=$res VAST_STATS=kv VAST_LOG=debug \
		"$tmp/vast/spmv-ell/spmv-ell" -q -o "$tmp/vast.out" $sargs >"$tmp/log" 2>&1 ||
		{ tail -5 "$tmp/log" >&2; fail "spmv-ell VAST_RESIDENT=$res: the run failed"; }
	cmp -s "$tmp/native.out" "$tmp/vast.out" ||
		fail "spmv-ell VAST_RESIDENT=$res: output differs from the native run"
	stats=$(grep "^vast: kernel spmv_ell " "$tmp/log")
	if [ $res = 1 ]; then
		grep -q "^vast: info: \[[0-9.]*\] kernel 'spmv_ell': 1 buffers (1048576 bytes) kept whole" "$tmp/log" ||
			fail "spmv-ell: x not kept whole"
		case $stats in *" fp_plans=1 "*" inspect_paged=0 "*) ;;
		*) fail "spmv-ell: planned with an inspector although x is whole: $stats" ;; esac
	else
		case $stats in *" fp_plans=0 "*) ;;
		*) fail "spmv-ell VAST_RESIDENT=0: planned without an inspector: $stats" ;; esac
	fi
done
echo "keep_whole: spmv-ell 25%: x kept whole, no inspector; identical"
