#!/bin/bash
# SPDX-License-Identifier: MIT
# foreign.sh VASTCC DIR "CL-OPTIONS" "PAGED-KERNELS" [EXPECT]: a program
# written the way programs outside this project are written (DIR holds
# host.c and its .cl files), built with `cc` and with `vastcc` in its
# place, run from its own directory (it opens its kernel file by a
# relative name) with its output file as argument.
#   EXPECT=same (default): natively, VAST_MODE=native, VAST_DEVICE_MEM=1G
#     (everything fits: resident device copies), 50% and 10% (VAST_STATS=kv)
#     write the same bytes; every kernel named in
#     PAGED-KERNELS runs paged at 50% (ranges >= 1: a strided kernel whose
#     strips go in as packed boxes, runtime/plan/boxframes.c, may need a quarter
#     of its buffers' bytes, one range) and shows ranges >= 2 at 10%.
#   EXPECT=refuse: the program uses what the runtime cannot virtualize;
#     at 10% it must fail (non-zero exit, no wrong output) with a
#     "vast: warning:" line saying why, and still work with VAST_MODE=native
#     and, through the runtime's native path, with VAST_DEVICE_MEM=1G.
set -u
vastcc=$1 dir=$2 opts=$3 kernels=$4 expect=${5:-same}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$dir"/* "$tmp/" || exit 1
cd "$tmp" || exit 1
cc -O1 -w -o plain host.c -lOpenCL -lm || { echo "FAIL: cc"; exit 1; }
"$vastcc" ${opts:+--cl-options="$opts"} -O1 -w -o app host.c *.cl -lm ||
	{ echo "FAIL: vastcc"; exit 1; }
./plain ref.bin > plain.log 2>&1 || { echo "FAIL: plain run"; cat plain.log; exit 1; }
fail=0
run() { # name, env...
	local name=$1; shift
	if ! env "$@" VAST_STATS=kv ./app "$name.bin" > "$name.log" 2>&1; then
		echo "FAIL: $name: exit status"; cat "$name.log"; fail=1; return 1
	fi
	if ! cmp ref.bin "$name.bin"; then
		echo "FAIL: $name: output differs"; cat "$name.log"; fail=1; return 1
	fi
	if grep -q 'vast: warning' "$name.log" && [ "$name" != native ]; then
		echo "note: $name: warnings"; grep 'vast: warning' "$name.log"
	fi
	echo "ok: $name"; grep '^vast: kernel' "$name.log"
}
ranges() { # name, least: every kernel of PAGED-KERNELS ran paged, in that many ranges
	local r k
	for k in $kernels; do
		r=$(sed -n "s/^vast: kernel $k .* ranges=\([0-9]*\) .*/\1/p" "$1.log")
		if [ -z "$r" ] || [ "$r" -lt "$2" ]; then
			echo "FAIL: $1: kernel $k ranges='$r', want >= $2"; fail=1
		fi
	done
}
run native VAST_MODE=native
if [ "$expect" = refuse ]; then
	run resident VAST_DEVICE_MEM=1G
	if env VAST_DEVICE_MEM=10% VAST_STATS=kv ./app tenth.bin > tenth.log 2>&1; then
		echo "FAIL: tenth: succeeded, want a refusal"; cat tenth.log; fail=1
	elif ! grep -q '^vast: warning' tenth.log; then
		echo "FAIL: tenth: no warning saying why"; cat tenth.log; fail=1
	else
		echo "ok: tenth refused:"; grep '^vast: warning' tenth.log
	fi
	exit $fail
fi
run resident VAST_DEVICE_MEM=1G
run half VAST_DEVICE_MEM=50% && ranges half 1
run tenth VAST_DEVICE_MEM=10% && ranges tenth 2
exit $fail
