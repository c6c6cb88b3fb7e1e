#!/bin/bash
# SPDX-License-Identifier: MIT
# stub_strict.sh INCLUDE_DIR: vast/stub.h under a program's strictest flags.
# The stub vastcc emits is compiled C, and a program may include the header
# under its own flags: C89 (-ansi, no long long, no inline), C99, C++98 and
# C++ with gcc and g++ -pedantic-errors, and clang's -Weverything, all
# -Werror; each C build also runs the hash (stub_strict.c). A compiler that
# is not installed is skipped; none at all is a skip (77).
set -u
inc=$1
src=$(dirname "$0")/stub_strict.c
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pick() { for c in "$@"; do command -v "$c" > /dev/null && { echo "$c"; return; }; done; }
gcc=$(pick gcc) gxx=$(pick g++) clang=$(pick clang-19 clang) clangxx=$(pick clang++-19 clang++)
fail=0 ran=0
# build NAME COMPILER LANG(c|c++) FLAGS...: compile (C: link and run too)
build() {
	local name=$1 cc=$2 lang=$3
	shift 3
	[ -n "$cc" ] || { echo "skip: $name (no compiler)"; return; }
	ran=$((ran + 1))
	local main=() out=$tmp/$ran.o
	[ "$lang" = c ] && main=(-DVAST_STRICT_MAIN) out=$tmp/$ran
	[ "$lang" = c ] || set -- "$@" -c
	if ! "$cc" -x "$lang" "$@" "${main[@]}" -I"$inc" "$src" -o "$out" > "$tmp/log" 2>&1; then
		echo "FAIL: $name: $cc $*"; cat "$tmp/log"; fail=1; return
	fi
	if [ "$lang" = c ] && ! "$out"; then
		echo "FAIL: $name: the hash or the tail table is wrong (exit $?)"; fail=1; return
	fi
	echo "ok: $name"
}
build gcc-c89 "$gcc" c -std=c89 -ansi -pedantic-errors -Wall -Wextra -Werror
build gcc-c99 "$gcc" c -std=c99 -pedantic-errors -Wall -Wextra -Werror
build clang-c89 "$clang" c -std=c89 -pedantic-errors -Weverything -Werror
build clang-everything "$clang" c -Weverything -Werror
build g++-c++98 "$gxx" c++ -std=c++98 -fno-rtti -pedantic-errors -Wall -Wextra -Werror
build g++ "$gxx" c++ -fno-rtti -pedantic -Wall -Wextra -Werror
build clang++-c++98 "$clangxx" c++ -std=c++98 -Weverything -Werror
build clang++-everything "$clangxx" c++ -Weverything -Werror
[ "$ran" -gt 0 ] || exit 77
exit $fail
