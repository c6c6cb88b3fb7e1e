#!/bin/bash
# SPDX-License-Identifier: MIT
# jit_headers.sh PLAIN APP VASTCC SRCDIR: a kernel compiled at
# clBuildProgram that includes a header (jit_header.cl: #include
# "scale.h"). A device compiler searches the program's working directory,
# then the build's -I options: the compile at build must find the same
# header, report the header's own errors, and the cache must follow what
# the header says now. PLAIN is host_vadd.c built with -lOpenCL only (the
# reference), APP the same host with libvastrt and no stub of this
# kernel, so every build of it is compiled by VASTCC.
set -u
plain=$1 app=$2 vastcc=$3 src=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cp "$src/jit_header.cl" "$tmp/" || exit 1
cd "$tmp" || exit 1
unset VAST_JIT VAST_CACHE VAST_CACHE_MAX VAST_MODE VAST_DEVICE_MEM
export VAST_CACHE_DIR=$tmp/cache VAST_COMPILER=$vastcc TMPDIR=$tmp

# check NAME OPTS WANT-JIT-LINE: the reference's bytes at a budget of half
# the data, the vadd kernel paged (ranges >= 2: never a native run passing
# for paging), and VAST_STATS's "vast: programs" line.
check() {
	local name=$1 o=$2 want=$3
	if ! "$plain" "$name.ref" jit_header.cl "$o" 2>"$name.plain.err"; then
		echo "FAIL: $name: the plain build"; cat "$name.plain.err"; fail=1; return
	fi
	if ! env VAST_STATS=kv VAST_DEVICE_MEM=50% "$app" "$name.bin" jit_header.cl "$o" \
		2>"$name.err"; then
		echo "FAIL: $name: exit status"; cat "$name.err"; fail=1; return
	fi
	if ! cmp "$name.ref" "$name.bin"; then
		echo "FAIL: $name: output differs from the plain build's"; cat "$name.err"; fail=1
		return
	fi
	local r
	r=$(sed -n 's/^vast: kernel vadd .* ranges=\([0-9]*\) .*/\1/p' "$name.err")
	if [ -z "$r" ] || [ "$r" -lt 2 ]; then
		echo "FAIL: $name: kernel vadd ranges='$r', want >= 2"; cat "$name.err"; fail=1; return
	fi
	if ! grep -qx "vast: programs $want" "$name.err"; then
		echo "FAIL: $name: want 'vast: programs $want'"; cat "$name.err"; fail=1; return
	fi
	echo "ok: $name ($want, ranges=$r)"
}

# 1. scale.h beside the program, no -I: the device compiler finds it in
# the working directory, so must vastcc (the source it compiles is a
# private copy elsewhere).
echo '#define SCALE 2.0f' >scale.h
check cwd "" "jit=1 cache_hits=0"
check cwd_again "" "jit=1 cache_hits=1"

# 2. The header through -I, edited between runs: the next run compiles
# the new text (the cache entry of the old one does not serve), then the
# new entry serves.
mkdir inc && echo '#define SCALE 3.0f' >inc/scale.h && rm scale.h
check inc "-I inc" "jit=1 cache_hits=0"
echo '#define SCALE 5.0f' >inc/scale.h
check inc_edited "-I inc" "jit=1 cache_hits=0"
check inc_edited_again "-I inc" "jit=1 cache_hits=1"
cmp -s inc.ref inc_edited.ref && { echo "FAIL: the edit changed nothing natively"; fail=1; }

# 3. A scale.h appears in the working directory, searched before -I inc:
# the device compiler takes it, and so must the compile at build, though
# inc/scale.h is unchanged.
echo '#define SCALE 7.0f' >scale.h
check shadowed "-I inc" "jit=1 cache_hits=0"

# 4. A header with a syntax error: the build fails as the driver's does
# (-11), and the build log holds the header's own diagnostic at its line,
# not "file not found" nor a private path.
printf '#define SCALE 2.0f\nfloat broken(float x) { return x +; }\n' >scale.h
env VAST_STATS=kv "$app" bad.bin jit_header.cl "" 2>bad.err
if grep -q '^build failed: -11$' bad.err && grep -Eq '^(\./)?scale\.h:2:[0-9]+: error: ' bad.err &&
	! grep -q 'not found' bad.err && ! grep -q 'vastcc-jit-' bad.err; then
	echo "ok: header error"
else
	echo "FAIL: header error: want -11 and 'scale.h:2:COL: error:' in the build log"
	cat bad.err; fail=1
fi
# 5. The same header error in a header found through an absolute -I
# directory outside the working directory: still the source's error
# (-11, the header's diagnostic), though its path is absolute, as clang's
# own headers' are (whose errors are the compiler's: rt/jit step 10).
rm scale.h
printf '#define SCALE 2.0f\nfloat broken(float x) { return x +; }\n' >inc/scale.h
mkdir work && cp jit_header.cl work/
(cd work && env VAST_STATS=kv "$app" ../badinc.bin jit_header.cl "-I $tmp/inc") 2>badinc.err
# vastcc's diagnostic, not the driver's after a fall back to native.
if grep -q '^build failed: -11$' badinc.err && grep -Eq "^$tmp/inc/scale\.h:2:[0-9]+: error: " badinc.err &&
	! grep -q 'vastcc-jit-\|could not be compiled' badinc.err; then
	echo "ok: header error through an absolute -I"
else
	echo "FAIL: header error through an absolute -I: want -11 and '$tmp/inc/scale.h:2:COL: error:'"
	cat badinc.err; fail=1
fi
exit $fail
