#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bfs.sh VASTCC: kernels that store only where data they write says so
# (bfs/bfs.cl), which vastcc refused ("addresses depend on data the kernel
# writes"): the inspector now marks such stores whether or not they run, a
# superset of the pages. Each runs in bfs/host.c, built with cc and with
# vastcc:
#   edges  BFS over a random graph of 300K nodes, one work-item per edge,
#          a launch per level until one changes nothing (18 levels);
#   csr    the same BFS, one work-item per node, returning when the node
#          is not on the current level;
#   stamp  a store through a permutation that interleaves each block of
#          words among its work-items, guarded by the word's value: the
#          ranges either side of a block's cut store to the same pages at
#          different bytes while both are in flight, so a range that wrote
#          back bytes it took from the host before the other's stores
#          reached it would undo them. Three frame sets at every budget
#          (at a tenth the runtime would pick one: no range in flight
#          beside another), and VAST_LOG=debug must show pages forwarded
#          between ranges: the case is exercised.
# The build warns of no kernel that cannot be virtualized; at budgets of a
# half, a quarter and a tenth every run writes the native run's bytes, its
# launches in at least 2 ranges.
set -u
vastcc=$1
src=$(cd "$(dirname "$0")" && pwd)/bfs
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-bfs.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS
cp "$src"/* "$tmp/" && cd "$tmp" || exit 1
cc -O1 -w -o plain host.c -lOpenCL || { echo "FAIL: cc"; exit 1; }
"$vastcc" -O1 -w -o app host.c bfs.cl 2>build.log || { echo "FAIL: vastcc"; cat build.log; exit 1; }
if grep "cannot be virtualized" build.log; then
	echo "FAIL: vastcc refused a kernel"; fail=1
fi

stat() { # log, kernel, key
	grep "^vast: kernel $2 " "$1" | sed -n "s/.* $3=\([0-9]*\).*/\1/p"
}
run() { # name, kernel, env...: the native run's bytes in >= 2 ranges a launch
	local name=$1 k=$2 log r l
	shift 2
	log=$(echo "$name/$*" | tr -c "a-z0-9=\n" _).log
	rm -f out.bin
	if ! env "$@" VAST_STATS=kv ./app "$name" out.bin >"$log" 2>&1; then
		echo "FAIL: $name/$*: exit status"; tail -20 "$log"; fail=1; return
	fi
	if ! cmp -s "ref.$name" out.bin; then
		echo "FAIL: $name/$*: output differs from the native run"; fail=1; return
	fi
	r=$(stat "$log" "$k" ranges) l=$(stat "$log" "$k" launches)
	if [ -z "$r" ] || [ -z "$l" ] || [ "$r" -lt $((2 * l)) ]; then
		echo "FAIL: $name/$*: ranges='$r' over launches='$l', want >= 2 each"; fail=1; return
	fi
	echo "ok: $name/$*: $l launches, $r ranges"
	last_log=$log
}

for name in edges csr stamp; do
	case $name in
	edges) k=bfs_edges ;;
	csr) k=bfs_csr ;;
	*) k=$name ;;
	esac
	./plain "$name" "ref.$name" >/dev/null 2>&1 || { echo "FAIL: $name: the native run failed"; exit 1; }
	for mem in 50% 25% 10%; do
		last_log=
		if [ $name = stamp ]; then
			run "$name" "$k" VAST_DEVICE_MEM=$mem VAST_PIPELINE=3 VAST_LOG=debug
			if [ -n "$last_log" ] && ! grep -q "pages of slot [0-9]* forwarded from range" "$last_log"; then
				echo "FAIL: $name/$mem: no page shared by ranges in flight"; fail=1
			fi
		else
			run "$name" "$k" VAST_DEVICE_MEM=$mem
		fi
	done
done
[ $fail = 0 ] && echo "bfs: PASS"
exit $fail
