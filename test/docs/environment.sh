#!/bin/bash
# SPDX-License-Identifier: MIT
#
# environment.sh SRC MANDIR: every VAST_* variable the code reads is
# documented, in README.md's tables and in the man pages of MANDIR (the
# build's share/man/man1, made from those tables: cmake/manpages.cmake).
#   - the runtime's: every string literal "VAST_NAME" in runtime/ (its .c
#     and .h files, subfolders too: vrt_getenv("VAST_LOG"),
#     config_size("VAST_MAX_ALLOC", ...)) must name a row of README's
#     "Run time" table and appear in the ENVIRONMENT of vastcc.1 and
#     vastrun.1;
#   - the compiler's: every getenv("VAST_NAME") in tools/ and lib/ must
#     name a row of README's "Compile time" table and appear in the
#     ENVIRONMENT of vastcc.1;
#   - and the other way round: a documented variable nothing reads is an
#     error too (a renamed or removed one).
# A literal in runtime/ that is not a variable goes in NOT_VARIABLES below.
# Prints "PASS: docs/environment", or each mismatch and "FAIL: ...".
set -u
[ $# -eq 2 ] || { echo "usage: environment.sh SRC MANDIR" >&2; exit 2; }
src=$1 man=$2
NOT_VARIABLES=""

# names < FILE...: the VAST_ names in the input, one per line, sorted.
names() { grep -oE 'VAST_[A-Z0-9_]*[A-Z0-9]' "$@" | sed 's/^.*://' | sort -u; }

read_by_runtime() {
	find "$src/runtime" \( -name '*.c' -o -name '*.h' \) -print0 |
		xargs -0 grep -hoE '"VAST_[A-Z0-9_]+"' | tr -d '"' | sort -u |
		grep -vxF -f <(printf '%s\n' $NOT_VARIABLES)
}
read_by_compiler() {
	find "$src/tools" "$src/lib" -name '*.c' -print0 |
		xargs -0 grep -hoE 'getenv\("VAST_[A-Z0-9_]+"' | sed 's/.*"\(VAST_[A-Z0-9_]*\)"/\1/' | sort -u
}
# readme_table HEADING: the first cells of the table under "### HEADING".
readme_table() {
	awk -v h="### $1" '$0 == h { on = 1; next } on && /^#/ { exit }
		on && /^\|/ { table = 1; split($0, c, "|"); print c[2]; next }
		table { exit }' "$src/README.md" | names
}
# man_environment PAGE: the ENVIRONMENT section of MANDIR/PAGE.
man_environment() {
	[ -f "$man/$1" ] || { echo "no $man/$1" >&2; return 1; }
	awk '/^\.SH / { on = ($2 == "ENVIRONMENT") ; next } on' "$man/$1" | names
}

failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-env.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# compare WHAT READ DOCUMENTED: names in one list and not the other.
compare() {
	local missing extra
	missing=$(comm -23 "$2" "$3") extra=$(comm -13 "$2" "$3")
	if [ -n "$missing" ]; then
		echo "$1: read but not documented:" $missing
		failed=1
	fi
	if [ -n "$extra" ]; then
		echo "$1: documented but read by nothing:" $extra
		failed=1
	fi
}
read_by_runtime > "$tmp/runtime"
read_by_compiler > "$tmp/compiler"
[ -s "$tmp/runtime" ] && [ -s "$tmp/compiler" ] ||
	{ echo "FAIL: docs/environment: found no variable read in $src"; exit 1; }
readme_table "Run time" > "$tmp/readme-runtime"
readme_table "Compile time" > "$tmp/readme-compiler"
man_environment vastcc.1 > "$tmp/vastcc.1" || failed=1
man_environment vastrun.1 > "$tmp/vastrun.1" || failed=1
sort -u "$tmp/runtime" "$tmp/compiler" > "$tmp/all"
compare "README.md, Run time" "$tmp/runtime" "$tmp/readme-runtime"
compare "README.md, Compile time" "$tmp/compiler" "$tmp/readme-compiler"
compare "vastcc.1, ENVIRONMENT" "$tmp/all" "$tmp/vastcc.1"
compare "vastrun.1, ENVIRONMENT" "$tmp/runtime" "$tmp/vastrun.1"
if [ $failed -ne 0 ]; then
	echo "FAIL: docs/environment"
	exit 1
fi
echo "PASS: docs/environment ($(wc -l < "$tmp/all") variables)"
