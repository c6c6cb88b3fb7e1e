# SPDX-License-Identifier: MIT
# shellcheck shell=bash disable=SC2154 # me and prog: set by the sourcing script
#
# common.sh - what run.sh and cache.sh share: the table of programs, a
# fresh copy and build of one, a run of it, and the check that a run is
# exact and paged. Sourced after setting `me` (the test's name) and `prog`.
#
# Sets: here, src, bin (the build tree's bin/), timeout, tmp (removed at
# exit unless VAST_THIRDPARTY_KEEP=1), and the program's description (see
# the table below). Exports XDG_CACHE_HOME=$tmp/cache, so the
# compile-at-build cache of every run starts empty and is never the user's.

fail() { echo "$me: FAIL: $*" >&2; exit 1; }
note() { echo "$me: $*"; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$here/$prog
[ -f "$src/Makefile" ] || fail "no program '$prog' in $here"
[ -n "${VAST_BUILD:-}" ] || fail "VAST_BUILD is not set (the cmake build directory)"
bin=$(cd "$VAST_BUILD" 2>/dev/null && pwd)/bin
timeout=${VAST_THIRDPARTY_TIMEOUT:-120}

# What the harness knows of each program, as its user would: the language
# of its host, its arguments (a few MiB of data; OUT is the output file),
# its kernels, and for the ahead-of-time route where its kernel source is,
# the options it passes to clBuildProgram, and the Makefile variable that
# can carry one more object to the link.
# shellcheck disable=SC2034 # used by the scripts that source this one
case $prog in
sgemm) lang=c; args="768 OUT"; kernels="sgemm"
	kernel_src="file:sgemm.cl"; cl_options="-DTILE=16 -DREAL=float -cl-mad-enable"
	link_var=LDLIBS ;;
scan) lang=c; args="2097152 OUT"; kernels="chunk_scan add_offsets"
	kernel_src="string:scan.c:kernel_source"; cl_options="-D T=uint -D CHUNK=32"
	link_var=LDFLAGS ;;
fir) lang=c++; args="1048576 OUT"; kernels="fir" ;;
atx) lang=c++; args="64 65536 OUT"; kernels="atx" ;;
*) fail "no program '$prog' in the table of common.sh" ;;
esac

# The route's tool must have been built: missing, the test fails.
need() { # TOOL WHY
	[ -f "$bin/$1" ] || fail "$bin/$1 not found: this test needs it ($2)"
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-thirdparty-$prog.XXXXXX") || fail "mktemp"
if [ "${VAST_THIRDPARTY_KEEP:-0}" = 1 ]; then
	note "keeping $tmp"
else
	trap 'rm -rf "$tmp"' EXIT
fi

# The runtime's knobs must not leak in from the caller's environment.
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_DEVICES VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_LOG VAST_JIT VAST_CACHE VAST_CACHE_DIR VAST_COMPILER
# PoCL keeps its own cache under XDG_CACHE_HOME too: leave it where it was.
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pocl}
export XDG_CACHE_HOME=$tmp/cache

build() { # DIR [MAKE ARGS...]: a fresh copy of the program in DIR, built
	local dir=$1
	shift
	cp -r "$src" "$dir" || return 1
	make -C "$dir" "$@" >"$dir.build.log" 2>&1 || { cat "$dir.build.log" >&2; return 1; }
}

run() { # LABEL DIR [LAUNCHER...]: DIR's program; $tmp/LABEL.{out,log,err}
	local label=$1 dir=$2
	shift 2
	start_run "$label" "$dir" "$@"
	wait_run "$label" $!
}

# The two halves of run, for runs that overlap: start_run puts the
# program in the background ($! is its pid), wait_run checks how it ended.
start_run() { # LABEL DIR [LAUNCHER...]
	local label=$1 dir=$2 w
	shift 2
	[ -x "$dir/$prog" ] || fail "$label: the build made no executable '$prog'"
	local a=()
	for w in $args; do
		[ "$w" = OUT ] && w=$tmp/$label.out
		a+=("$w")
	done
	timeout "$timeout" "$@" "$dir/$prog" "${a[@]}" >"$tmp/$label.log" 2>"$tmp/$label.err" &
}

wait_run() { # LABEL PID
	wait "$2"
	local rc=$?
	if [ $rc -ne 0 ]; then
		cat "$tmp/$1.log" "$tmp/$1.err" >&2
		[ $rc -eq 124 ] && fail "$1: timed out after ${timeout}s"
		grep -q 'not compiled by vastcc' "$tmp/$1.err" &&
			fail "$1: exit status $rc: the runtime had no vastcc compilation of the program" \
				"(no ahead-of-time stub matched it, and it was not compiled at clBuildProgram)"
		fail "$1: exit status $rc"
	fi
	[ -s "$tmp/$1.out" ] || fail "$1: wrote no output"
}

# LABEL's output must be the native run's ($tmp/native.out), and every
# kernel must have run in two ranges or more: a quiet native run is no
# pass (VAST_STATS=kv prints one line per kernel at exit).
exact_and_paged() { # LABEL
	local d k line ranges
	# The harness's own test (corrupt.sh): a difference must be caught.
	if [ "${VAST_THIRDPARTY_CORRUPT:-0}" = 1 ]; then
		printf '\x5a' | dd of="$tmp/$1.out" bs=1 seek=0 conv=notrunc status=none
	fi
	if ! d=$(cmp "$tmp/native.out" "$tmp/$1.out" 2>&1); then
		cat "$tmp/$1.err" >&2
		fail "$1: output differs from the native run: ${d//$tmp\//}"
	fi
	for k in $kernels; do
		line=$(grep -E "^vast: kernel $k " "$tmp/$1.err" | tail -n 1)
		[ -n "$line" ] || { cat "$tmp/$1.err" >&2; \
			fail "$1: no VAST_STATS line for kernel '$k': the program did not run through libvastrt"; }
		ranges=$(echo "$line" | sed -n 's/.* ranges=\([0-9][0-9]*\).*/\1/p')
		[ "${ranges:-0}" -ge 2 ] || { cat "$tmp/$1.err" >&2; \
			fail "$1: kernel '$k' ran in ${ranges:-0} range(s), expected >= 2 (not paged): $line"; }
		note "$1: identical ($(stat -c %s "$tmp/$1.out") bytes); $line"
	done
}
