#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# overlap.sh VASTCC: a launch's end overlaps the next command (queue.c,
# tail.c). overlap/host.c queues STEPS launches of a smoothing step, each
# reading what the one before wrote, behind a user event, so they are all
# queued when the first runs: natively (the data fits), paged in one range
# (VAST_MODE=paged: lazy, deferred), in three (each its own frame set:
# all deferred) and in many (a small budget: nothing deferred), the bytes of the cc build each time, and every launch but the
# last still in flight when the next ran (VAST_STATS overlapped), where it
# may be. Then two launches, the second beside the first, with
# VAST_FAIL_RANGE making a range read as faulted: the launch it belongs to
# is refused; one that ran beside it fails too (it may have read what the
# first wrote), one that did not (many ranges) does not; the buffers they
# write are refused until rewritten. The paged run's VAST_TRACE is valid
# (test/tools/check_trace.py).
set -u
vastcc=$1
src=$(cd "$(dirname "$0")" && pwd)/overlap
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-overlap.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_FAIL_RANGE VAST_LOG VAST_PINNED VAST_FOOTPRINTS
cp "$src"/* "$src/../../rt/rt_host.h" "$tmp/" && cd "$tmp" || exit 1
cc -O1 -w -o plain host.c -lOpenCL || { echo "FAIL: cc"; exit 1; }
"$vastcc" -O1 -w -o app host.c overlap.cl || { echo "FAIL: vastcc"; exit 1; }

steps=12
./plain smooth $steps ref.bin || { echo "FAIL: the native run failed"; exit 1; }
chain() { # name, overlapped wanted, env...
	local name=$1 want=$2
	shift 2
	rm -f out.bin
	if ! env "$@" VAST_STATS=kv ./app smooth $steps out.bin >log 2>&1; then
		echo "FAIL: $name: exit status"; cat log; fail=1; return
	fi
	local o
	o=$(sed -n 's/^vast: kernel smooth .* overlapped=\([0-9]*\).*/\1/p' log)
	if ! cmp -s ref.bin out.bin; then
		echo "FAIL: $name: output differs from the native run"; fail=1
	elif [ "$o" != "$want" ]; then
		echo "FAIL: $name: overlapped='$o', want $want"; cat log; fail=1
	else
		echo "ok: $name: identical, overlapped=$o"
	fi
}
chain native $((steps - 1))
chain paged $((steps - 1)) VAST_MODE=paged
# Three ranges a launch, one frame set each: all three left in flight,
# their shared written pages forwarded between sets, the next launch's
# pages sent into the same sets.
chain "paged, 3 ranges" $((steps - 1)) VAST_MODE=paged VAST_DEVICE_MEM=1M
r=$(sed -n 's/^vast: kernel smooth .* ranges=\([0-9]*\).*/\1/p' log)
[ "$r" = $((3 * steps)) ] || { echo "FAIL: paged, 3 ranges: ranges=$r, want $((3 * steps))"; fail=1; }
chain ranges 0 VAST_DEVICE_MEM=128K
# The trace of launches left in flight: each range's phases, its fault
# check (scatter) in the next command's complete.
if ! VAST_MODE=paged VAST_TRACE=trace.json ./app smooth $steps out.bin >log 2>&1 ||
	! python3 "$src/../../tools/check_trace.py" trace.json >>log 2>&1; then
	echo "FAIL: paged trace"; cat log; fail=1
elif grep -q '"name":"D2H"' trace.json; then
	# Straight ranges whose written pages stay on the device read nothing
	# back, not even the fault word their kernel never writes (paged.c).
	echo "FAIL: paged trace: a D2H where nothing comes back"; fail=1
else
	echo "ok: paged trace: no D2H; $(tail -1 log)"
fi

./plain two ref.codes || { echo "FAIL: the native run of two failed"; exit 1; }
two() { # name, codes wanted (wait, status, read b, read c, write b, read b), env...
	local name=$1 want=$2
	shift 2
	env "$@" ./app two out.codes >log 2>&1 || { echo "FAIL: $name: exit status"; cat log; fail=1; return; }
	local got
	got=$(tr '\n' ' ' < out.codes)
	if [ "$got" != "$want" ]; then
		echo "FAIL: $name: codes '$got', want '$want'"; cat log; fail=1
	elif ! grep -q "^vast: warning: kernel 'smooth': range .* touched a page its inspector did not mark; refusing the result$" log; then
		echo "FAIL: $name: no refusal in the log"; cat log; fail=1
	else
		echo "ok: $name: $got"
	fi
}
[ "$(tr '\n' ' ' < ref.codes)" = "0 0 0 0 0 0 " ] || { echo "FAIL: native codes $(cat ref.codes)"; fail=1; }
# -14: CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, -59: CL_INVALID_OPERATION
two "first fails, second beside it" "-14 -14 -14 -14 0 0 " VAST_MODE=paged VAST_FAIL_RANGE=1
two "second fails" "-14 -59 0 -14 0 0 " VAST_MODE=paged VAST_FAIL_RANGE=2
two "first fails, nothing beside it" "0 0 -14 0 0 0 " VAST_DEVICE_MEM=128K VAST_FAIL_RANGE=1
[ $fail = 0 ] && echo "overlap: PASS"
exit $fail
