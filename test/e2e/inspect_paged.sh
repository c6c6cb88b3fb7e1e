#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The paged inspector (runtime/inspect/pinspect.c): a kernel whose inspector reads
# buffers larger than the budget inspects on its own device, the pages it
# reads sent chunk by chunk into frames, planned from the footprint
# descriptors of those reads; without descriptors for them it inspects on
# the CPU device as before. Every run's output must equal the native
# run's byte for byte, with the kernel paged (ranges >= 2), and VAST_STATS
# must show where the inspector ran:
#   spmv-ell   (col[k*n + row], column-major ELL: affine) at budgets below
#              its 4 MiB of col, and in a deep pipeline of 4 KiB pages and
#              256 KiB device buffers: inspect_paged >= 2 chunks,
#              inspect_cpu = 0; VAST_TRACE has one inspect_paged event per
#              chunk;
#   iterate    its gather (idx[i], affine) and histogram (in[i]): paged;
#   spmv       (CSR: col[j], j from rowptr's contents) and padout (in[v],
#              v read from in): no descriptor for a read of the buffer,
#              so inspect_cpu >= 1 and inspect_paged = 0.
#   VAST_BUILD=build bash test/e2e/inspect_paged.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "inspect_paged: FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-pinsp.XXXXXX") || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS VAST_DEVICES
field() { echo "$1" | sed -E "s/.* $2=([0-9]+).*/\\1/"; }

# example, kernel, where its inspector must run (paged or cpu), arguments;
# each runs at every budget of its list after ';'
cases=(
	"spmv-ell spmv_ell paged 65536 16;2M 1M"
	"iterate gather paged 256 256 2;10%"
	"histogram histogram paged;10%"
	"spmv spmv cpu;10%"
	"padout padout cpu;10%"
)
for c in "${cases[@]}"; do
	mems=${c#*;}
	set -- ${c%;*}
	ex=$1 kernel=$2 where=$3
	shift 3
	[ -d "$tmp/$ex" ] || { VAST_E2E_BUILD_ONLY=$tmp/$ex bash "$here/diff.sh" "$ex" >/dev/null 2>&1 ||
		fail "building $ex failed"; }
	"$tmp/$ex/native/$ex/$ex" -q -o "$tmp/$ex.native" "$@" >/dev/null 2>&1 ||
		fail "$ex: the native run failed"
	runs=()
	for mem in $mems; do
		runs+=("VAST_DEVICE_MEM=$mem")
	done
	[ "$ex" = spmv-ell ] && runs+=("VAST_DEVICE_MEM=1M VAST_PIPELINE=4 VAST_PAGE_SIZE=4K VAST_MAX_ALLOC=256K")
	for r in "${runs[@]}"; do
		log=$tmp/log
		# Nothing kept whole: spmv's and spmv-ell's x, read only through
		# their column indices, would be, and then need no inspector
		# (keep_whole.sh).
		env $r VAST_RESIDENT=0 VAST_STATS=kv VAST_TRACE="$tmp/trace.json" "$tmp/$ex/vast/$ex/$ex" -q \
			-o "$tmp/vast.out" "$@" >"$log" 2>&1 || { cat "$log" >&2; fail "$ex $r: the run failed"; }
		cmp -s "$tmp/$ex.native" "$tmp/vast.out" || fail "$ex $r: output differs from the native run"
		line=$(grep "^vast: kernel $kernel " "$log") || { cat "$log" >&2; fail "$ex $r: no stats"; }
		ranges=$(field "$line" ranges)
		paged=$(field "$line" inspect_paged)
		cpu=$(field "$line" inspect_cpu)
		[[ "$paged" =~ ^[0-9]+$ && "$cpu" =~ ^[0-9]+$ ]] ||
			fail "$ex $r: no inspect_paged= or inspect_cpu= in '$line'"
		[ "$ranges" -ge 2 ] || fail "$ex $r: ranges=$ranges, not paged"
		if [ "$where" = paged ]; then
			[ "$paged" -ge 2 ] && [ "$cpu" = 0 ] ||
				fail "$ex $r: inspect_paged=$paged inspect_cpu=$cpu, expected >= 2 chunks on the device and none on the CPU"
			events=$(python3 -c 'import json, sys
print(sum(e.get("name") == "inspect_paged" and e.get("ph") == "X" and
          e.get("args", {}).get("kernel") == sys.argv[2]
          for e in json.load(open(sys.argv[1]))["traceEvents"]))' "$tmp/trace.json" "$kernel") ||
				fail "$ex $r: VAST_TRACE did not load"
			[ "$events" = "$paged" ] ||
				fail "$ex $r: $events inspect_paged trace events for $paged chunks"
		else
			[ "$paged" = 0 ] && [ "$cpu" -ge 1 ] ||
				fail "$ex $r: inspect_paged=$paged inspect_cpu=$cpu, expected the CPU"
		fi
		echo "inspect_paged: $ex $r: identical; ranges=$ranges inspect_paged=$paged inspect_cpu=$cpu"
	done
done
echo "inspect_paged: PASS"
