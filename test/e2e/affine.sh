#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# affine.sh VASTCC: kernels whose every access is affine, of the shapes of
# third-party programs that vastcc planned with the inspector although
# footprint descriptors can say what they touch (affine/affine.cl), each in
# its own run of affine/host.c, built with cc and with vastcc:
#   covar        a loop from the work-item's own column to the end
#                (PolyBench covariance), a triangle per work-item;
#   gramschmidt  the id shifted by a scalar argument and one counter for
#                two loops (PolyBench gramschmidt_kernel3), 8 launches;
#   ldout        a load into a private out-parameter in a helper;
#   fft8         helpers looping strided loads into a private array and
#                stores out of it, through a buffer parameter the kernel
#                moved once (SHOC fft1D_512's globalLoads8, globalStores8).
# At budgets of a half, a quarter and a tenth every run writes the native
# run's bytes in at least 2 ranges, every launch planned from descriptors
# (fp_plans = launches - plan_hits), both with VAST_FOOTPRINTS=check (the
# inspector runs too, and a page it marks that the descriptors missed
# refuses the launch) and by default (no inspector).
set -u
vastcc=$1
src=$(cd "$(dirname "$0")" && pwd)/affine
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-affine.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS
cp "$src"/* "$tmp/" && cd "$tmp" || exit 1
cc -O1 -w -o plain host.c -lOpenCL || { echo "FAIL: cc"; exit 1; }
"$vastcc" -O1 -w -o app host.c affine.cl 2>build.log || { echo "FAIL: vastcc"; cat build.log; exit 1; }
if grep "cannot be virtualized" build.log; then
	echo "FAIL: vastcc refused a kernel"; fail=1
fi

stat() { # log, kernel, key
	sed -En "s/^vast: kernel $2 (.* )?$3=([0-9]+).*/\2/p" "$1"
}
run() { # kernel, env...: the native run's bytes in >= 2 ranges, from descriptors
	local k=$1 name log r p l h
	shift
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
	l=$(stat "$log" "$k" launches) h=$(stat "$log" "$k" plan_hits)
	if [ -z "$r" ] || [ "$r" -lt 2 ]; then
		echo "FAIL: $name: ranges='$r', want >= 2"; fail=1; return
	fi
	if [ -z "$p" ] || [ "$p" != $((l - h)) ]; then
		echo "FAIL: $name: fp_plans='$p' of $l launches ($h plans kept)"; fail=1; return
	fi
	echo "ok: $name: $r ranges, fp_plans=$p of $l launches"
}

for k in covar gramschmidt ldout fft8; do
	./plain "$k" "ref.$k" >/dev/null 2>&1 || { echo "FAIL: $k: the native run failed"; exit 1; }
	for mem in 50% 25% 10%; do
		run "$k" VAST_DEVICE_MEM=$mem VAST_FOOTPRINTS=check
		run "$k" VAST_DEVICE_MEM=$mem
	done
done
[ $fail = 0 ] && echo "affine: PASS"
exit $fail
