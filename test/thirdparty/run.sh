#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# run.sh - one third-party program through one route into vastcc, compared
# byte for byte with the program's native run (issue 11, "Checks").
#
#   VAST_BUILD=build bash test/thirdparty/run.sh PROGRAM ROUTE
#
# PROGRAM is a directory here (sgemm, scan, fir, atx): a host program with
# its own Makefile that never names vastcc nor a .cl file, loading its
# kernels at run time and building them with -D options. The program is
# copied to a temporary directory (the sources stay untouched), built with
# plain `make` and run natively; then, for ROUTE:
#
#   native  nothing more: the plain build must run and write its output
#   vastrun the plain build again, run under $VAST_BUILD/bin/vastrun
#   make-cc `make CC=vastcc` (C) or `make CXX=vastc++` (C++), the build
#           tree's bin/ first on PATH: kernels compiled at clBuildProgram
#   aot     (C programs) the kernel source compiled ahead of time with
#           `vastcc -c --cl-options=...` and the object added to the link
#           through a variable the Makefile already uses (LDLIBS, LDFLAGS);
#           run with VAST_JIT=0, so only the ahead-of-time stub can page it
#
# Every route but native runs at VAST_DEVICE_MEM=50% with VAST_STATS=kv: the
# output must equal the native one (cmp), and every kernel of the program
# must have run in two ranges or more (a quiet native run is no pass). The
# compile-at-build cache lives in the temporary directory (XDG_CACHE_HOME),
# so runs never share it. A route whose tool is missing fails, naming it.
#
# Environment: VAST_BUILD (required), VAST_THIRDPARTY_TIMEOUT (seconds per
# run, default 120), VAST_THIRDPARTY_KEEP=1 (keep the directory),
# VAST_THIRDPARTY_CORRUPT=1 (flip a byte of the route's output before the
# comparison: corrupt.sh's test that the harness catches a difference).
set -u

[ $# -eq 2 ] || { echo "usage: run.sh PROGRAM native|vastrun|make-cc|aot" >&2; exit 2; }
me="thirdparty/$1/$2"
prog=$1
route=$2
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname "$0")/common.sh"

case $route in
native) ;;
vastrun)
	need vastrun "the launcher of unmodified binaries, issue 11 item 2"
	need ../lib/libvastrt.so "the shared runtime vastrun preloads" ;;
make-cc)
	if [ "$lang" = c ]; then
		need vastcc "the driver"
	else
		need vastc++ "the C++ driver, issue 11 item 3"
	fi ;;
aot)
	[ "$lang" = c ] || fail "the aot route is for the C programs; '$prog' is C++"
	need vastcc "the driver" ;;
*) fail "unknown route '$route' (native, vastrun, make-cc, aot)" ;;
esac

# Extracts the kernel source as the program passes it to
# clCreateProgramWithSource: a file as it is, or a C string literal's
# value (concatenated pieces; \n, \t, \", \\ escapes).
kernel_file() { # OUT.cl
	case $kernel_src in
	file:*) cp "$src/${kernel_src#file:}" "$1" ;;
	string:*)
		local spec=${kernel_src#string:}
		python3 - "$src/${spec%%:*}" "${spec#*:}" "$1" <<'EOF'
import ast, re, sys
text = open(sys.argv[1]).read()
m = re.search(r'\b' + sys.argv[2] + r'\s*=((?:\s*"(?:[^"\\\n]|\\.)*")+)\s*;', text)
if not m:
    sys.exit("no string literal '%s' in %s" % (sys.argv[2], sys.argv[1]))
pieces = re.findall(r'"((?:[^"\\\n]|\\.)*)"', m.group(1))
open(sys.argv[3], "w").write("".join(ast.literal_eval('"' + p + '"') for p in pieces))
EOF
		;;
	esac
}

# --- the native reference ----------------------------------------------------
build "$tmp/native" || fail "plain make failed"
run native "$tmp/native"
bytes=$(stat -c %s "$tmp/native.out")
if [ "$route" = native ]; then
	note "native run wrote $bytes bytes"
	note "PASS"
	exit 0
fi

# --- the route -----------------------------------------------------------------
env=(VAST_DEVICE_MEM=50% VAST_STATS=kv)
launcher=()
case $route in
vastrun)
	build "$tmp/route" || fail "plain make failed"
	launcher=("$bin/vastrun")
	;;
make-cc)
	if [ "$lang" = c ]; then
		PATH="$bin:$PATH" build "$tmp/route" CC=vastcc || fail "make CC=vastcc failed"
	else
		PATH="$bin:$PATH" build "$tmp/route" CXX=vastc++ || fail "make CXX=vastc++ failed"
	fi
	;;
aot)
	kernel_file "$tmp/$prog.kernels.cl" || fail "cannot extract the kernel source ($kernel_src)"
	"$bin/vastcc" -c --cl-options="$cl_options" "$tmp/$prog.kernels.cl" \
		-o "$tmp/$prog.kernels.o" 2>"$tmp/aot.err" ||
		{ cat "$tmp/aot.err" >&2; fail "vastcc -c of the kernel source failed"; }
	# The object is the runtime's only way to page this program.
	build "$tmp/route" CC="$bin/vastcc" "$link_var=$tmp/$prog.kernels.o" ||
		fail "make CC=vastcc $link_var=$prog.kernels.o failed"
	env+=(VAST_JIT=0)
	;;
esac
run "$route" "$tmp/route" env "${env[@]}" ${launcher[@]+"${launcher[@]}"}

exact_and_paged "$route"
note "PASS"
