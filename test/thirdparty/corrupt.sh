#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# corrupt.sh - tests run.sh itself: with VAST_THIRDPARTY_CORRUPT=1 one byte
# of the route's output is flipped, and run.sh must fail for exactly that
# reason (not, say, because a tool is missing).
here=$(cd "$(dirname "$0")" && pwd)
out=$(VAST_THIRDPARTY_CORRUPT=1 bash "$here/run.sh" scan aot 2>&1)
rc=$?
if [ $rc -eq 0 ]; then
	echo "$out"
	echo "thirdparty/corrupt: FAIL: run.sh accepted a corrupted output" >&2
	exit 1
fi
if ! echo "$out" | grep -q 'output differs from the native run'; then
	echo "$out"
	echo "thirdparty/corrupt: FAIL: run.sh failed, but not on the corrupted output" >&2
	exit 1
fi
echo "thirdparty/corrupt: PASS: run.sh reported the corrupted output"
