#!/bin/bash
# SPDX-License-Identifier: MIT
# lazy_build.sh PLAIN VAST BROKEN SOURCE.cl: clBuildProgram builds only
# the original kernels; the variants' program is built once, the first
# time a launch may page, and never when every launch fits (issue 36
# item 5). VAST_LOG=debug says which builds happen. BROKEN is VAST with a
# stub whose variants the driver rejects: unseen while nothing pages; a
# launch that needs them warns once with the driver's build log, then
# runs natively when it fits and fails with CL_MEM_OBJECT_ALLOCATION_
# FAILURE (-4) when it does not.
set -u
plain=$1 vast=$2 broken=$3 src=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 step=0
export VAST_CACHE_DIR=$tmp/cache
unset VAST_MODE VAST_DEVICE_MEM VAST_STATS VAST_LOG
"$plain" "$tmp/ref.bin" "$src" || { echo "FAIL: plain run"; exit 1; }
count() { grep -c -- "$1" "$tmp/$2.err"; }
no() { # name what pattern: the run's log must not have it
	if grep -q -- "$3" "$tmp/$1.err"; then
		echo "FAIL: $1: $2"; cat "$tmp/$1.err"; fail=$((fail + 1))
	fi
}
want() { # name n what pattern: the run's log has it exactly n times
	local c; c=$(count "$4" "$1")
	if [ "$c" != "$2" ]; then
		echo "FAIL: $1: $3 ($c times, want $2)"; cat "$tmp/$1.err"; fail=$((fail + 1))
	fi
}
run() { # name prog env...: must succeed and write the plain bytes
	local name=$1 prog=$2; shift 2
	if ! env "$@" VAST_LOG=debug VAST_STATS=kv "$prog" "$tmp/$name.bin" "$src" 2>"$tmp/$name.err"; then
		echo "FAIL: $name: exit status"; cat "$tmp/$name.err"; fail=$((fail + 1)); return 1
	fi
	if ! cmp "$tmp/ref.bin" "$tmp/$name.bin"; then
		echo "FAIL: $name: output differs"; cat "$tmp/$name.err"; fail=$((fail + 1)); return 1
	fi
}
ok() { # name: no failure since the step began
	[ "$fail" = "$step" ] && echo "ok: $1"; step=$fail
}
paged() { # name: some launch of vadd ran in ranges
	local r
	r=$(sed -n "s/^vast: kernel vadd .* ranges=\([0-9]*\) .*/\1/p" "$tmp/$1.err")
	if [ -z "$r" ] || [ "$r" -lt 2 ]; then
		echo "FAIL: $1: kernel vadd ranges='$r', want >= 2"; cat "$tmp/$1.err"; fail=$((fail + 1))
	fi
}

# 1. Every launch fits: the original kernels are built, the variants never.
if run fits "$vast"; then
	want fits 1 "the original kernels built once" "original kernels built in"
	no fits "built the variants though nothing pages" "building its variants"
	ok fits
fi
# 2. Launches that page: the variants built once, for all of them.
if run pages "$vast" VAST_DEVICE_MEM=10%; then
	paged pages
	want pages 1 "the original kernels built once" "original kernels built in"
	want pages 1 "the variants started once" "building its variants"
	# ... from the kernel's buffer arguments, before the launch, so that
	# the build overlaps the program's writes.
	want pages 1 "started when a buffer argument was set" \
		"building its variants (a buffer argument takes half the budget)"
	want pages 1 "the variants built once" "variants built in"
	ok pages
fi
# 3. Broken variants, nothing pages: never built, nothing to say.
if run broken-fits "$broken"; then
	no broken-fits "built the variants though nothing pages" "building its variants"
	no broken-fits "a warning though nothing pages" "warning"
	ok broken-fits
fi
# 4. Broken variants, a launch that pages only by VAST_MODE=paged: told
# once with the build log, then native (it fits), same bytes.
if run broken-forced "$broken" VAST_MODE=paged; then
	want broken-forced 1 "the failure told once" "the variants vastcc generated do not build ("
	want broken-forced 1 "the build log in the warning" "variants of this test do not build"
	ok broken-forced
fi
# 5. Broken variants, a launch that does not fit: told with the build log,
# then refused at its enqueue as a program vastcc did not compile would be.
if env VAST_LOG=debug VAST_DEVICE_MEM=10% "$broken" "$tmp/broken-pages.bin" "$src" \
	2>"$tmp/broken-pages.err"; then
	echo "FAIL: broken-pages: ran though its variants do not build"; fail=$((fail + 1))
else
	want broken-pages 1 "the failure told once" "the variants vastcc generated do not build ("
	want broken-pages 1 "the build log in the warning" "variants of this test do not build"
	want broken-pages 1 "the refusal says why" "cannot be paged: the variants vastcc generated do not build"
	want broken-pages 1 "the enqueue fails with CL_MEM_OBJECT_ALLOCATION_FAILURE" "clEnqueueNDRangeKernel.* = -4$"
	ok broken-pages
fi
[ "$fail" = 0 ]
