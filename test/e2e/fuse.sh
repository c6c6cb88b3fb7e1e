#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fuse.sh VASTCC: two paged launches queued back to back run range by
# range together (runtime/launch/launch.c, paged.c: fused) where that cannot
# change a result, and only there. fuse/host.c runs five pairs (see
# there); each output must be the cc build's byte for byte at budgets of
# 25% and 10%, and at 25% with a deep pipeline of tiny pages over small
# device buffers. chain, sparse and extra must be fused (the second
# kernel's fused=1), mirror and war never (each range of one would touch
# what another range of the other writes), nor event (the program holds
# the second launch's event, which must time that command alone). Fused, chain sends nothing of
# out back to the device (the unfused pair sends it whole); VAST_FUSE=0
# fuses nothing, same output; a range that fails fails both kernels, and
# the program's read of their buffer says so.
set -u
vastcc=$1
src=$(cd "$(dirname "$0")" && pwd)/fuse
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-fuse.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_FAIL_RANGE VAST_LOG VAST_PINNED VAST_FOOTPRINTS \
	VAST_RESIDENT VAST_OVERLAP VAST_FUSE VAST_DEVICES
fail() { echo "fuse: FAIL: $*" >&2; exit 1; }
cp "$src"/* "$src/../../rt/rt_host.h" "$tmp/" && cd "$tmp" || exit 1
cc -O1 -w -o plain host.c -lOpenCL || fail "cc"
"$vastcc" -O1 -w -o app host.c fuse.cl || fail "vastcc"
second() { # the second kernel's name in mode $1
	case $1 in chain|event) echo transform ;; sparse) echo fold_pairs ;; extra) echo combine ;;
	mirror) echo mirror_read ;; war) echo overwrite ;; esac
}
fused_of() { # kernel log: its fused= count
	sed -n "s/^vast: kernel $1 .* fused=\([0-9]*\).*/\1/p" "$2"
}
for mode in chain sparse extra mirror war event; do
	./plain $mode ref.bin || fail "$mode: the native run failed"
	want=1
	case $mode in mirror|war|event) want=0 ;; esac
	k2=$(second $mode)
	for run in "25%" "10%" "25% VAST_PIPELINE=4 VAST_PAGE_SIZE=4K VAST_MAX_ALLOC=64K"; do
		mem=${run%% *}
		extra=""
		[ "$run" != "$mem" ] && extra=${run#* }
		# shellcheck disable=SC2086
		env VAST_DEVICE_MEM=$mem VAST_STATS=kv VAST_LOG=debug $extra ./app $mode out.bin >log 2>&1 ||
			{ tail -5 log; fail "$mode at $run: the run failed"; }
		cmp -s ref.bin out.bin || fail "$mode at $run: output differs"
		grep -q "^vast: kernel $k2 .*ranges=\([2-9]\|[1-9][0-9]\)" log ||
			fail "$mode at $run: '$k2' not in several ranges"
		got=$(fused_of "$k2" log)
		[ "$got" = "$want" ] || fail "$mode at $run: '$k2' fused=$got, want $want"
		if [ $mode = mirror ] || [ $mode = war ]; then
			grep -q "not fused with '$k2'" log || fail "$mode at $run: no reason given for not fusing"
		fi
	done
	echo "ok: $mode"
done
# What fusing saves: chain's out is produced whole on the device, so the
# fused pair sends none of it (page tables only); unfused, transform sends
# it all back (4 MiB).
./plain chain ref.bin || fail "chain: the native run failed"
h2d() { awk '/^vast: kernel / { for (i = 1; i <= NF; i++) if ($i ~ /^h2d=/) { sub(/h2d=/, "", $i); s += $i } } END { print s + 0 }' "$1"; }
VAST_DEVICE_MEM=25% VAST_STATS=kv ./app chain out.bin >log 2>&1 || fail "chain: the fused run failed"
fused_h2d=$(h2d log)
VAST_DEVICE_MEM=25% VAST_STATS=kv VAST_FUSE=0 ./app chain out.bin >log 2>&1 ||
	fail "chain, VAST_FUSE=0: the run failed"
cmp -s ref.bin out.bin || fail "chain, VAST_FUSE=0: output differs"
[ "$(fused_of transform log)" = 0 ] || fail "chain, VAST_FUSE=0: fused anyway"
plain_h2d=$(h2d log)
[ "$fused_h2d" -lt $((1 << 20)) ] || fail "chain fused sent $fused_h2d bytes, want under 1 MiB"
[ "$plain_h2d" -ge $((3 << 20)) ] || fail "chain unfused sent $plain_h2d bytes, want its 4 MiB"
echo "ok: chain sends $fused_h2d bytes fused, $plain_h2d unfused"
# A range that fails (its fault word read as set) fails both kernels: the
# program's read of out reports it (exit 3), never stale or partial bytes.
VAST_DEVICE_MEM=25% VAST_FAIL_RANGE=2 ./app chain out.bin >log 2>&1
rc=$?
[ $rc = 3 ] || { tail -5 log; fail "chain with a failed range: exit $rc, want 3 (the read refused)"; }
grep -q "kernel 'transform' failed" log || fail "chain with a failed range: 'transform' not failed with it"
echo "ok: a failed range fails both"
echo "fuse: PASS"
