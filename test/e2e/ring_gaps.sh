#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ring_gaps.sh VASTCC: a range's slots go in two passes when one of them
# comes from pageable memory through the pinned ring (runtime/paged/
# paged.c, start_range: the others first, their pinned transfers held
# back to go between the ring's chunks), and the gaps of the pages each
# slot writes in part (send_gaps) are its own: a later slot sent first
# once packed its gaps over an earlier one's, whose bytes then never came
# from the host. ring_gaps/host.c writes two buffers in every element of
# a row but the last, which keeps the program's value: narrow (slot 1,
# 4096 x 112 ushorts, 896 KiB) and wide (slot 2, uints, 1792 KiB). The
# runtime pins no host copy under 1 MiB (VRT_PIN_MIN): narrow's is plain
# memory, wide's is pinned. VAST_MAX_ALLOC=512K bounds the staging (choose_direct),
# which narrow's share of a frame set passes: narrow comes through the
# ring, after wide. With 8 KiB pages, a row of narrow, two of wide, every
# range's last pages of the rows go in by their gaps in both slots. At a
# budget of 2M (three frame sets) and of 1536K in one set, the output is
# the cc build's byte for byte (before, narrow's last elements were stale
# frame bytes) and the log shows that order.
set -u
vastcc=$1
src=$(cd "$(dirname "$0")" && pwd)/ring_gaps
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-ring-gaps.XXXXXX") || { echo "ring_gaps: mktemp failed" >&2; exit 1; }
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_FAIL_RANGE VAST_LOG VAST_PINNED VAST_FOOTPRINTS \
	VAST_RESIDENT VAST_HOLD VAST_DEVICES
fail() { echo "ring_gaps: FAIL: $*" >&2; exit 1; }
cp "$src"/* "$src/../../rt/rt_host.h" "$tmp/" && cd "$tmp" || exit 1
cc -O1 -w -o plain host.c -lOpenCL || fail "cc"
"$vastcc" -O1 -w -o app host.c ring_gaps.cl || fail "vastcc"
w=4096 h=112
./plain $w $h ref.bin || fail "the native run failed"
for run in "2M" "1536K VAST_PIPELINE=1"; do
	mem=${run%% *}
	extra=""
	[ "$run" != "$mem" ] && extra=${run#* }
	# shellcheck disable=SC2086
	env VAST_DEVICE_MEM=$mem VAST_MAX_ALLOC=512K VAST_PAGE_SIZE=8K VAST_STATS=kv VAST_LOG=debug \
		$extra ./app $w $h out.bin >log 2>&1 || { grep -v "^vast: debug" log | tail -5; fail "$run: the run failed"; }
	cmp -s ref.bin out.bin || fail "$run: output differs from the native run"
	grep -q "^vast: kernel edges .* ranges=\([2-9]\|[1-9][0-9]\)" log ||
		fail "$run: not in several ranges"
	grep -q "slot 1 in through the pinned ring" log || fail "$run: narrow (slot 1) not through the ring"
	! grep -q "slot 2 in through the pinned ring" log || fail "$run: wide (slot 2) through the ring too"
	# a range whose wide gaps went in before narrow's: slot 2's line, then slot 1's
	order=$(sed -n 's/.*slot \([12]\): [1-9][0-9]* gaps of pages written in part.*/\1/p' log | tr -d '\n')
	case $order in *21*) ;; *) fail "$run: no range sent gaps of slot 2, then of slot 1 ('$order')" ;; esac
	echo "ring_gaps: $run: identical; gaps in by slot, range after range: $order"
done
echo "ring_gaps: PASS"
