#!/bin/bash
# SPDX-License-Identifier: MIT
# jit_compiler.sh found VASTCC SRCDIR
# jit_compiler.sh trust APP PLAIN VASTCC SRCDIR INSTALL_COMPILER
#
# Which vastcc the runtime runs to compile at clBuildProgram when
# VAST_COMPILER is unset (runtime/program/jit.c, find_compiler).
#
# found: a program vastcc linked, named x.solver (".so" in its name, as
# dladdr reports a static program by its argv[0]), is compiled by the
# vastcc the link recorded, not looked for beside a libvastrt.so it does
# not have: the build tree's bin/ off PATH, nothing in ../bin.
#
# trust: APP (host_vadd.c linked with libvastrt by CMake: no record, so
# PATH is the route) finds a wrapper of VASTCC on PATH. The runtime runs
# only a compiler that no other user could have planted: the file and
# every directory above it owned by root or the user and writable by
# nobody else, a sticky directory (/tmp) excepted. Refused: one warning
# naming it, the program runs natively (PLAIN's bytes), the wrapper never
# runs; so is a link to a trusted one, put in a directory others may write.
# An empty or relative PATH entry (the working directory) is never
# searched. Skipped (77) when INSTALL_COMPILER exists: it comes before PATH.
set -u
mode=$1
shift
tmp=$(cd "$(mktemp -d)" && pwd -P) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
unset VAST_COMPILER VAST_JIT VAST_CACHE VAST_CACHE_MAX VAST_MODE VAST_DEVICE_MEM VAST_LOG
export VAST_CACHE_DIR=$tmp/cache
opts="-D SCALE=2.0f"

if [ "$mode" = found ]; then
	vastcc=$1 src=$2
	bindir=$(cd "$(dirname "$vastcc")" && pwd)
	real=$(realpath "$vastcc")
	mkdir "$tmp/run" && cp "$src/host_vadd.c" "$src/rt_host.h" "$src/jit.cl" "$tmp/run/" || exit 1
	cd "$tmp/run" || exit 1
	cc -o plain host_vadd.c -lOpenCL || { echo "FAIL: cc"; exit 1; }
	"$vastcc" -o x.solver host_vadd.c || { echo "FAIL: vastcc -o x.solver"; exit 1; }
	./plain ref.bin jit.cl "$opts" || { echo "FAIL: plain run"; exit 1; }
	path=$(printf '%s' "$PATH" | tr ':' '\n' | grep -vxF "$bindir" | paste -sd: -)
	if env PATH="$path" VAST_LOG=info VAST_STATS=kv VAST_DEVICE_MEM=50% \
		"$tmp/run/x.solver" out.bin jit.cl "$opts" 2>run.err &&
		cmp ref.bin out.bin && grep -qx 'vast: programs jit=1 cache_hits=0' run.err &&
		grep -q "compiled by '$real'\$" run.err; then
		echo "ok: x.solver compiled by the vastcc that linked it"
	else
		echo "FAIL: x.solver: want 'jit=1 cache_hits=0' and compiled by '$real'"
		cat run.err; fail=1
	fi
	exit $fail
fi

[ "$mode" = trust ] || { echo "usage: jit_compiler.sh found|trust ..." >&2; exit 2; }
app=$1 plain=$2 vastcc=$3 src=$4 installed=$5
if [ -e "$installed" ]; then
	echo "skip: '$installed' comes before PATH"; exit 77
fi
cp "$src/jit.cl" "$tmp/" || exit 1
cd "$tmp" || exit 1
"$plain" ref.bin jit.cl "$opts" || { echo "FAIL: plain run"; exit 1; }
# wrapper DIR: DIR/vastcc, which leaves DIR/ran behind, then runs VASTCC.
wrapper() {
	mkdir -p "$1" && rm -f "$1/ran" &&
		printf '#!/bin/sh\ntouch "%s/ran"\nexec "%s" "$@"\n' "$1" "$vastcc" >"$1/vastcc" &&
		chmod 0755 "$1/vastcc"
}
# run NAME PATH: APP with PATH, natively unless it compiled; its launches
# paged, so that they wait for vastcc's analysis (a program that never
# needs it may exit first, and cancel it).
run() {
	env PATH="$2" VAST_STATS=kv VAST_CACHE=0 VAST_MODE=paged "$app" "$1.bin" jit.cl "$opts" \
		2>"$1.err" &&
		cmp ref.bin "$1.bin" || { echo "FAIL: $1: exit status or output"; cat "$1.err"; fail=1; }
}
# refused NAME DIR WHY: DIR/vastcc not run, one warning naming it and WHY.
refused() {
	if [ -e "$2/ran" ] || grep -q '^vast: programs jit=' "$1.err" ||
		[ "$(grep -c "warning: .*not running '$2/vastcc', .*: $3" "$1.err")" != 1 ]; then
		echo "FAIL: $1: want '$2/vastcc' refused ($3), one warning"; cat "$1.err"; fail=1
	else
		echo "ok: $1 refused"
	fi
}
# ran NAME DIR: DIR/vastcc compiled the program.
ran() {
	if [ -e "$2/ran" ] && grep -qx 'vast: programs jit=1 cache_hits=0' "$1.err"; then
		echo "ok: $1 ran"
	else
		echo "FAIL: $1: want '$2/vastcc' run"; cat "$1.err"; fail=1
	fi
}
sys=/usr/bin:/bin

# A directory anyone may write to (no sticky bit): anyone could have put
# the file there.
wrapper "$tmp/open" && chmod 0777 "$tmp/open"
run open "$tmp/open:$sys"
refused open "$tmp/open" "'$tmp/open' is writable by others"
# The file writable by its group.
wrapper "$tmp/gfile" && chmod 0775 "$tmp/gfile/vastcc"
run gfile "$tmp/gfile:$sys"
refused gfile "$tmp/gfile" "'$tmp/gfile/vastcc' is writable by its group"
# A directory writable by its group, above the one holding the file.
wrapper "$tmp/gdir/bin" && chmod 0775 "$tmp/gdir"
run gdir "$tmp/gdir/bin:$sys"
refused gdir "$tmp/gdir/bin" "'$tmp/gdir' is writable by its group"
# The same, the user's own and writable by nobody else: run. So is one in
# a sticky directory (as /tmp is): others cannot replace what is ours.
chmod 0755 "$tmp/open"
run mine "$tmp/open:$sys"
ran mine "$tmp/open"
wrapper "$tmp/sticky" && chmod 1777 "$tmp/sticky"
run sticky "$tmp/sticky:$sys"
ran sticky "$tmp/sticky"
# A link named vastcc, in a directory anyone may write to, to the user's
# own trusted wrapper: whoever wrote the link chose what runs.
mkdir "$tmp/lnk" && ln -s "$tmp/open/vastcc" "$tmp/lnk/vastcc" && chmod 0777 "$tmp/lnk"
rm -f "$tmp/open/ran"
run lnk "$tmp/lnk:$sys"
if [ -e "$tmp/open/ran" ] || grep -q '^vast: programs jit=' lnk.err ||
	[ "$(grep -c "warning: .*not running '$tmp/lnk/vastcc', .*: '$tmp/lnk' is writable by others" lnk.err)" != 1 ]; then
	echo "FAIL: lnk: want '$tmp/lnk/vastcc' (a link in a directory others write) refused"
	cat lnk.err; fail=1
else
	echo "ok: lnk refused"
fi
# The working directory through an empty or relative PATH entry: never
# searched (the warning says no vastcc was found).
wrapper "$tmp/cwd"
cd "$tmp/cwd" || exit 1
cp ../ref.bin ../jit.cl . || exit 1
for p in ":$sys" "$sys:" ".:$sys" "$sys::/nowhere"; do
	run cwd "$p"
	if [ -e ran ] || ! grep -q 'no vastcc found' cwd.err; then
		echo "FAIL: PATH='$p': the working directory's vastcc run"; cat cwd.err; fail=1
	else
		echo "ok: PATH='$p'"
	fi
	rm -f ran
done
cd .. && wrapper "$tmp/rel/bin"
cd "$tmp/rel" && cp ../ref.bin ../jit.cl . || exit 1
run rel "bin:$sys"
if [ -e bin/ran ]; then
	echo "FAIL: PATH='bin:...': a relative entry searched"; cat rel.err; fail=1
else
	echo "ok: relative PATH entry"
fi
exit $fail
