#!/bin/bash
# SPDX-License-Identifier: MIT
# kept.sh KEPT vadd.cl: a host write, a map for writing, a fill, a copy
# of a few bytes of a buffer between two paged launches make stale exactly the
# kept page they lie in, as the memory directory says (host_kept.c):
# the second launch sends that one page (64 KiB) more than it does with
# nothing between, not the whole buffer again. Paged (VAST_MODE=paged:
# one range, every page kept) and exact (host_kept checks the sums).
set -u
kept=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
h2d() { # how: the h2d bytes of kernel vadd's launches
	VAST_MODE=paged VAST_PAGE_SIZE=64K VAST_STATS=kv VAST_CACHE_DIR="$tmp/cache" \
		"$kept" "$src" "$1" 2>"$tmp/$1.err" || { cat "$tmp/$1.err" >&2; return 1; }
	sed -n 's/^vast: kernel vadd .* h2d=\([0-9]*\).*/\1/p' "$tmp/$1.err"
}
base=$(h2d none) || { echo "FAIL: none: the run failed"; exit 1; }
[ -n "$base" ] || { echo "FAIL: none: no h2d for kernel vadd"; cat "$tmp/none.err"; exit 1; }
fail=0
for how in write map fill copy; do
	n=$(h2d $how) || { echo "FAIL: $how: the run failed"; fail=1; continue; }
	if [ "$n" != $((base + 65536)) ]; then
		echo "FAIL: $how: h2d=$n, want $((base + 65536)) (none: $base, and the one page stale)"
		fail=1
	else
		echo "ok: $how: h2d $base -> $n"
	fi
done
exit $fail
