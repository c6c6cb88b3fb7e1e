#!/bin/bash
# SPDX-License-Identifier: MIT
# fallback.sh VAST vadd.cl: the native fallbacks. Build options that differ from the stub's
# give exactly one warning and a native run with the same result.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$1" "$tmp/a.bin" "$2" "-DUNUSED=1" 2>"$tmp/a.err" || { cat "$tmp/a.err"; exit 1; }
"$1" "$tmp/b.bin" "$2" "-DOTHER=2" 2>"$tmp/b.err" || { cat "$tmp/b.err"; exit 1; }
cmp "$tmp/a.bin" "$tmp/b.bin" || exit 1
if grep -q warning "$tmp/a.err"; then echo "FAIL: warning with matching options"; exit 1; fi
n=$(grep -c "vast: warning: program built with options '-DOTHER=2' but vastcc compiled it with '-DUNUSED=1'; running natively" "$tmp/b.err")
[ "$n" = 1 ] || { echo "FAIL: want one warning, got $n"; cat "$tmp/b.err"; exit 1; }

# A source vastcc never saw: no stub matches, the kernels run natively,
# and a launch over the budget fails with the reason instead of paging.
{ cat "$2"; echo "/* edited after vastcc ran */"; } > "$tmp/edited.cl"
"$1" "$tmp/c.bin" "$tmp/edited.cl" "-DUNUSED=1" 2>"$tmp/c.err" || { cat "$tmp/c.err"; exit 1; }
cmp "$tmp/a.bin" "$tmp/c.bin" || exit 1
if VAST_DEVICE_MEM=50% "$1" "$tmp/d.bin" "$tmp/edited.cl" "-DUNUSED=1" 2>"$tmp/d.err"; then
	echo "FAIL: an unmatched kernel over the budget must fail"; exit 1
fi
grep -q "kernel 'vadd' needs 12582912 bytes of buffers, more than the budget of 6291456, and cannot be paged: its program was not compiled by vastcc" "$tmp/d.err" ||
	{ echo "FAIL: no reason given"; cat "$tmp/d.err"; exit 1; }
grep -q "= -4$" "$tmp/d.err" || { echo "FAIL: want CL_MEM_OBJECT_ALLOCATION_FAILURE"; cat "$tmp/d.err"; exit 1; }

# An inspector that misses a page: the paged kernel faults and the launch
# fails with CL_INVALID_OPERATION (-59) instead of a wrong result.
VAST_MODE=paged "$1" "$tmp/e.bin" "$2" "-DUNUSED=1" fault 2>"$tmp/e.err"
rc=$?
[ $rc = 59 ] || { echo "FAIL: want exit 59, got $rc"; cat "$tmp/e.err"; exit 1; }
grep -q "kernel 'copy1': range 0 .* touched a page its inspector did not mark; refusing the result" "$tmp/e.err" ||
	{ echo "FAIL: no fault message"; cat "$tmp/e.err"; exit 1; }
"$1" "$tmp/f.bin" "$2" "-DUNUSED=1" fault 2>"$tmp/f.err" || { echo "FAIL: native copy1 must work"; exit 1; }
echo ok
