#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# wgsplit.sh VASTCC: the kernels of wgsplit/wgsplit.cl, whose one
# work-group touches more bytes than the budget, each in its own run of
# wgsplit/host.c, built with cc and with vastcc.
#   Work-items independent of their group (no barrier, no __local memory,
#   no local or group id but in the global id: rows, rowsid, rows2d): a
#   group of 1024 work-items (1-D, and 32 x 32) that is the whole data
#   runs as smaller groups, at a half, a quarter and a tenth of the data,
#   in at least 2 ranges, the bytes of the native run; so do 3000 rows in
#   groups of 1000 and a 48 x 20 group (sizes no power of two), and the
#   rows planned by the inspector (VAST_FOOTPRINTS=0).
#   rowslid, the same rows but for a get_local_id in its value, is refused,
#   naming its work-group.
#   covar (a covariance: work-item 0 reads the whole matrix) is refused at
#   once, naming work-item 0, with no inspector run over the launch (its
#   inspections at every row and page size took 105 s on PoCL for the
#   PolyBench size); covarb, the same with a barrier, names work-group 0.
#   rows2d under a budget of 3000 bytes, less than one work-item's rows
#   and page table, is refused naming work-item (0, 0), from its
#   descriptors or its inspector's first work-item.
set -u
vastcc=$1
src=$(cd "$(dirname "$0")" && pwd)/wgsplit
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-wgsplit.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS
cp "$src"/* "$tmp/" && cd "$tmp" || exit 1
cc -O1 -w -o plain host.c -lOpenCL || { echo "FAIL: cc"; exit 1; }
"$vastcc" -O1 -w -o app host.c wgsplit.cl || { echo "FAIL: vastcc"; exit 1; }

run() { # case, kernel, env...: the native bytes, in >= 2 ranges, groups split
	local c=$1 k=$2
	name="$c: ${*:3}"
	shift 2
	rm -f out.bin
	if ! env "$@" VAST_STATS=kv VAST_LOG=info ./app "$c" out.bin >run.log 2>&1; then
		echo "FAIL: $name: exit status"; cat run.log; fail=1; return
	fi
	if ! cmp -s "ref.$c" out.bin; then
		echo "FAIL: $name: output differs from the native run"; fail=1; return
	fi
	local r
	r=$(sed -n "s/^vast: kernel $k .* ranges=\([0-9]*\).*/\1/p" run.log)
	if [ -z "$r" ] || [ "$r" -lt 2 ]; then
		echo "FAIL: $name: ranges='$r', want >= 2"; fail=1; return
	fi
	if ! grep -q "kernel '$k': one work-group of [0-9]* work-items does not fit; retrying with work-groups of .* (its work-items are independent)" run.log; then
		echo "FAIL: $name: its work-groups were not split"; cat run.log; fail=1; return
	fi
	echo "ok: $name: $r ranges, $(grep -c retrying run.log) splits"
}

for c in rows rowsid rows2d rowsodd rows2dodd rowslid covar covarb; do
	./plain $c ref.$c >/dev/null 2>&1 || { echo "FAIL: $c: the native run failed"; exit 1; }
done
for mem in 50% 25% 10%; do
	run rows rows VAST_DEVICE_MEM=$mem
	run rowsid rowsid VAST_DEVICE_MEM=$mem
	run rows2d rows2d VAST_DEVICE_MEM=$mem
	run rows2dodd rows2d VAST_DEVICE_MEM=$mem
done
for mem in 25% 10%; do
	run rowsodd rows VAST_DEVICE_MEM=$mem
	run rows rows VAST_DEVICE_MEM=$mem VAST_FOOTPRINTS=0
	grep -q "kernel 'rows': inspecting " run.log ||
		{ echo "FAIL: rows/$mem/fp=0: no inspection logged (the covar checks below need it)"; fail=1; }
done

refused() { # case, pattern of the warning, env...: fails at once, says why, no inspection
	local c=$1 why=$2
	shift 2
	local name="$c: $*" t0 t1
	t0=$(date +%s)
	if env "$@" VAST_LOG=info timeout 60 ./app "$c" out.bin >refused.log 2>&1; then
		echo "FAIL: $name: succeeded, want a refusal"; fail=1; return
	fi
	t1=$(date +%s)
	if ! grep -Eq "^vast: warning: kernel '[a-z0-9]*': $why" refused.log; then
		echo "FAIL: $name: no refusal saying why"; cat refused.log; fail=1
	elif grep -q "': inspecting " refused.log; then
		echo "FAIL: $name: the inspector ran over the launch before the refusal"; fail=1
	elif [ $((t1 - t0)) -gt 10 ]; then
		echo "FAIL: $name: refused after $((t1 - t0)) s, want at once"; fail=1
	else
		echo "ok: $name: refused: $(grep -m1 -E "alone needs" refused.log)"
	fi
}
refused rowslid "work-group 0 alone needs (at least )?[0-9]+ bytes of device memory, more than the budget of [0-9]+$" \
	VAST_DEVICE_MEM=50%
for mem in 50% 25%; do
	for fp in 1 0; do
		refused covar "work-item 0 alone needs at least [0-9]+ bytes of device memory, more than the budget of [0-9]+$" \
			VAST_DEVICE_MEM=$mem VAST_FOOTPRINTS=$fp
		refused covarb "work-group 0 alone needs at least [0-9]+ bytes of device memory, more than the budget of [0-9]+$" \
			VAST_DEVICE_MEM=$mem VAST_FOOTPRINTS=$fp
	done
done
for fp in 1 0; do
	refused rows2d "work-item \\(0, 0\\) alone needs (at least )?[0-9]+ bytes of device memory, more than the budget of 3000$" \
		VAST_DEVICE_MEM=3000 VAST_FOOTPRINTS=$fp
done
[ $fail = 0 ] && echo "wgsplit: PASS"
exit $fail
