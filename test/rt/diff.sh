#!/bin/bash
# SPDX-License-Identifier: MIT
# diff.sh PLAIN VAST SOURCE.cl KERNEL: the program built with the runtime
# must write the same bytes as the plain build natively, paged at full
# budget, at 6 MiB (small launches fit, large ones page), and at 50% and
# 10% of its data (the latter also with a deep pipeline of tiny ranges,
# whose VAST_TRACE must show 3 ranges in flight); paging must show
# ranges >= 2.
set -u
plain=$1 vast=$2 src=$3 kernel=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
"$plain" "$tmp/ref.bin" "$src" || { echo "FAIL: plain run"; exit 1; }
run() { # name, env...
	local name=$1; shift
	if ! env "$@" VAST_STATS=kv "$vast" "$tmp/$name.bin" "$src" 2>"$tmp/$name.err"; then
		echo "FAIL: $name: exit status"; cat "$tmp/$name.err"; fail=1; return 1
	fi
	if ! cmp "$tmp/ref.bin" "$tmp/$name.bin"; then
		echo "FAIL: $name: output differs"; cat "$tmp/$name.err"; fail=1; return 1
	fi
	echo "ok: $name"; grep '^vast: kernel' "$tmp/$name.err"
}
ranges() { # name: the kernel's ranges must be >= 2
	local r
	r=$(sed -n "s/^vast: kernel $kernel .* ranges=\([0-9]*\) .*/\1/p" "$tmp/$1.err")
	if [ -z "$r" ] || [ "$r" -lt 2 ]; then
		echo "FAIL: $1: kernel $kernel ranges='$r', want >= 2"; fail=1
	fi
}
run native VAST_MODE=native
run auto VAST_MODE=auto
run paged VAST_MODE=paged
run half VAST_DEVICE_MEM=50% && ranges half
run tenth VAST_DEVICE_MEM=10% && ranges tenth
run tenth-4k VAST_DEVICE_MEM=10% VAST_PAGE_SIZE=4K && ranges tenth-4k
# A page larger than the budget is made smaller, not every launch refused.
run tenth-1g VAST_DEVICE_MEM=10% VAST_PAGE_SIZE=1G && ranges tenth-1g
run bytes VAST_DEVICE_MEM=1M && ranges bytes
# A budget of a few MiB: small launches run natively, large ones page, so
# paged launches read what native ones left on the device.
run some VAST_DEVICE_MEM=6M
if run deep VAST_DEVICE_MEM=10% VAST_PIPELINE=4 VAST_PAGE_SIZE=4K VAST_TRACE="$tmp/trace.json"; then
	ranges deep
	python3 "$(dirname "$0")/../tools/check_trace.py" "$tmp/trace.json" --min-inflight 3 \
		--min-sets 3 || fail=1
fi
exit $fail
