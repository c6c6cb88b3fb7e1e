#!/bin/bash
# SPDX-License-Identifier: MIT
# cache_cli.sh VASTCC SRCDIR: `vastcc --cache-stats`, `--clear-cache` and
# `--cache-max=SIZE` act on the directory the runtime caches programs
# compiled at clBuildProgram in (VAST_CACHE_DIR, else
# $XDG_CACHE_HOME/vastcc, else ~/.cache/vastcc), as ccache's -s, -C and -M
# do. The runtime here is that of host_vadd.c linked by vastcc with no .cl:
# each build with new options compiles (a miss), the same again is a hit.
# --cache-stats must count the entries and bytes on disk and the runtime's
# hits and misses; a size set by --cache-max binds later runs unless
# VAST_CACHE_MAX is set; --clear-cache removes the entries and keeps the
# size; a directory the runtime would refuse is an error here too.
set -u
vastcc=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cp "$src/host_vadd.c" "$src/rt_host.h" "$src/jit.cl" "$tmp/" || exit 1
cd "$tmp" || exit 1
unset VAST_COMPILER VAST_JIT VAST_CACHE VAST_CACHE_MAX VAST_MODE VAST_DEVICE_MEM XDG_CACHE_HOME
export VAST_CACHE_DIR=$tmp/cache
"$vastcc" -o app host_vadd.c || { echo "FAIL: vastcc host_vadd.c"; exit 1; }

bad() { echo "FAIL: $*"; fail=1; }
# run SCALE [ENV...]: the program builds jit.cl with -D SCALE=..., its
# launches paged, so that they wait for vastcc's analysis (a program that
# never needs it may exit first, and cancel it).
run() {
	local s=$1; shift
	env "$@" VAST_COMPILER="$vastcc" VAST_MODE=paged ./app "out$s.bin" jit.cl "-D SCALE=$s.0f" \
		2>"run$s.err" ||
		{ bad "run $s: exit status"; cat "run$s.err"; }
}
# stats [ENV...]: `vastcc --cache-stats` into stats.out; fails on its failure.
stats() {
	env "$@" "$vastcc" --cache-stats >stats.out 2>stats.err ||
		{ bad "--cache-stats: exit status"; cat stats.err; }
}
# field NAME: the value of a --cache-stats line "NAME  VALUE"
field() { sed -n "s/^$1  *//p" stats.out; }
# bytes NAME: the exact byte count of a size line "NAME  1.2 KiB (1234 bytes)..."
bytes() { field "$1" | sed -n 's/.*(\([0-9]*\) bytes.*/\1/p'; }
ondisk() { # the entries' count and bytes in the directory
	local n=0 b=0 f
	for f in cache/*.vc; do
		[ -e "$f" ] || continue
		n=$((n + 1)) b=$((b + $(stat -c %s "$f")))
	done
	echo "$n $b"
}
expect() { # WHAT GOT WANT
	[ "$2" = "$3" ] || { bad "$1: '$2', want '$3'"; cat stats.out; }
}

# 1. Nothing cached yet: the directory, zeros, and the default bound.
stats
expect "directory" "$(field 'cache directory')" "$tmp/cache (not made yet)"
expect "entries" "$(field entries)" 0
expect "hits" "$(field hits)" 0
expect "max" "$(bytes 'max size')" 268435456
field 'max size' | grep -q '(268435456 bytes), the default$' || bad "max: $(field 'max size')"

# 2. Two compiles and a hit: what is on disk, and the runtime's counts.
run 2; run 2; run 3
grep -q '^vast: warning' run*.err && { bad "the runs warned"; cat run*.err; }
read -r n b < <(ondisk)
stats
expect "directory" "$(field 'cache directory')" "$tmp/cache"
expect "entries" "$(field entries)" "$n"
expect "entries on disk" "$n" 2
expect "size" "$(bytes size)" "$b"
expect "hits" "$(field hits)" 1
expect "misses" "$(field misses)" 2

# 3. --cache-max below an entry's size: the entries go at once, the size
# stays set, and a later run's entry goes too (the runtime reads it).
"$vastcc" --cache-max=1K >max.out 2>&1 || { bad "--cache-max=1K: exit status"; cat max.out; }
expect "entries after --cache-max=1K" "$(ondisk)" "0 0"
run 4
expect "entries after a run at 1K" "$(ondisk)" "0 0"
stats
expect "max after --cache-max" "$(bytes 'max size')" 1024
field 'max size' | grep -q 'set by --cache-max$' || bad "max: $(field 'max size')"
expect "misses" "$(field misses)" 3
# VAST_CACHE_MAX overrides it while set.
run 5 VAST_CACHE_MAX=64M
expect "entries under VAST_CACHE_MAX=64M" "$(ondisk | cut -d' ' -f1)" 1
stats VAST_CACHE_MAX=64M
expect "max under VAST_CACHE_MAX" "$(bytes 'max size')" 67108864
field 'max size' | grep -q 'from VAST_CACHE_MAX$' || bad "max: $(field 'max size')"

# 4. --clear-cache: no entry left; the size set and the counts stay.
"$vastcc" --cache-max=64M >/dev/null 2>&1 && run 6 && run 6
expect "entries before --clear-cache" "$(ondisk | cut -d' ' -f1)" 2
"$vastcc" --clear-cache >clear.out 2>&1 || { bad "--clear-cache: exit status"; cat clear.out; }
expect "entries after --clear-cache" "$(ondisk)" "0 0"
stats
expect "entries" "$(field entries)" 0
expect "max after --clear-cache" "$(bytes 'max size')" 67108864
expect "hits after --clear-cache" "$(field hits)" 2
expect "misses after --clear-cache" "$(field misses)" 5

# 5. The runtime's default directory: $XDG_CACHE_HOME/vastcc, else ~/.cache/vastcc.
env -u VAST_CACHE_DIR XDG_CACHE_HOME="$tmp/xdg" "$vastcc" --cache-stats >stats.out 2>&1
expect "XDG directory" "$(field 'cache directory')" "$tmp/xdg/vastcc (not made yet)"
mkdir home
env -u VAST_CACHE_DIR HOME="$tmp/home" "$vastcc" --cache-max=8M >/dev/null 2>&1 ||
	bad "--cache-max in HOME: exit status"
[ -d home/.cache/vastcc ] || bad "--cache-max did not make ~/.cache/vastcc"

# 6. Errors: a size that is none, input files, a directory the runtime
# refuses (writable by others), one that cannot be made.
errs() { # WHAT WANT-IN-STDERR ARGS...: exit status 1 and a vastcc error
	local what=$1 want=$2; shift 2
	if "$@" >err.out 2>&1; then
		bad "$what: succeeded"
	elif ! grep -q "^vastcc: error: .*$want" err.out; then
		bad "$what: want 'vastcc: error: ...$want'"; cat err.out
	fi
}
errs "--cache-max=lots" "'lots'" "$vastcc" --cache-max=lots
errs "--cache-max=50%" "'50%'" "$vastcc" --cache-max=50%
errs "--cache-stats with an input" "no input files" "$vastcc" --cache-stats host_vadd.c
mkdir shared && chmod 0777 shared
errs "a shared directory" "'$tmp/shared'.*writable by others (mode 0777)" \
	env VAST_CACHE_DIR="$tmp/shared" "$vastcc" --cache-stats
errs "clearing a shared directory" "writable by others" \
	env VAST_CACHE_DIR="$tmp/shared" "$vastcc" --clear-cache
touch afile
errs "a directory under a file" "Not a directory" \
	env VAST_CACHE_DIR="$tmp/afile/cache" "$vastcc" --cache-max=1M

[ "$fail" = 0 ] && echo "ok: --cache-stats, --cache-max, --clear-cache"
exit $fail
