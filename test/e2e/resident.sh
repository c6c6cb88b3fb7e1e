#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Pages that stay on the device between launches (runtime/mem/residency.c,
# issue 10): iterative programs at budgets below their data, run with
# the runtime's reuse of kept pages (default) and without it
# (VAST_RESIDENT=0). Both outputs must equal the native run's byte for
# byte, and with reuse the launches must send fewer bytes (h2d in
# VAST_STATS) and say so (h2d_saved > 0).
#   revisit   the host changes A between rounds, by a write and through
#             a map, so every page of A the device holds is stale: using
#             one would change the output;
#   iterate   two kernels (a fixed budget, so both keep the same frames)
#             and an indirect gather whose index buffer the host rewrites;
#   jacobi2d, fdtd2d  the iterative benchmarks at 1/2 and 1/4 of their data.
#   VAST_BUILD=build bash test/e2e/resident.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "resident: FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-resident.XXXXXX") || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_PINNED VAST_FOOTPRINTS VAST_RESIDENT
sum() { # field, log: the field summed over the kernels' lines
	sed -n "s/^vast: kernel .* $1=\([0-9]*\).*/\1/p" "$2" | awk '{ s += $1 } END { print s + 0 }'
}
check() { # example, budget, args...
	local ex=$1 mem=$2
	shift 2
	local bin=$tmp/vast/$ex/$ex h2d=() saved=()
	for r in 1 0; do
		env VAST_DEVICE_MEM=$mem VAST_RESIDENT=$r VAST_STATS=kv "$bin" -q -o "$tmp/vast.out" "$@" \
			>"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; fail "$ex $mem VAST_RESIDENT=$r: the run failed"; }
		cmp -s "$tmp/$ex.native" "$tmp/vast.out" ||
			fail "$ex $mem VAST_RESIDENT=$r: output differs from the native run"
		grep -q '^vast: kernel .* ranges=[1-9]' "$tmp/log" || fail "$ex $mem: not paged"
		h2d+=("$(sum h2d "$tmp/log")")
		saved+=("$(sum h2d_saved "$tmp/log")")
	done
	[ "${saved[1]}" = 0 ] || fail "$ex $mem: h2d_saved=${saved[1]} with VAST_RESIDENT=0"
	[ "${saved[0]}" -gt 0 ] || fail "$ex $mem: no page was reused (h2d_saved=0)"
	[ "${h2d[0]}" -lt "${h2d[1]}" ] ||
		fail "$ex $mem: h2d=${h2d[0]} with reuse, not below ${h2d[1]} without"
	echo "resident: $ex $mem: identical; h2d ${h2d[1]} -> ${h2d[0]} (h2d_saved=${saved[0]})"
}
build() { # example, args...
	local ex=$1
	shift
	VAST_E2E_BUILD_ONLY=$tmp bash "$here/diff.sh" "$ex" >/dev/null 2>&1 || fail "building $ex failed"
	"$tmp/native/$ex/$ex" -q -o "$tmp/$ex.native" "$@" >/dev/null 2>&1 || fail "$ex: the native run failed"
}
build revisit 65536 30
check revisit 50% 65536 30
check revisit 25% 65536 30
build iterate 256 256 30
check iterate 200K 256 256 30
build jacobi2d 256 20
check jacobi2d 256K 256 20
check jacobi2d 128K 256 20
build fdtd2d 256 256 20
check fdtd2d 384K 256 256 20
check fdtd2d 192K 256 256 20
echo "resident: PASS"
