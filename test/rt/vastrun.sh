#!/bin/bash
# SPDX-License-Identifier: MIT
# vastrun.sh VASTRUN PLAIN SOURCE.cl KERNEL MODE: a program built with plain
# cc (-lOpenCL only; host_*.c's usage: PLAIN OUT SOURCE.cl) run through
# vastrun, which preloads libvastrt.so (issue 11 item 2).
#   MODE=forward: at full budget the runtime must be in the path (its
#     VAST_STATS=kv lines, which the plain run never prints) and the output
#     identical to the plain run's; the same for the program started as a
#     child of a shell started by vastrun (the environment carries the
#     preload); VAST_MODE=native (the runtime only forwards) identical;
#     an LD_PRELOAD already set is kept after the runtime; a missing program exits
#     127 as in a shell.
#   MODE=paged: at a 50% budget KERNEL must page (ranges >= 2) and the
#     output be identical. NEEDS compile-at-clBuildProgram (issue 11 item 1,
#     branch s4/jit): without it the runtime has no stub for a cc-built
#     program and refuses the over-budget launch, so this fails.
set -u
vastrun=$1 plain=$2 src=$3 kernel=$4 mode=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_LOG VAST_PAGE_SIZE VAST_PIPELINE
fail=0
"$plain" "$tmp/ref.bin" "$src" > "$tmp/ref.err" 2>&1 || { echo "FAIL: plain run"; cat "$tmp/ref.err"; exit 1; }
if grep -q '^vast: ' "$tmp/ref.err"; then
	echo "FAIL: the plain run already prints vast: lines, nothing to observe"; exit 1
fi
same() { # NAME: output identical
	cmp "$tmp/ref.bin" "$tmp/$1.bin" && return 0
	echo "FAIL: $1: output differs from the plain run"; cat "$tmp/$1.err"; fail=1; return 1
}
check() { # NAME: output identical and the runtime's stats line for KERNEL
	same "$1" || return 1
	if ! grep -q "^vast: kernel $kernel " "$tmp/$1.err"; then
		echo "FAIL: $1: no VAST_STATS line for '$kernel': the runtime was not preloaded"
		cat "$tmp/$1.err"; fail=1; return 1
	fi
	echo "ok: $1: identical; $(grep "^vast: kernel $kernel " "$tmp/$1.err")"
}
run() { # NAME ENV...: vastrun PLAIN
	local name=$1; shift
	env "$@" VAST_STATS=kv "$vastrun" "$plain" "$tmp/$name.bin" "$src" 2>"$tmp/$name.err" && return 0
	echo "FAIL: $name: exit status"; cat "$tmp/$name.err"; fail=1; return 1
}
case $mode in
forward)
	run full && check full
	# Native mode only forwards: no stats, the same bytes.
	run native VAST_MODE=native && same native && echo "ok: native: identical"
	# The shell is the parent: it forks and execs the program, twice.
	if ! VAST_STATS=kv "$vastrun" sh -c '"$1" "$2.bin" "$3" && "$1" "$2.again.bin" "$3"' \
		sh "$plain" "$tmp/child" "$src" 2>"$tmp/child.err"; then
		echo "FAIL: child: exit status"; cat "$tmp/child.err"; fail=1
	else
		check child
		cmp -s "$tmp/ref.bin" "$tmp/child.again.bin" || { echo "FAIL: child's second run differs"; fail=1; }
		n=$(grep -c "^vast: kernel $kernel " "$tmp/child.err")
		[ "$n" -eq 2 ] || { echo "FAIL: child: $n stats lines for '$kernel', want 2 (one per child)"; fail=1; }
	fi
	# The runtime goes first; what LD_PRELOAD held stays after it.
	lib=$(cd "$(dirname "$vastrun")/../lib" && pwd)/libvastrt.so
	got=$(LD_PRELOAD=libm.so.6 "$vastrun" -- sh -c 'echo "$LD_PRELOAD"')
	[ "$got" = "$lib:libm.so.6" ] ||
		{ echo "FAIL: LD_PRELOAD='$got', want '$lib:libm.so.6'"; fail=1; }
	"$vastrun" "$tmp/no-such-program" 2>"$tmp/missing.err"
	rc=$?
	[ $rc -eq 127 ] || { echo "FAIL: a missing program: exit status $rc, want 127"; fail=1; }
	grep -q "^vastrun: error: cannot run '.*no-such-program'" "$tmp/missing.err" ||
		{ echo "FAIL: a missing program: no error message"; cat "$tmp/missing.err"; fail=1; }
	;;
paged)
	if run half VAST_DEVICE_MEM=50% && check half; then
		r=$(sed -n "s/^vast: kernel $kernel .* ranges=\([0-9]*\) .*/\1/p" "$tmp/half.err")
		if [ -z "$r" ] || [ "$r" -lt 2 ]; then
			echo "FAIL: half: kernel $kernel ranges='$r', want >= 2"; fail=1
		fi
	fi
	;;
*)
	echo "usage: vastrun.sh VASTRUN PLAIN SOURCE.cl KERNEL forward|paged"; exit 2 ;;
esac
exit $fail
