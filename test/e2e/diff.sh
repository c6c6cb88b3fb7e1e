#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# diff.sh - the differential end-to-end test of one example program.
#
#   VAST_BUILD=build bash test/e2e/diff.sh EXAMPLE [ARGS...]
#
# Builds examples/EXAMPLE twice in a temporary directory, once with plain
# `cc` and once with $VAST_BUILD/bin/vastcc, runs the native build, then the
# vastcc build with VAST_DEVICE_MEM=50%, 25% and 10% (of each launch's buffer
# footprint, so every launch is paged) and with VAST_MODE=native, each
# writing its output buffers with -o. Every output must equal the native
# run's byte for byte, and under the budgets the VAST_STATS=kv line of
# every kernel in EXAMPLE.cl must show ranges >= 2: a run that quietly fell
# back to native execution does not count as a pass. Each budget runs a
# second time with a deep pipeline of tiny ranges (VAST_PIPELINE=4 frame
# sets, 4 KiB pages) and VAST_TRACE: same output, and the trace must be
# valid with at least 3 ranges in flight at once wherever the budget holds
# 3 frame sets, as it does at 50% (test/tools/check_trace.py). That run
# also caps device buffers at 64 KiB (VAST_MAX_ALLOC), so a frame set
# spans several buffers: at 50%, where a set's share is larger than that,
# at least one launch must say so (VAST_LOG=info). A slot's pages of one
# work-group must fit one buffer: spmv's x and stencil2d's rows need more
# (CMakeLists.txt sets VAST_E2E_DEEP_ALLOC=256K for them).
#
# In a sanitizer build (VAST_SANITIZE=ON in VAST_BUILD's CMakeCache.txt) the
# vastcc build links the sanitizers, and the budgeted runs check for leaks
# whatever ASAN_OPTIONS says: the runtime must not leak.
#
# Environment: VAST_BUILD (required), VAST_CC (the real compiler, default
# cc), VAST_E2E_MEMS (budgets, default "50% 25% 10%"), VAST_E2E_PIPELINE=0 (skip
# the deep-pipeline runs), VAST_E2E_DEEP_PAGE (their page size, default 4K;
# larger pages make neighbouring ranges share written pages),
# VAST_E2E_DEEP_ALLOC (their largest device buffer, default 64K),
# VAST_E2E_DEEP_SETS (the frame sets their launches must reach at 50%,
# default 3; 1 for a kernel whose ranges share so much that it plans with
# one set, as matrixmul's B makes it), VAST_E2E_TIMEOUT
# (seconds per run, default 120), VAST_E2E_KEEP=1 (keep the directory),
# VAST_E2E_CORRUPT=1 (flip one byte of a vastcc output: the harness's own
# test that a difference is caught). To build here and run on another
# machine (the GPU box, which has no compiler toolchain for vastcc):
# VAST_E2E_BUILD_ONLY=DIR builds both programs under DIR and stops;
# VAST_E2E_PREBUILT=DIR runs the programs found there instead of building.
set -u

me="e2e/${1:-?}"
fail() { echo "$me: FAIL: $*" >&2; exit 1; }
note() { echo "$me: $*"; }

[ $# -ge 1 ] || { echo "usage: diff.sh EXAMPLE [ARGS...]" >&2; exit 2; }
name=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
examples=$(cd "$here/../../examples" && pwd)
src=$examples/$name
# Its kernels: NAME.cl, else the example's one .cl file (spmv-ell: spmv.cl).
cl=$src/$name.cl
[ -f "$cl" ] || cl=$(find "$src" -maxdepth 1 -name '*.cl' 2>/dev/null)
[ -f "$src/host.c" ] && [ -f "$cl" ] && [ -f "$src/Makefile" ] ||
	fail "no example '$name' in $examples (need host.c, one .cl file, Makefile)"
prebuilt=${VAST_E2E_PREBUILT:-}
sanitize=0
if grep -q '^VAST_SANITIZE:BOOL=ON' "${VAST_BUILD:-/nonexistent}/CMakeCache.txt" 2>/dev/null; then
	sanitize=1
fi
if [ -z "$prebuilt" ]; then
	[ -n "${VAST_BUILD:-}" ] || fail "VAST_BUILD is not set (the cmake build directory)"
	vastcc=$(cd "$VAST_BUILD" 2>/dev/null && pwd)/bin/vastcc
	[ -x "$vastcc" ] || fail "$VAST_BUILD/bin/vastcc not found: build the vastcc target first"
fi
timeout=${VAST_E2E_TIMEOUT:-120}
mems=${VAST_E2E_MEMS:-50% 25% 10%}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-e2e-$name.XXXXXX") || fail "mktemp"
if [ "${VAST_E2E_KEEP:-0}" = 1 ]; then
	note "keeping $tmp"
else
	trap 'rm -rf "$tmp"' EXIT
fi

# The runtime's knobs must not leak in from the caller's environment.
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_DEVICES VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG

# --- build twice ---------------------------------------------------------
build() { # DIR CC [MAKEVARS...]: DIR/NAME/NAME, log in DIR/NAME.build.log
	local dir=$1 cc=$2
	shift 2
	mkdir -p "$dir" && rm -rf "${dir:?}/$name" && cp -r "$src" "$dir/" &&
		cp -r "$examples/common" "$dir/" &&
		rm -f "$dir/$name/$name" "$dir/$name/$name.o" || return 1
	make -C "$dir/$name" CC="$cc" "$@" >"$dir/$name.build.log" 2>&1 ||
		{ cat "$dir/$name.build.log" >&2; return 1; }
}
if [ -n "$prebuilt" ]; then
	bin=$prebuilt
else
	bin=${VAST_E2E_BUILD_ONLY:-$tmp}
	build "$bin/native" "${VAST_CC:-cc}" || fail "native build with ${VAST_CC:-cc} failed"
	# A sanitizer build's libvastrt.a needs the sanitizer runtimes to link.
	vastflags="-O2 -Wall -Wextra"
	if [ "$sanitize" = 1 ]; then
		vastflags="$vastflags -fsanitize=address,undefined -fno-omit-frame-pointer"
	fi
	build "$bin/vast" "$vastcc" CFLAGS="$vastflags" || fail "build with vastcc failed"
	[ -f "$bin/vast/$name/$name.o" ] ||
		fail "the vastcc build did not compile ${cl##*/} into $name.o (is the Makefile's vastcc rule used?)"
	if [ -n "${VAST_E2E_BUILD_ONLY:-}" ]; then
		note "built under $bin"
		exit 0
	fi
fi

kernels=$(grep -oE '(__)?kernel[[:space:]]+void[[:space:]]+[A-Za-z_][A-Za-z0-9_]*' \
	"$cl" | awk '{print $NF}' | sort -u)
[ -n "$kernels" ] || fail "no kernels found in ${cl##*/}"

# --- run -------------------------------------------------------------------
run() { # LABEL BINARY [ENV...]: writes $tmp/LABEL.out and $tmp/LABEL.err
	local label=$1 exe=$2
	shift 2
	what=${*:-the native build}
	env "$@" timeout "$timeout" "$exe" -q -o "$tmp/$label.out" ${args[@]+"${args[@]}"} \
		>"$tmp/$label.log" 2>"$tmp/$label.err"
	local rc=$?
	if [ $rc -ne 0 ]; then
		cat "$tmp/$label.log" "$tmp/$label.err" >&2
		[ $rc -eq 124 ] && fail "$what: timed out after ${timeout}s"
		fail "$what: exit status $rc"
	fi
	[ -s "$tmp/$label.out" ] || fail "$what: wrote no output"
}

same() { # LABEL: compare with the native run
	if [ "${VAST_E2E_CORRUPT:-0}" = 1 ]; then
		printf '\x5a' | dd of="$tmp/$1.out" bs=1 seek=0 conv=notrunc status=none
	fi
	local d
	if ! d=$(cd "$tmp" && cmp native.out "$1.out" 2>&1); then
		cat "$tmp/$1.err" >&2
		fail "$what: output differs from the native run: $d"
	fi
}

args=("$@")
run native "$bin/native/$name/$name"
bytes=$(stat -c %s "$tmp/native.out")

for mem in $mems; do
	label="mem_${mem//%/pct}"
	# The runtime must not leak: under the sanitizers, leak checks are on.
	if [ "$sanitize" = 1 ]; then
		run "$label" "$bin/vast/$name/$name" VAST_DEVICE_MEM="$mem" VAST_STATS=kv \
			ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1"
	else
		run "$label" "$bin/vast/$name/$name" VAST_DEVICE_MEM="$mem" VAST_STATS=kv
	fi
	same "$label"
	for k in $kernels; do
		line=$(grep -E "^vast: kernel $k " "$tmp/$label.err" | tail -n 1)
		[ -n "$line" ] || { cat "$tmp/$label.err" >&2; \
			fail "VAST_DEVICE_MEM=$mem: no VAST_STATS line for kernel '$k'"; }
		ranges=$(echo "$line" | sed -n 's/.* ranges=\([0-9][0-9]*\).*/\1/p')
		[ -n "$ranges" ] || fail "VAST_DEVICE_MEM=$mem: no ranges= in '$line'"
		[ "$ranges" -ge 2 ] || { cat "$tmp/$label.err" >&2; \
			fail "VAST_DEVICE_MEM=$mem: kernel '$k' ran in $ranges range(s), expected >= 2: $line"; }
		note "VAST_DEVICE_MEM=$mem: identical ($bytes bytes); $line"
	done
	[ "${VAST_E2E_PIPELINE:-1}" = 0 ] && continue
	# Deep pipeline, tiny ranges: every frame set in flight at once, the
	# frames taking the whole budget (VAST_RESIDENT=0: no buffer kept
	# whole on the device), in several device buffers.
	deep_alloc=${VAST_E2E_DEEP_ALLOC:-64K}
	run "$label.deep" "$bin/vast/$name/$name" VAST_DEVICE_MEM="$mem" VAST_PIPELINE=4 \
		VAST_PAGE_SIZE="${VAST_E2E_DEEP_PAGE:-4K}" VAST_TRACE="$tmp/$label.trace.json" \
		VAST_MAX_ALLOC="$deep_alloc" VAST_RESIDENT=0 VAST_LOG=info
	same "$label.deep"
	bufs=$(sed -n 's/.* frame sets of \([0-9][0-9]*\) buffers.*/\1/p' "$tmp/$label.deep.err" |
		sort -n | tail -n 1)
	[ "$mem" != 50% ] || [ "${bufs:-0}" -ge 2 ] || { cat "$tmp/$label.deep.err" >&2; \
		fail "VAST_DEVICE_MEM=$mem VAST_MAX_ALLOC=$deep_alloc: no launch's frames spanned several buffers"; }
	# Every kernel as deep as its frame sets allow; at 50% every example
	# leaves room for several sets (at 10% a range may need more than a
	# quarter of the budget, e.g. matmul's B: then fewer sets).
	minsets=1
	[ "$mem" = 50% ] && minsets=${VAST_E2E_DEEP_SETS:-3}
	check=$(python3 "$here/../tools/check_trace.py" "$tmp/$label.trace.json" \
		--min-inflight 3 --min-sets $minsets 2>&1) ||
		fail "VAST_DEVICE_MEM=$mem VAST_PIPELINE=4: $check"
	note "VAST_DEVICE_MEM=$mem VAST_PIPELINE=4 VAST_PAGE_SIZE=${VAST_E2E_DEEP_PAGE:-4K} VAST_MAX_ALLOC=$deep_alloc: identical, frame sets of up to ${bufs:-?} buffers; $check"
done

run mode_native "$bin/vast/$name/$name" VAST_MODE=native
same mode_native
note "VAST_MODE=native: identical ($bytes bytes)"
note "PASS"
