#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# cache.sh - the compile-at-build cache, seen from outside (issue 11 item 1
# and its checks), on a program built with `make CC=vastcc` whose Makefile
# never names its kernel file:
#
#   (a) two processes started together with an empty cache both run
#       exactly (same bytes as the native run) and paged, and a run after
#       them finds what they left: it runs no compiler;
#   (b) with another empty cache, a first run compiles the kernels and
#       fills the cache, a second run of the same program hits it: it runs
#       no compiler, and is exact and paged;
#   (c) with VAST_CACHE=0 a run compiles again and writes no cache.
#
#   VAST_BUILD=build bash test/thirdparty/cache.sh [PROGRAM]   (default sgemm)
#
# Whether a run compiled is read from the compiler itself: VAST_COMPILER
# names a wrapper of the build tree's vastcc that logs each compile (each
# call with --emit-json=FILE); the runtime's own count must agree (the
# VAST_STATS line "vast: programs jit=N cache_hits=H", docs/jit.md). Every run is at VAST_DEVICE_MEM=50% with
# VAST_STATS=kv; the cache is $XDG_CACHE_HOME/vastcc, XDG_CACHE_HOME a fresh
# directory per case (VAST_CACHE_DIR names the same directory, for a
# runtime that takes it).
set -u

prog=${1:-sgemm}
me="thirdparty/cache/$prog"
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname "$0")/common.sh"

[ "$lang" = c ] || fail "cache.sh builds with make CC=vastcc: '$prog' is C++"
need vastcc "the driver, and the compiler the runtime runs at clBuildProgram"

build "$tmp/native" || fail "plain make failed"
run native "$tmp/native"
PATH="$bin:$PATH" build "$tmp/vast" CC=vastcc || fail "make CC=vastcc failed"

# The compiler the runtime runs: the real one, each compile logged (a call
# with --emit-json, the runtime's interface; not, say, --version).
compiles=$tmp/compiles.log
: >"$compiles"
cat >"$tmp/vastcc-logged" <<EOF
#!/bin/sh
case " \$* " in *" --emit-json="*) echo "\$*" >>"$compiles" ;; esac
exec "$bin/vastcc" "\$@"
EOF
chmod +x "$tmp/vastcc-logged"
ncompiles() { wc -l <"$compiles"; }

use_cache() { # CACHE: $with, the launcher of a run that uses cache directory CACHE
	with=(env XDG_CACHE_HOME="$1" VAST_CACHE_DIR="$1/vastcc" VAST_COMPILER="$tmp/vastcc-logged"
		VAST_DEVICE_MEM=50% VAST_STATS=kv)
}
entries() { # CACHE: how many files vastcc's cache holds (not the driver's)
	find "$1/vastcc" -type f 2>/dev/null | wc -l
}
# The runtime's own account, docs/jit.md: VAST_STATS=kv prints
# "vast: programs jit=N cache_hits=H" when anything was compiled at build.
hits() { # LABEL: H of that line
	local h
	h=$(sed -n 's/^vast: programs jit=[0-9][0-9]* cache_hits=\([0-9][0-9]*\).*/\1/p' "$tmp/$1.err")
	[ -n "$h" ] || { cat "$tmp/$1.err" >&2; fail "$1: no 'vast: programs jit=N cache_hits=H' line"; }
	echo "$h"
}

# --- (a) two processes, one empty cache ------------------------------------------
use_cache "$tmp/a"
start_run twin1 "$tmp/vast" "${with[@]}"
pid1=$!
start_run twin2 "$tmp/vast" "${with[@]}"
pid2=$!
wait_run twin1 $pid1
wait_run twin2 $pid2
exact_and_paged twin1
exact_and_paged twin2
n=$(ncompiles)
[ "$n" -ge 1 ] || fail "(a) neither process ran the compiler (\$VAST_COMPILER): were its kernels compiled at clBuildProgram?"
[ "$(entries "$tmp/a")" -ge 1 ] || fail "(a) the two processes compiled but left no cache under \$XDG_CACHE_HOME/vastcc"
run after "$tmp/vast" "${with[@]}"
exact_and_paged after
[ "$(ncompiles)" -eq "$n" ] || fail "(a) a run after the two ran the compiler again: what they cached was not used"
[ "$(hits after)" -ge 1 ] || fail "(a) the run after the two ran no compiler but reports no cache hit"
note "(a) two processes at once with an empty cache: both exact and paged ($n compile(s)); the next run hit the cache"

# --- (b) a second run hits the cache ---------------------------------------------
n=$(ncompiles)
use_cache "$tmp/b"
run first "$tmp/vast" "${with[@]}"
exact_and_paged first
[ "$(ncompiles)" -gt "$n" ] || fail "(b) the first run with an empty cache ran no compiler"
[ "$(entries "$tmp/b")" -ge 1 ] || fail "(b) the first run left no cache under \$XDG_CACHE_HOME/vastcc"
[ "$(hits first)" -eq 0 ] || fail "(b) the first run, with an empty cache, reports a cache hit"
n=$(ncompiles)
run second "$tmp/vast" "${with[@]}"
exact_and_paged second
[ "$(ncompiles)" -eq "$n" ] || fail "(b) the second run ran the compiler again: no cache hit"
[ "$(hits second)" -ge 1 ] || fail "(b) the second run ran no compiler but reports no cache hit"
note "(b) second run: cache hit (no compile; $(grep '^vast: programs' "$tmp/second.err")), exact and paged"

# --- (c) VAST_CACHE=0 -------------------------------------------------------------
n=$(ncompiles)
use_cache "$tmp/c"
run nocache "$tmp/vast" "${with[@]}" VAST_CACHE=0
exact_and_paged nocache
[ "$(ncompiles)" -gt "$n" ] || fail "(c) with VAST_CACHE=0 the run did not compile"
[ "$(entries "$tmp/c")" -eq 0 ] || fail "(c) with VAST_CACHE=0 the run wrote a cache"
[ "$(hits nocache)" -eq 0 ] || fail "(c) with VAST_CACHE=0 the run reports a cache hit"
note "(c) VAST_CACHE=0: compiled, nothing cached"
note "PASS"
