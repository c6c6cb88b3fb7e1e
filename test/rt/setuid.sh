#!/bin/bash
# SPDX-License-Identifier: MIT
# setuid.sh APP PLAIN JIT.cl: a set-user-ID or set-group-ID program linked
# with the runtime takes nothing from the environment of the user who runs
# it. Otherwise that user's VAST_COMPILER would run as the program's owner,
# and VAST_TRACE and VAST_CACHE_DIR would write where the owner may. APP is
# host_vadd.c linked with the runtime, PLAIN the same with -lOpenCL only;
# JIT.cl has no stub in APP, so building it runs the compiler.
# As root: copies of APP and PLAIN owned by a user the test creates, run
# with VAST_COMPILER naming a script that leaves a marker file, VAST_TRACE
# and VAST_CACHE_DIR:
#   control: APP without the set-ID bits, run by nobody, runs the script
#     and writes the trace (the test sees the runtime take the environment);
#   setgid (by nobody), setuid (by root, by nobody): no marker, no trace,
#     no cache, one warning, and what PLAIN does with the same bits: its
#     bytes. (PoCL's clang checks with access(2), as the real user, the
#     files it made as the owner, so with PoCL as the device a program
#     set-user-ID to someone else than the real user, root aside, cannot
#     build kernels: APP must then fail as PLAIN does. Built with ASan,
#     both exit 1 after writing their output: LeakSanitizer cannot stop
#     the world in an undumpable, set-ID, process.)
# Skips (77) when not root.
set -u
app=$1 plain=$2 jitcl=$3
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: needs root (useradd, chown, setpriv)"; exit 77
fi
for tool in useradd userdel setpriv; do
	command -v $tool >/dev/null || { echo "FAIL: no $tool"; exit 1; }
done
owner=vastsuid$$
nobody=$(id -u nobody) nogroup=$(id -g nobody) || { echo "FAIL: no user nobody"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; userdel "$owner" 2>/dev/null' EXIT
useradd --system --no-create-home --shell /usr/sbin/nologin --user-group "$owner" ||
	{ echo "FAIL: useradd $owner"; exit 1; }
chmod 755 "$tmp"
cp "$jitcl" "$tmp/jit.cl" && cp "$app" "$tmp/app" && cp "$plain" "$tmp/plain" || exit 1
cat >"$tmp/fake-vastcc" <<EOF
#!/bin/sh
touch "$tmp/out/\$(id -un)-ran-the-compiler"
exit 1
EOF
chmod 755 "$tmp/fake-vastcc" "$tmp/app" "$tmp/plain"
chmod 644 "$tmp/jit.cl"
# Everyone writes here: the real user, and the one the program runs as.
mkdir -m 1777 "$tmp/out"
opts="-D SCALE=3.0f"
unset VAST_JIT VAST_CACHE VAST_MODE VAST_DEVICE_MEM VAST_LOG VAST_STATS
"$tmp/plain" "$tmp/ref.bin" "$tmp/jit.cl" "$opts" || { echo "FAIL: plain run"; exit 1; }
fail=0

# run NAME PROG BITS USER AS: PROG with mode BITS run by user AS (its
# effective user USER), with the environment that must not count. PoCL's
# cache is USER's.
# VAST_MODE=paged: the control waits for the compile it starts (one that
# nothing needs is cancelled at exit).
run() {
	local name=$1 prog=$2 bits=$3 user=$4 as=$5 asgroup=$nogroup
	[ "$as" = 0 ] && asgroup=0
	chmod "$bits" "$tmp/$prog" || return 1
	mkdir -m 755 "$tmp/out/$name-pocl" && chown "$user" "$tmp/out/$name-pocl" || return 1
	setpriv --reuid="$as" --regid="$asgroup" --clear-groups -- \
		env VAST_COMPILER="$tmp/fake-vastcc" VAST_CACHE_DIR="$tmp/out/$name-cache" VAST_MODE=paged \
		VAST_TRACE="$tmp/out/$name-trace.json" HOME="$tmp/out" \
		POCL_CACHE_DIR="$tmp/out/$name-pocl" \
		"$tmp/$prog" "$tmp/out/$name.bin" "$tmp/jit.cl" "$opts" 2>"$tmp/$name.err"
}

if ! run control app 755 "$nobody" "$nobody" || ! cmp -s "$tmp/ref.bin" "$tmp/out/control.bin"; then
	echo "FAIL: control: exit status or output"; cat "$tmp/control.err"; exit 1
fi
if ! ls "$tmp/out/"*-ran-the-compiler >/dev/null 2>&1 || [ ! -s "$tmp/out/control-trace.json" ]; then
	echo "FAIL: control: the runtime did not run VAST_COMPILER or write VAST_TRACE: nothing to observe"
	cat "$tmp/control.err"; exit 1
fi
rm -f "$tmp/out/"*-ran-the-compiler
echo "ok: control: the plain build's bytes, VAST_COMPILER ran, VAST_TRACE written"

chown "$owner:$owner" "$tmp/app" "$tmp/plain"
# NAME:BITS:EFFECTIVE-USER:REAL-USER
for c in setgid:2755:$nobody:$nobody setuid-by-root:4755:$owner:0 \
         setuid:4755:$owner:$nobody; do
	IFS=: read -r name bits user as <<<"$c"
	run "$name-plain" plain "$bits" "$user" "$as"
	want=$?
	run "$name" app "$bits" "$user" "$as"
	got=$?
	bad=0
	if [ $got != $want ]; then
		echo "FAIL: $name: exit status $got, the plain build's $want"; bad=1
	elif [ -e "$tmp/out/$name-plain.bin" ] && ! cmp -s "$tmp/ref.bin" "$tmp/out/$name.bin"; then
		echo "FAIL: $name: output differs"; bad=1
	fi
	if ls "$tmp/out/"*-ran-the-compiler >/dev/null 2>&1; then
		echo "FAIL: $name: VAST_COMPILER ran: $(ls "$tmp/out/" | grep -- -ran-the-compiler)"; bad=1
	fi
	for f in "$name-trace.json" "$name-cache"; do
		[ -e "$tmp/out/$f" ] && { echo "FAIL: $name: wrote $f"; bad=1; }
	done
	n=$(grep -c '^vast: warning: a set-user-ID or set-group-ID program' "$tmp/$name.err")
	[ "$n" = 1 ] || { echo "FAIL: $name: $n set-ID warnings, want 1"; bad=1; }
	if [ $bad = 1 ]; then
		cat "$tmp/$name.err"; fail=1
	elif [ -e "$tmp/out/$name-plain.bin" ]; then
		echo "ok: $name: exit status $got and bytes as the plain build's; $(grep '^vast: ' "$tmp/$name.err")"
	else
		echo "ok: $name: exit status $got as the plain build's, which wrote nothing; $(grep '^vast: ' "$tmp/$name.err")"
	fi
	rm -f "$tmp/out/"*-ran-the-compiler
done
exit $fail
