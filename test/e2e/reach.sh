#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# reach.sh VASTCC: kernels of third-party shapes that vastcc refused
# although it can run them exactly (reach/reach.cl), each in its own run of
# reach/host.c, built with cc and with vastcc:
#   colstd    a guarded store to an address the kernel stored before
#             (`if (std[j] <= eps) std[j] = 1.0f;`), half the columns
#             taking it;
#   fft4      helpers that load a private array through a pointer and store
#             it back to the same buffer (SHOC fft1D_512's globalLoads8 and
#             globalStores8), __local exchange and barriers between;
#   outparam  a helper's load into a private out-parameter, stored to the
#             same element;
#   crc       a CRC over a two-dimensional program-scope __constant table
#             (crc32_slice8's crc32Table[8][256]).
# The build warns of no kernel that cannot be virtualized; at budgets of a
# half, a quarter and a tenth every run writes the native run's bytes in at
# least 2 ranges, planned from footprint descriptors (fp_plans=1; fft4's
# and outparam's accesses are in helpers called once, described in the
# kernel's terms) and, with VAST_FOOTPRINTS=0, by the inspector.
set -u
vastcc=$1
src=$(cd "$(dirname "$0")" && pwd)/reach
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-reach.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS
cp "$src"/* "$tmp/" && cd "$tmp" || exit 1
cc -O1 -w -o plain host.c -lOpenCL || { echo "FAIL: cc"; exit 1; }
"$vastcc" -O1 -w -o app host.c reach.cl 2>build.log || { echo "FAIL: vastcc"; cat build.log; exit 1; }
if grep "cannot be virtualized" build.log; then
	echo "FAIL: vastcc refused a kernel"; fail=1
fi

stat() { # log, kernel, key
	sed -n "s/^vast: kernel $2 .* $3=\([0-9]*\).*/\1/p" "$1"
}
run() { # kernel, fp_plans wanted, env...: the native run's bytes in >= 2 ranges
	local k=$1 want=$2 name log r p
	shift 2
	name="$k/$*"
	log=$(echo "$name" | tr -c "a-z0-9=\n" _).log
	rm -f out.bin
	if ! env "$@" VAST_STATS=kv ./app "$k" out.bin >"$log" 2>&1; then
		echo "FAIL: $name: exit status"; cat "$log"; fail=1; return
	fi
	if ! cmp -s "ref.$k" out.bin; then
		echo "FAIL: $name: output differs from the native run"; fail=1; return
	fi
	r=$(stat "$log" "$k" ranges) p=$(stat "$log" "$k" fp_plans)
	if [ -z "$r" ] || [ "$r" -lt 2 ]; then
		echo "FAIL: $name: ranges='$r', want >= 2"; fail=1; return
	fi
	if [ "$p" != "$want" ]; then
		echo "FAIL: $name: fp_plans='$p', want $want"; fail=1; return
	fi
	echo "ok: $name: $r ranges, fp_plans=$p"
}

for k in colstd fft4 outparam crc; do
	./plain "$k" "ref.$k" >/dev/null 2>&1 || { echo "FAIL: $k: the native run failed"; exit 1; }
	for mem in 50% 25% 10%; do
		run "$k" 1 VAST_DEVICE_MEM=$mem
		run "$k" 0 VAST_DEVICE_MEM=$mem VAST_FOOTPRINTS=0
	done
done
[ $fail = 0 ] && echo "reach: PASS"
exit $fail
