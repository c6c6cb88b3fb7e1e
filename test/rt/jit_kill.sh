#!/bin/bash
# SPDX-License-Identifier: MIT
# jit_kill.sh APP VASTCC SRCDIR: a program killed (SIGKILL) while vastcc
# compiles its kernels at clBuildProgram takes the compiler with it, and
# the private directory it was compiling in (under $TMPDIR, which holds
# the program's source) is removed by the next program that compiles.
# The compiler is a wrapper that records its pid, then waits for this
# script's word before it runs vastcc: the kill always lands mid-compile,
# with no timing to guess. Its launches are paged, so that the program
# waits for the compile (one that never needs it cancels it at exit).
set -u
app=$1 vastcc=$2 src=$3
tmp=$(mktemp -d)
trap 'touch "$tmp/go"; rm -rf "$tmp"' EXIT
fail=0
cp "$src/jit.cl" "$tmp/" || exit 1
cd "$tmp" || exit 1
unset VAST_JIT VAST_MODE VAST_DEVICE_MEM
mkdir tmpdir
export TMPDIR=$tmp/tmpdir VAST_CACHE=0 VAST_CACHE_DIR=$tmp/cache
cat >slow-vastcc <<EOS
#!/bin/bash
echo \$\$ >"$tmp/compiler.pid"
while [ ! -e "$tmp/go" ]; do sleep 0.05; done
exec "$vastcc" "\$@"
EOS
chmod +x slow-vastcc

# Whether pid $1 is gone: no such process, or a zombie (killed; the
# process that adopted it has not reaped it yet).
gone() {
	local st
	st=$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$1/status" 2>/dev/null)
	[ -z "$st" ] || [ "$st" = Z ]
}

VAST_COMPILER="$tmp/slow-vastcc" VAST_MODE=paged "$app" killed.bin jit.cl "-D SCALE=2.0f" 2>killed.err &
prog=$!
for _ in $(seq 1200); do [ -s compiler.pid ] && break; sleep 0.05; done
if [ ! -s compiler.pid ]; then
	echo "FAIL: the program never started the compiler"; cat killed.err; kill -9 $prog; exit 1
fi
compiler=$(cat compiler.pid)
kill -9 $prog
wait $prog 2>/dev/null
# The compiler gets SIGKILL as its parent dies; a generous bound for the
# kernel to deliver it.
for _ in $(seq 200); do gone "$compiler" && break; sleep 0.05; done
if gone "$compiler"; then
	echo "ok: the compiler died with the program"
else
	echo "FAIL: the compiler (pid $compiler) outlived the program killed mid-compile"
	ps -o pid,ppid,stat,args -p "$compiler"; fail=1
fi
touch go
left=$(ls tmpdir)
case $left in
vastcc-jit-*) ;;
*) echo "FAIL: want the killed program's directory in TMPDIR, have '$left'"; fail=1 ;;
esac
# The next program that compiles removes it (its owner is dead), and
# leaves nothing of its own.
if env VAST_COMPILER="$vastcc" VAST_STATS=kv VAST_MODE=paged "$app" next.bin jit.cl "-D SCALE=2.0f" 2>next.err &&
	grep -qx 'vast: programs jit=1 cache_hits=0' next.err; then
	if [ -z "$(ls tmpdir)" ]; then
		echo "ok: the next compile removed '$left'"
	else
		echo "FAIL: left in TMPDIR after the next compile: $(ls tmpdir)"; fail=1
	fi
else
	echo "FAIL: the next program did not compile"; cat next.err; fail=1
fi
# A directory of a program still compiling is never taken: a compile of
# another program runs while one waits in the wrapper.
rm -f go compiler.pid
VAST_COMPILER="$tmp/slow-vastcc" VAST_MODE=paged "$app" waiting.bin jit.cl "-D SCALE=3.0f" 2>waiting.err &
prog=$!
for _ in $(seq 1200); do [ -s compiler.pid ] && break; sleep 0.05; done
busy=$(ls tmpdir)
env VAST_COMPILER="$vastcc" VAST_MODE=paged "$app" other.bin jit.cl "-D SCALE=2.0f" 2>other.err
if [ -n "$busy" ] && [ "$(ls tmpdir)" = "$busy" ]; then
	echo "ok: a live compile's directory stays"
else
	echo "FAIL: want '$busy' kept while its program compiles, have '$(ls tmpdir)'"; fail=1
fi
touch go
if ! wait $prog || ! grep -q . waiting.bin; then
	echo "FAIL: the waiting program"; cat waiting.err; fail=1
fi
exit $fail
