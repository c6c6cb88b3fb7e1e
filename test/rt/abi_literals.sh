#!/bin/bash
# SPDX-License-Identifier: MIT
# abi_literals.sh ROOT: the generated kernels' interface is written down once,
# in vast/stub.h (the tail table VAST_TAIL_ARGS, the LPT's and the pasinfo's
# layouts, VAST_VA_SHIFT), and nothing restates it as a number:
#   - only runtime/args.c sets a generated variant's arguments (it places
#     the tail by the table); kernel.c and launch.c set the program's own
#     kernel's, which has no tail;
#   - no shift by 44 (VAST_VA_SHIFT) in the compiler, the prelude or the
#     runtime;
#   - no LPT or pasinfo word by its number (lpt[0], lpt[2 * s - 1],
#     pi[2], pasinfo[1]): VAST_LPT_* and VAST_PASINFO_*.
set -u
root=$1
fail=0
src=("$root/runtime" "$root/lib" "$root/tools")
inc=(--include=*.c --include=*.h --include=*.cl)
report() { # what, the offending lines
	[ -z "$2" ] && return
	echo "FAIL: $1"; echo "$2"; fail=1
}
report "a generated variant's argument set outside runtime/args.c (vrt_tailargs_set)" \
	"$(grep -rnE --include=*.c 'clSetKernelArg *\(' "$root/runtime" |
		grep -vE '/(args|kernel|launch|devmerge|devmodel)\.c:')"
report "the virtual-address shift written as 44: VAST_VA_SHIFT" \
	"$(grep -rnE "${inc[@]}" '(>>|<<) *44\b' "${src[@]}")"
report "an LPT or pasinfo word by its number: VAST_LPT_* and VAST_PASINFO_* (vast/stub.h)" \
	"$(grep -rnE "${inc[@]}" '\b(lpt|pi|pasinfo)\[ *([0-9]|2 *\*)' "${src[@]}")"
[ "$fail" = 0 ] && echo "ok: the generated kernels' interface is vast/stub.h's alone"
exit $fail
