#!/bin/bash
# SPDX-License-Identifier: MIT
# jit.sh VASTCC SRCDIR: compile at clBuildProgram (issue 11 item 1).
# host_vadd.c reads its kernel file at run time and builds it with -D
# options; linked by `vastcc host_vadd.c` with no .cl, vastcc never saw
# the kernels. Each run must write the bytes of the plain build (cc,
# -lOpenCL) and, at half the data's size, page (ranges >= 2). How the
# test observes the runtime: VAST_STATS's line "vast: programs jit=N
# cache_hits=H" (programs compiled at build, and how many of them came
# from the on-disk cache) and its "vast: kernel" lines.
set -u
vastcc=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cp "$src/host_vadd.c" "$src/rt_host.h" "$src/jit.cl" "$src/jit_error.cl" "$tmp/" || exit 1
cd "$tmp" || exit 1
unset VAST_COMPILER VAST_JIT VAST_CACHE VAST_CACHE_MAX VAST_MODE VAST_DEVICE_MEM
export VAST_CACHE_DIR=$tmp/cache
opts="-D SCALE=2.0f"
cc -o plain host_vadd.c -lOpenCL || { echo "FAIL: cc"; exit 1; }
"$vastcc" -o app host_vadd.c || { echo "FAIL: vastcc host_vadd.c"; exit 1; }
# A stub compiled ahead of time for SCALE=2: a build with SCALE=3 is
# another program (it used to run natively, now it is compiled at build).
"$vastcc" --cl-options="$opts" -o aot host_vadd.c jit.cl || { echo "FAIL: vastcc jit.cl"; exit 1; }
./plain ref2.bin jit.cl "$opts" || { echo "FAIL: plain run"; exit 1; }
./plain ref3.bin jit.cl "-D SCALE=3.0f" || { echo "FAIL: plain run"; exit 1; }

# check NAME REF EXPECT-JIT-LINE PROG OPTS [ENV...]: runs PROG at a 50%
# budget; same bytes as REF, the vadd kernel paged, VAST_STATS's jit line.
check() {
	local name=$1 ref=$2 want=$3 prog=$4 o=$5; shift 5
	if ! env "$@" VAST_STATS=kv VAST_DEVICE_MEM=50% "./$prog" "$name.bin" jit.cl "$o" \
		2>"$name.err"; then
		echo "FAIL: $name: exit status"; cat "$name.err"; fail=1; return
	fi
	if ! cmp "$ref" "$name.bin"; then
		echo "FAIL: $name: output differs"; cat "$name.err"; fail=1; return
	fi
	local r
	r=$(sed -n 's/^vast: kernel vadd .* ranges=\([0-9]*\) .*/\1/p' "$name.err")
	if [ -z "$r" ] || [ "$r" -lt 2 ]; then
		echo "FAIL: $name: kernel vadd ranges='$r', want >= 2"; cat "$name.err"; fail=1
	fi
	if ! grep -qx "vast: programs $want" "$name.err"; then
		echo "FAIL: $name: want 'vast: programs $want'"; cat "$name.err"; fail=1; return
	fi
	echo "ok: $name ($want, ranges=$r)"
}

# 1. An empty cache: compiled by the vastcc named in VAST_COMPILER.
check first ref2.bin "jit=1 cache_hits=0" app "$opts" VAST_COMPILER="$vastcc"
ls cache/*.vc >/dev/null 2>&1 || { echo "FAIL: first: nothing in the cache"; fail=1; }
# 2. Again: from the cache; the compiler found without VAST_COMPILER (the
# vastcc that linked the program, which the link records).
check second ref2.bin "jit=1 cache_hits=1" app "$opts"
# 3. The options of the AOT stub: the stub serves, nothing compiled.
if env VAST_STATS=kv VAST_DEVICE_MEM=50% ./aot stub.bin jit.cl "$opts" 2>stub.err &&
	cmp ref2.bin stub.bin && ! grep -q '^vast: programs' stub.err &&
	grep -q '^vast: kernel vadd .* ranges=[2-9]' stub.err; then
	echo "ok: stub"
else
	echo "FAIL: stub: the AOT stub's own options"; cat stub.err; fail=1
fi
# 4. Other options than the AOT stub's: compiled at build, paged.
check other ref3.bin "jit=1 cache_hits=0" aot "-D SCALE=3.0f" VAST_COMPILER="$vastcc"
# 5. VAST_CACHE=0: compiled, nothing written.
check nocache ref3.bin "jit=1 cache_hits=0" app "-D SCALE=3.0f" VAST_CACHE=0 \
	VAST_CACHE_DIR="$tmp/nocache"
[ -e nocache ] && { echo "FAIL: nocache: VAST_CACHE=0 wrote '$tmp/nocache'"; fail=1; }
# 6. VAST_JIT=0: no compiling at build, so no paging (as before): the
# launch at half its data's size fails or runs natively, never paged.
env VAST_JIT=0 VAST_STATS=kv VAST_DEVICE_MEM=50% ./app nojit.bin jit.cl "$opts" 2>nojit.err
if grep -q '^vast: programs' nojit.err || grep -q '^vast: kernel vadd .* ranges=[1-9]' nojit.err; then
	echo "FAIL: nojit: compiled or paged with VAST_JIT=0"; cat nojit.err; fail=1
else
	echo "ok: nojit"
fi
# 7. No compiler: native (the data fits), one warning that says why, by
# the first launch that would page (VAST_MODE=paged), which waits for it.
if env VAST_COMPILER=/nonexistent/vastcc VAST_CACHE=0 VAST_MODE=paged ./app nocc.bin jit.cl "$opts" 2>nocc.err &&
	cmp ref2.bin nocc.bin && [ "$(grep -c 'could not be compiled by vastcc' nocc.err)" = 1 ]; then
	echo "ok: nocc"
else
	echo "FAIL: nocc: want native bytes and one warning"; cat nocc.err; fail=1
fi
# 8. A syntax error: CL_BUILD_PROGRAM_FAILURE (-11), the build log holds
# vastcc's diagnostic at the program's line and column, no temp path.
env VAST_COMPILER="$vastcc" ./app err.bin jit_error.cl "$opts" 2>err.err
line=$(grep -n 'get_global_id(0)$' jit_error.cl | cut -d: -f1)
if grep -q '^build failed: -11$' err.err && grep -Eq "^program\.cl:$line:[0-9]+: error: " err.err &&
	! grep -q 'vastcc-jit-' err.err; then
	echo "ok: syntax error"
else
	echo "FAIL: syntax error: want -11 and 'program.cl:$line:COL: error:'"; cat err.err; fail=1
fi
# 8b. The same from a program whose stdin and stdout are closed (a
# daemon's): the compiler's descriptors must not land on 0-2 and clobber
# each other (its /dev/null stdout on 0, its stderr file on 1, then
# dup2(0, 1) sent the diagnostics to /dev/null and the build ran natively).
env VAST_COMPILER="$vastcc" ./app closed.bin jit_error.cl "$opts" <&- >&- 2>closed.err
if grep -q '^build failed: -11$' closed.err && grep -Eq "^program\.cl:$line:[0-9]+: error: " closed.err
then
	echo "ok: syntax error, stdin and stdout closed"
else
	echo "FAIL: syntax error, stdin and stdout closed: want -11 and 'program.cl:$line:COL: error:'"
	cat closed.err; fail=1
fi
# 9. A generated program the driver cannot build (a compiler standing in
# for a generator's bug): the original kernels build and run natively;
# nothing is said while no launch pages (the variants are never built),
# one warning with the driver's log when one would (VAST_MODE=paged).
cat >broken-vastcc <<EOF
#!/bin/bash
"$vastcc" "\$@" || exit
for a; do case \$a in --emit-json=*) out=\${a#--emit-json=};; esac; done
python3 - "\$out" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["generated_source"] += "\n#error broken on purpose\n"
del doc["checksum"]
# sealed again as vastcc seals (vast/stub.h): FNV-1a of what precedes it
body = json.dumps(doc, indent="\t").encode()[:-2]
h = 14695981039346656037
for b in body:
    h = ((h ^ b) * 1099511628211) & (2**64 - 1)
open(sys.argv[1], "wb").write(body + b',\n\t"checksum":\t"0x%016x"\n}\n' % h)
PY
EOF
chmod +x broken-vastcc
if env VAST_COMPILER="$tmp/broken-vastcc" VAST_CACHE=0 ./app broken.bin jit.cl "$opts" 2>broken.err &&
	cmp ref2.bin broken.bin && ! grep -q "warning" broken.err; then
	echo "ok: broken, nothing pages"
else
	echo "FAIL: broken, nothing pages: want native bytes and no warning"; cat broken.err; fail=1
fi
if env VAST_COMPILER="$tmp/broken-vastcc" VAST_CACHE=0 VAST_MODE=paged ./app broken.bin jit.cl "$opts" \
	2>broken.err && cmp ref2.bin broken.bin &&
	[ "$(grep -c "warning: program 'program.cl': the variants vastcc generated do not build" broken.err)" = 1 ] &&
	grep -q "broken on purpose" broken.err; then
	echo "ok: broken, a launch would page"
else
	echo "FAIL: broken, a launch would page: want native bytes and one warning with the build log"
	cat broken.err; fail=1
fi
# 10. A compiler that fails with an error located in no file of the
# user's: the command line (a device macro the runtime passed) or a
# header of clang's own. Not the source's error: the program runs
# natively with one warning, the build does not fail.
for where in '<command line>:1:9' '/usr/lib/llvm/lib/clang/19/include/opencl-c-base.h:12:3'; do
	printf '#!/bin/bash\necho "%s: error: not in the program" >&2\nexit 1\n' "$where" >sysfail-vastcc
	chmod +x sysfail-vastcc
	if env VAST_COMPILER="$tmp/sysfail-vastcc" VAST_CACHE=0 VAST_MODE=paged ./app sysfail.bin jit.cl "$opts" \
		2>sysfail.err && cmp ref2.bin sysfail.bin &&
		[ "$(grep -c 'could not be compiled by vastcc' sysfail.err)" = 1 ]; then
		echo "ok: compiler error at '$where'"
	else
		echo "FAIL: compiler error at '$where': want native bytes and one warning"
		cat sysfail.err; fail=1
	fi
done
# 11. flock fails (ENOLCK, from a preloaded shim): the runtime cannot
# keep a private directory, so the program runs natively with one
# warning, and the directories it made and could not lock (101 of them)
# are removed, not left in TMPDIR. Not under ASan, whose runtime must be
# the first library loaded.
if ldd ./app | grep -q libasan; then
	echo "skip: flock fails (an ASan build)"
else
	printf '#include <errno.h>\nint flock(int fd, int op) { (void)fd; (void)op; errno = ENOLCK; return -1; }\n' >noflock.c
	cc -shared -fPIC -o noflock.so noflock.c || { echo "FAIL: cc noflock.c"; exit 1; }
	mkdir flocktmp
	if env TMPDIR="$tmp/flocktmp" LD_PRELOAD="$tmp/noflock.so" VAST_COMPILER="$vastcc" VAST_CACHE=0 VAST_MODE=paged \
		./app noflock.bin jit.cl "$opts" 2>noflock.err && cmp ref2.bin noflock.bin &&
		[ "$(grep -c 'could not be compiled by vastcc: cannot keep a directory' noflock.err)" = 1 ] &&
		[ -z "$(ls flocktmp)" ]; then
		echo "ok: flock fails"
	else
		echo "FAIL: flock fails: want native bytes, one warning, and TMPDIR empty:"
		ls flocktmp | head -3; echo "($(ls flocktmp | wc -l) entries)"; cat noflock.err; fail=1
	fi
fi
exit $fail
