#!/bin/bash
# SPDX-License-Identifier: MIT
# cache_home.sh APP VASTCC SRCDIR: the test setup keeps the runtime's cache
# out of the user's home. ctest runs every test with VAST_CACHE_DIR in the
# build tree (test/CMakeLists.txt, as lit.cfg.py does for lit), so a test
# that compiles at clBuildProgram and sets no cache directory of its own
# must not write ~/.cache/vastcc. This one is such a test: APP builds
# jit.cl, which it has no stub for, with HOME an empty directory and no
# XDG_CACHE_HOME; nothing of vastcc's lands there (the OpenCL driver may
# keep its own cache there: PoCL's ~/.cache/pocl) and the entry is in
# $VAST_CACHE_DIR.
set -u
app=$1 vastcc=$2 src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$src/jit.cl" "$tmp/" || exit 1
cd "$tmp" || exit 1
mkdir home
unset XDG_CACHE_HOME VAST_JIT VAST_CACHE VAST_MODE VAST_DEVICE_MEM
if [ -z "${VAST_CACHE_DIR:-}" ]; then
	echo "FAIL: the test environment sets no VAST_CACHE_DIR"
fi
if ! env HOME="$tmp/home" VAST_COMPILER="$vastcc" VAST_STATS=kv VAST_MODE=paged "$app" out.bin jit.cl \
	"-D SCALE=$$.0f" 2>run.err; then
	echo "FAIL: exit status"; cat run.err; exit 1
fi
grep -q '^vast: programs jit=1 ' run.err || { echo "FAIL: nothing compiled"; cat run.err; exit 1; }
left=$(cd home && find . -path '*vastcc*' -o -name '*.vc')
if [ -n "$left" ]; then
	echo "FAIL: the run wrote the cache in HOME:"; echo "$left"; exit 1
fi
[ -n "${VAST_CACHE_DIR:-}" ] && ls "$VAST_CACHE_DIR"/*.vc >/dev/null 2>&1 ||
	{ echo "FAIL: no entry in VAST_CACHE_DIR='${VAST_CACHE_DIR:-}'"; exit 1; }
echo "ok: compiled and cached in VAST_CACHE_DIR, HOME untouched"
