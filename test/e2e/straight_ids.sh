#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# straight_ids.sh VASTCC: the straight kernel runs N-D boxes of a range's
# work-groups with a global offset (runtime/plan/groupbox.c), so the device's
# own ids are the original launch's. straight_ids/host.c records every
# work-item function of a 3-D launch (with reqd_work_group_size and a
# global offset) and a 2-D one; at budgets that cut ranges inside rows
# and planes of groups, every range runs straight, in several boxes, and
# the records equal the cc build's byte for byte. With VAST_STRAIGHT=0
# (the checked paged kernel, ids rebuilt from a 1-D launch) too.
set -u
vastcc=$1
src=$(cd "$(dirname "$0")" && pwd)/straight_ids
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-straight-ids.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_FAIL_RANGE VAST_LOG VAST_PINNED VAST_FOOTPRINTS \
	VAST_STRAIGHT
cp "$src"/* "$src/../../rt/rt_host.h" "$tmp/" && cd "$tmp" || exit 1
cc -O1 -w -o plain host.c -lOpenCL || { echo "FAIL: cc"; exit 1; }
"$vastcc" -O1 -w -o app host.c ids.cl || { echo "FAIL: vastcc"; exit 1; }
./plain ref.bin || { echo "FAIL: the native run failed"; exit 1; }
sum() { # field: summed over the kernels' VAST_STATS lines
	sed -n "s/^vast: kernel .* $1=\([0-9]*\).*/\1/p" log | awk '{ s += $1 } END { print s + 0 }'
}
check() { # name, VAST_STRAIGHT, env...
	local name=$1 st=$2
	shift 2
	rm -f out.bin
	if ! env "$@" VAST_STRAIGHT=$st VAST_STATS=kv VAST_LOG=debug ./app out.bin >log 2>&1; then
		echo "FAIL: $name: exit status"; cat log; fail=1; return
	fi
	local ranges straight boxes
	ranges=$(sum ranges) straight=$(sum straight)
	boxes=$(grep -c "as [2-5] boxes" log)
	if ! cmp -s ref.bin out.bin; then
		echo "FAIL: $name: records differ from the native run"; fail=1
	elif [ "$ranges" -lt 4 ]; then
		echo "FAIL: $name: ranges=$ranges, want several"; fail=1
	elif [ "$st" = 1 ] && { [ "$straight" != "$ranges" ] || [ "$boxes" -lt 2 ]; }; then
		echo "FAIL: $name: straight=$straight of $ranges ranges, $boxes in several boxes"
		fail=1
	elif [ "$st" = 0 ] && [ "$straight" != 0 ]; then
		echo "FAIL: $name: straight=$straight with VAST_STRAIGHT=0"; fail=1
	else
		echo "ok: $name: identical; ranges=$ranges straight=$straight, $boxes in several boxes"
	fi
}
check "paged, small ranges" 1 VAST_MODE=paged VAST_DEVICE_MEM=96K
check "paged, smaller ranges" 1 VAST_MODE=paged VAST_DEVICE_MEM=48K
check "checked paged kernel" 0 VAST_MODE=paged VAST_DEVICE_MEM=48K
[ $fail = 0 ] && echo "straight_ids: PASS"
exit $fail
