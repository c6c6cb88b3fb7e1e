#!/bin/bash
# SPDX-License-Identifier: MIT
# apicodes.sh PLAIN VAST SRCDIR, or apicodes.sh --vastcc VASTCC SRCDIR:
# host_apicodes built plain and with the runtime (a hand-written stub, or
# vastcc's) must return the same OpenCL codes and compute the same bytes;
# with the runtime, released handles must give the spec's codes, and
# clCompileProgram on a runtime program must not crash.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "$1" = --vastcc ]; then
	src=$3
	cp "$src/host_apicodes.c" "$src/rt_host.h" "$src/vadd.cl" "$src/wide.cl" "$tmp/" || exit 1
	(cd "$tmp" && cc -o plain host_apicodes.c -lOpenCL) || { echo "FAIL: cc"; exit 1; }
	(cd "$tmp" && "$2" --cl-options=-DUNUSED=1 -o app host_apicodes.c vadd.cl wide.cl) ||
		{ echo "FAIL: vastcc"; exit 1; }
	plain=$tmp/plain vast=$tmp/app
else
	plain=$1 vast=$2 src=$3
fi
fail=0
"$plain" "$tmp/ref.txt" "$src/vadd.cl" "$src/wide.cl" || { echo "FAIL: plain run"; exit 1; }
for mode in auto paged; do
	if ! VAST_MODE=$mode "$vast" "$tmp/$mode.txt" "$src/vadd.cl" "$src/wide.cl" 2>"$tmp/$mode.err"; then
		echo "FAIL: $mode: exit status"; cat "$tmp/$mode.err"; fail=1; continue
	fi
	if ! cmp "$tmp/ref.txt" "$tmp/$mode.txt"; then
		echo "FAIL: $mode: codes differ"; diff -a "$tmp/ref.txt" "$tmp/$mode.txt" | head -20; fail=1
	elif ! grep -q "clCompileProgram" "$tmp/$mode.err"; then
		echo "FAIL: $mode: no warning about clCompileProgram"; cat "$tmp/$mode.err"; fail=1
	else
		echo "ok: $mode"
	fi
done
if ! "$vast" "$tmp/released.txt" "$src/vadd.cl" "$src/wide.cl" released 2>"$tmp/released.err"; then
	echo "FAIL: released handles"; cat "$tmp/released.err" "$tmp/released.txt"; fail=1
else
	echo "ok: released handles"
fi
exit $fail
