#!/bin/bash
# SPDX-License-Identifier: MIT
# vastrun_paths.sh VASTRUN: vastrun installed under a path LD_PRELOAD
# cannot hold (issue 31 item 12). The dynamic linker splits LD_PRELOAD at
# spaces and colons with no quoting, so vastrun there used to run the
# program without the runtime and exit 0. It must refuse: status 125, a
# message, the program not run. Control: the same copy (bin/vastrun,
# lib/libvastrt.so) under a plain path preloads the runtime (it is mapped
# into the program).
set -u
vastrun=$1
lib=$(dirname "$vastrun")/../lib/libvastrt.so
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for dir in plain "with space" "with:colon"; do
	mkdir -p "$tmp/$dir/bin" "$tmp/$dir/lib" || exit 1
	cp "$vastrun" "$tmp/$dir/bin/" && cp "$lib" "$tmp/$dir/lib/" || exit 1
done
got=$("$tmp/plain/bin/vastrun" grep -c "$tmp/plain/lib/libvastrt.so" /proc/self/maps)
if [ "${got:-0}" -ge 1 ]; then
	echo "ok: plain: the runtime is preloaded"
else
	echo "FAIL: plain: the runtime is not mapped into the program: nothing to observe"; exit 1
fi
for dir in "with space" "with:colon"; do
	"$tmp/$dir/bin/vastrun" touch "$tmp/ran" 2>"$tmp/err"
	rc=$?
	bad=0
	[ $rc = 125 ] || { echo "FAIL: '$dir': exit status $rc, want 125"; bad=1; }
	[ -e "$tmp/ran" ] && { echo "FAIL: '$dir': the program ran"; bad=1; }
	grep -q "^vastrun: error: the runtime's path '.*' holds a space or a colon" "$tmp/err" ||
		{ echo "FAIL: '$dir': no message"; bad=1; }
	if [ $bad = 1 ]; then
		cat "$tmp/err"; fail=1
	else
		echo "ok: '$dir': $(sed "s|$tmp|TMP|" "$tmp/err")"
	fi
	rm -f "$tmp/ran"
done
exit $fail
