#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# harness.sh - tests diff.sh itself: with VAST_E2E_CORRUPT=1 one byte of a
# vastcc run's output is flipped, and diff.sh must fail for exactly that
# reason (not, say, because vastcc is missing).
here=$(cd "$(dirname "$0")" && pwd)
out=$(VAST_E2E_CORRUPT=1 bash "$here/diff.sh" vadd 4096 2>&1)
rc=$?
if [ $rc -eq 0 ]; then
	echo "$out"
	echo "harness: FAIL: diff.sh accepted a corrupted output" >&2
	exit 1
fi
if ! echo "$out" | grep -q 'output differs from the native run'; then
	echo "$out"
	echo "harness: FAIL: diff.sh failed, but not on the corrupted output" >&2
	exit 1
fi
echo "harness: PASS: diff.sh reported the corrupted output"
