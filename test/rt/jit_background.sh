#!/bin/bash
# SPDX-License-Identifier: MIT
# jit_background.sh APP PLAIN VASTCC SRCDIR: vastcc's analysis at
# clBuildProgram runs in the background. The compiler is a wrapper that
# sleeps before it runs vastcc and leaves a file when it got past the
# sleep, so what waits for it shows without timing the program:
#   fits:  every launch fits the budget: clBuildProgram returns, the
#          launches run natively (the plain build's bytes) and the program
#          exits without waiting for the compiler, which is cancelled (it
#          never got past its sleep) and leaves no directory in TMPDIR;
#   pages: at half its data's size a launch pages: it waits for the
#          analysis, then runs in ranges, exact;
#   failed: a compiler that fails after its sleep, a launch that would
#          page (VAST_MODE=paged): that launch tells why, once, and runs
#          natively, exact.
set -u
app=$1 plain=$2 vastcc=$3 src=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cp "$src/jit.cl" "$tmp/" || exit 1
cd "$tmp" || exit 1
unset VAST_JIT VAST_MODE VAST_DEVICE_MEM VAST_LOG VAST_STATS VAST_CACHE
mkdir tmpdir
export TMPDIR=$tmp/tmpdir VAST_CACHE_DIR=$tmp/cache
opts="-D SCALE=2.0f"
"$plain" ref.bin jit.cl "$opts" || { echo "FAIL: plain run"; exit 1; }
# slow-vastcc SECONDS EXIT: sleeps, leaves "past-sleep", then runs vastcc
# (EXIT "run") or fails located in no file of the user's.
cat >slow-vastcc <<EOS
#!/bin/bash
sleep \$SLOW_SECONDS
touch "$tmp/past-sleep"
[ "\$SLOW_FAIL" = 1 ] && { echo "vastcc: error: failing on purpose" >&2; exit 1; }
exec "$vastcc" "\$@"
EOS
chmod +x slow-vastcc

# 1. Every launch fits: nothing waits for the compiler.
rm -f past-sleep
if env VAST_COMPILER="$tmp/slow-vastcc" SLOW_SECONDS=30 SLOW_FAIL=0 VAST_LOG=debug \
	"$app" fits.bin jit.cl "$opts" 2>fits.err && cmp ref.bin fits.bin; then
	if [ -e past-sleep ]; then
		echo "FAIL: fits: the program waited for the compiler though every launch fits"
		cat fits.err; fail=1
	elif ! grep -q 'analysed by vastcc in the background' fits.err; then
		echo "FAIL: fits: the analysis was not started in the background"; cat fits.err; fail=1
	elif [ -n "$(ls tmpdir)" ]; then
		echo "FAIL: fits: the cancelled compile left '$(ls tmpdir)' in TMPDIR"; fail=1
	else
		echo "ok: fits: native, the compile cancelled at exit"
	fi
else
	echo "FAIL: fits: exit status or output"; cat fits.err; fail=1
fi

# 2. A launch that pages waits for the analysis, then pages exactly.
rm -f past-sleep
if env VAST_COMPILER="$tmp/slow-vastcc" SLOW_SECONDS=1 SLOW_FAIL=0 VAST_STATS=kv VAST_CACHE_DIR="$tmp/cache2" \
	VAST_DEVICE_MEM=50% "$app" pages.bin jit.cl "$opts" 2>pages.err && cmp ref.bin pages.bin; then
	r=$(sed -n 's/^vast: kernel vadd .* ranges=\([0-9]*\) .*/\1/p' pages.err)
	if [ ! -e past-sleep ] || [ -z "$r" ] || [ "$r" -lt 2 ] ||
		! grep -qx 'vast: programs jit=1 cache_hits=0' pages.err; then
		echo "FAIL: pages: want the compile finished, vadd paged (ranges='$r'), jit=1"
		cat pages.err; fail=1
	else
		echo "ok: pages: waited for the analysis, ranges=$r"
	fi
else
	echo "FAIL: pages: exit status or output"; cat pages.err; fail=1
fi

# 3. The analysis fails: the launch that needed it says why, once.
rm -f past-sleep
if env VAST_COMPILER="$tmp/slow-vastcc" SLOW_SECONDS=1 SLOW_FAIL=1 VAST_CACHE=0 VAST_MODE=paged \
	"$app" failed.bin jit.cl "$opts" 2>failed.err && cmp ref.bin failed.bin &&
	[ "$(grep -c 'could not be compiled by vastcc: .*failing on purpose' failed.err)" = 1 ]; then
	echo "ok: failed: told once, native"
else
	echo "FAIL: failed: want native bytes and one warning"; cat failed.err; fail=1
fi
exit $fail
