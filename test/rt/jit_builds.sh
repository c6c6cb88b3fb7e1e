#!/bin/bash
# SPDX-License-Identifier: MIT
# jit_builds.sh PLAIN APP VASTCC SRCDIR: vastcc's analysis of a build
# runs in the background, but must compile what the driver built at
# clBuildProgram, whatever the program does after it returns; and a
# build's analysis replaces the last one's only when that build happens.
# host_builds.c builds jit_header.cl (#include "scale.h", SCALE 2) and
# its vadd pages (at half its data) where it can; PLAIN is it with
# -lOpenCL only (the reference, run the same way), APP with libvastrt and
# no stub of this kernel. The compiler is a wrapper of VASTCC that can sleep first, so
# the program has changed things before it runs, and that can hold the
# preprocessing at clBuildProgram (its run without --emit-json) until
# the program did something meanwhile:
#   later:   scale.h rewritten once the build returned: the analysis,
#            which would read SCALE 3, serves no launch (native, warned);
#   chdir:   the program moves elsewhere: the header is still found, as
#            the driver found it, and vadd pages;
#   both:    both: the driver's bytes;
#   refused: a rebuild refused because a kernel was made meanwhile keeps
#            the last build's analysis: the kernel pages;
#   concurrent: two threads build at once: one analysis stays (pages),
#            the other is freed (under VAST_SANITIZE, LeakSanitizer).
set -u
plain=$1 app=$2 vastcc=$3 src=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cp "$src/jit_header.cl" "$tmp/" || exit 1
cd "$tmp" || exit 1
unset VAST_JIT VAST_DEVICE_MEM VAST_LOG VAST_STATS VAST_CACHE_MAX
mkdir tmpdir
export TMPDIR=$tmp/tmpdir VAST_CACHE_DIR=$tmp/cache VAST_CACHE=0
cat >wrap-vastcc <<EOS
#!/bin/bash
json=0
for a in "\$@"; do case \$a in --emit-json=*) json=1;; esac; done
sleep "\${WRAP_SLEEP:-0}"
if [ \$json = 0 ] && [ "\${WRAP_MODE:-}" = refused ] && ! mkdir "$tmp/cpp-first" 2>/dev/null; then
	# The rebuild's: its kernel is made meanwhile.
	touch "$tmp/cpp-started"
	for i in \$(seq 300); do [ -e "$tmp/kernel-made" ] && break; sleep 0.1; done
elif [ \$json = 0 ] && [ "\${WRAP_MODE:-}" = pair ]; then
	# Both builds' at once.
	touch "$tmp/cpp.\$\$"
	for i in \$(seq 300); do [ \$(ls "$tmp" | grep -c '^cpp\.') -ge 2 ] && break; sleep 0.1; done
fi
exec "$vastcc" "\$@"
EOS
chmod +x wrap-vastcc

# run NAME MODE ENV...: the reference and the runtime's run of MODE (with
# ENV), each from a fresh scale.h (SCALE 2) and no ./elsewhere; 0 when
# both ran and wrote the same bytes.
run() {
	local name=$1 mode=$2
	shift 2
	local args=()
	[ "$mode" = refused ] && args=("$tmp/cpp-started" "$tmp/kernel-made")
	rm -rf elsewhere cpp-first cpp-started kernel-made cpp.*
	echo '#define SCALE 2.0f' >scale.h
	if ! "$plain" "$tmp/$name.ref" jit_header.cl "$mode" 2>"$name.plain.err"; then
		echo "FAIL: $name: the plain run"; cat "$name.plain.err"; fail=1; return 1
	fi
	rm -rf elsewhere cpp-first cpp-started kernel-made cpp.*
	echo '#define SCALE 2.0f' >scale.h
	if ! env VAST_COMPILER="$tmp/wrap-vastcc" VAST_STATS=kv "$@" \
		"$app" "$tmp/$name.bin" jit_header.cl "$mode" "${args[@]}" 2>"$name.err"; then
		echo "FAIL: $name: exit status"; cat "$name.err"; fail=1; return 1
	fi
	if ! cmp "$name.ref" "$name.bin"; then
		echo "FAIL: $name: output differs from the plain run's"; cat "$name.err"; fail=1
		return 1
	fi
}

ranges() {
	sed -n 's/^vast: kernel vadd .* ranges=\([0-9]*\) .*/\1/p' "$1.err"
}

# paged NAME: vadd ran in ranges (never a native run passing for paging).
paged() {
	local r
	r=$(ranges "$1")
	if [ -z "$r" ] || [ "$r" -lt 2 ]; then
		echo "FAIL: $1: kernel vadd ranges='$r', want >= 2"; cat "$1.err"; fail=1; return 1
	fi
	echo "ok: $1 (ranges=$r)"
}

# 1. The header edited after the build: the compile in the background
# would read SCALE 3 (the wrapper sleeps past the edit); the kernels the
# driver built say 2, and so must every launch.
if run later later VAST_MODE=paged WRAP_SLEEP=2; then
	if grep -q 'could not be compiled by vastcc: a file it includes changed after clBuildProgram' later.err; then
		echo "ok: later (native, warned)"
	else
		echo "FAIL: later: want the warning that scale.h changed"; cat later.err; fail=1
	fi
fi
# 2. The program moved elsewhere after the build: the compile runs where
# the build did, finds scale.h, and vadd pages.
run chdir chdir VAST_DEVICE_MEM=50% WRAP_SLEEP=1 && paged chdir
# 3. Both.
run both both VAST_MODE=paged WRAP_SLEEP=2 && echo "ok: both"
# 4. A rebuild refused (a kernel made while it was under way) leaves the
# last build's analysis to its kernels.
if run refused refused VAST_DEVICE_MEM=50% WRAP_MODE=refused; then
	if grep -q '^build again: -59$' refused.err; then
		paged refused
	else
		echo "FAIL: refused: want the rebuild refused (-59)"; cat refused.err; fail=1
	fi
fi
# 5. Two builds at once: each one's analysis replaces the last one's.
if run concurrent concurrent VAST_DEVICE_MEM=50% WRAP_MODE=pair; then
	if [ "$(grep -c '^build [12]: 0$' concurrent.err)" = 2 ]; then
		paged concurrent
	else
		echo "FAIL: concurrent: want both builds done"; cat concurrent.err; fail=1
	fi
fi
exit $fail
