#!/bin/bash
# SPDX-License-Identifier: MIT
# release.sh PLAIN VAST vadd.cl: host_release built plainly and with the
# runtime, its release not the last reference (kept) and the last (last).
# Each run must finish (a clReleaseCommandQueue that waits for
# the queue's commands waits for ever: they wait for a user event the
# program sets after the release) and write the plain run's bytes, at the
# full budget and paged in several ranges. And (exit) a released queue
# whose commands all still wait when main returns: the run exits 0 and
# its VAST_STATS report, printed once at exit, counts every launch.
set -u
plain=$1 vast=$2 src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# Generous: each run takes well under a second on PoCL.
limit=30
run() { # name, env...
	local name=$1 rc
	shift
	env "$@" VAST_STATS=kv timeout $limit "$vast" "$tmp/$name.bin" "$src" $which \
		2>"$tmp/$name.err"
	rc=$?
	if [ $rc -eq 124 ]; then
		echo "FAIL: $name: still running after ${limit}s (a release waited for the queue?)"
		fail=1; return 1
	fi
	if [ $rc -ne 0 ]; then
		echo "FAIL: $name: exit status $rc"; cat "$tmp/$name.err"; fail=1; return 1
	fi
	if ! cmp "$tmp/ref-$which.bin" "$tmp/$name.bin"; then
		echo "FAIL: $name: output differs from the plain run's"; fail=1; return 1
	fi
	echo "ok: $name"
}
for which in kept last exit; do
	timeout $limit "$plain" "$tmp/ref-$which.bin" "$src" $which ||
		{ echo "FAIL: plain run ($which)"; exit 1; }
	run "$which-auto" VAST_MODE=auto
	if run "$which-paged" VAST_DEVICE_MEM=50%; then
		r=$(sed -n 's/^vast: kernel vadd .* ranges=\([0-9]*\) .*/\1/p' "$tmp/$which-paged.err" |
			tail -n 1)
		if [ -z "$r" ] || [ "$r" -lt 2 ]; then
			echo "FAIL: $which-paged: kernel vadd ranges='$r', want >= 2"; fail=1
		fi
	fi
	[ $which = exit ] || continue
	# Everything was still queued when main returned: the report, printed
	# at exit, comes once and counts every launch only if the runtime
	# waited for the released queue's executor first.
	for mode in auto paged; do
		n=$(grep -c '^vast: kernel vadd ' "$tmp/exit-$mode.err")
		l=$(sed -n 's/^vast: kernel vadd launches=\([0-9]*\) .*/\1/p' "$tmp/exit-$mode.err")
		if [ "$n" != 1 ] || [ "$l" != 20 ]; then
			echo "FAIL: exit-$mode: $n report lines for vadd, launches='$l', want 1 and 20"
			cat "$tmp/exit-$mode.err"; fail=1
		fi
	done
done
exit $fail
