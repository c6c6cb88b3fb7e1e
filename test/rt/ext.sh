#!/bin/bash
# SPDX-License-Identifier: MIT
# ext.sh PLAIN VAST vadd.cl: functions found by name (host_ext.c). With the
# runtime, natively and paged: the facts of OUT as without it (among them
# which core names the platform hands out); core names the loader has are
# the functions a direct call reaches, and a buffer made through one
# works, those it lacks are not handed out; a vendor extension the runtime does not know is not handed out,
# with a warning naming it; a cl_khr_command_buffer copy of the runtime's
# buffers fails with CL_INVALID_OPERATION, each function refused with one
# warning naming it however often it is called, and never succeeds
# without copying.
set -u
plain=$1 vast=$2 src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
"$plain" "$tmp/ref.txt" "$src" >"$tmp/plain.out" || { echo "FAIL: plain run"; exit 1; }
if grep -q "succeeded without copying" "$tmp/plain.out"; then
	echo "FAIL: plain: the driver's command buffer copied nothing"; cat "$tmp/plain.out"; exit 1
fi
bad() { # mode, what
	echo "FAIL: $1: $2"; fail=1
}
# One warning line naming $2 in $1's stderr.
warned_once() { # mode, name
	local n
	n=$(grep -c "warning: .*'$2'" "$tmp/$1.err")
	[ "$n" = 1 ] || bad "$1" "$n warnings naming $2, want 1"
}
for mode in auto paged; do
	if ! VAST_MODE=$mode "$vast" "$tmp/$mode.txt" "$src" >"$tmp/$mode.out" 2>"$tmp/$mode.err"; then
		bad $mode "exit status"; cat "$tmp/$mode.err"; continue
	fi
	cmp -s "$tmp/ref.txt" "$tmp/$mode.txt" ||
		{ bad $mode "facts differ"; diff "$tmp/ref.txt" "$tmp/$mode.txt"; }
	# What the loader has by name, the function a direct call reaches;
	# what it lacks, none (ocl-icd hands out no core function by name).
	for f in clCreateBuffer clEnqueueReadImage clGetPlatformInfo; do
		if grep -qx "$f by name: none" "$tmp/plain.out"; then
			grep -qx "$f by name: none" "$tmp/$mode.out" ||
				bad $mode "$f by name was handed out, the loader has none"
		else
			grep -qx "$f by name: direct" "$tmp/$mode.out" ||
				bad $mode "$f by name is not the function a direct call reaches"
		fi
	done
	if grep -q "clCreateBuffer by name: holds" "$tmp/plain.out"; then
		grep -qx "clCreateBuffer by name: holds 42" "$tmp/$mode.out" ||
			bad $mode "a buffer made through clCreateBuffer by name does not hold its bytes"
	fi
	if grep -qx "clSetContentSizeBufferPoCL: found" "$tmp/plain.out"; then
		grep -qx "clSetContentSizeBufferPoCL: none" "$tmp/$mode.out" ||
			bad $mode "clSetContentSizeBufferPoCL, unknown to the runtime, was handed out"
		warned_once $mode clSetContentSizeBufferPoCL
	fi
	grep -q "succeeded without copying" "$tmp/$mode.out" &&
		bad $mode "the command buffer's copy succeeded without copying"
	if grep -qx "command buffer: none" "$tmp/plain.out"; then
		echo "skip: $mode: command buffer (the driver has no cl_khr_command_buffer)"
	else
		want=$(printf 'command buffer: create %s\ncommand buffer: copy %s\ncommand buffer: copy %s' -59 -59 -59)
		[ "$(grep '^command buffer' "$tmp/$mode.out")" = "$want" ] ||
			{ bad $mode "command buffer not refused with CL_INVALID_OPERATION (-59)";
			  grep '^command buffer' "$tmp/$mode.out"; }
		warned_once $mode clCreateCommandBufferKHR
		warned_once $mode clCommandCopyBufferKHR
	fi
	[ $fail = 0 ] && echo "ok: $mode"
done
exit $fail
