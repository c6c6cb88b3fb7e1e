#!/bin/bash
# SPDX-License-Identifier: MIT
# vastrun_targets.sh VASTRUN: programs the runtime cannot be preloaded
# into (issue 31 item 2). A statically linked one has no dynamic linker; a
# set-user-ID or set-group-ID one, run as another user or group, has its
# LD_PRELOAD ignored by the dynamic linker. vastrun must say so, once, and
# still run it (its output and exit status). The target, maps.c, prints
# whether libvastrt.so is mapped into it, so the test checks the warning
# against what happened: a warning exactly when the runtime is absent.
# The set-ID targets other users own need root (chown); without it only
# the static, the dynamic and an own set-user-ID target are run.
set -u
vastrun=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
cat >"$tmp/maps.c" <<'EOF'
#include <stdio.h>
#include <string.h>
int main(void)
{
	char line[4096];
	int found = 0;
	FILE *f = fopen("/proc/self/maps", "r");
	if (!f)
		return 2;
	while (fgets(line, sizeof line, f))
		found |= strstr(line, "/libvastrt.so") != NULL;
	puts(found ? "runtime: present" : "runtime: absent");
	return 7;
}
EOF
cc -o "$tmp/dynamic" "$tmp/maps.c" || { echo "FAIL: cc"; exit 1; }
cc -static -o "$tmp/static" "$tmp/maps.c" || { echo "FAIL: cc -static (libc6-dev)"; exit 1; }
fail=0

# check NAME WARNING|- PRESENCE: vastrun on $tmp/NAME gives the warning
# containing WARNING (- none), runs it (exit status 7), and the runtime is
# PRESENCE in it.
check() {
	local name=$1 warn=$2 presence=$3
	"$vastrun" "$tmp/$name" >"$tmp/$name.out" 2>"$tmp/$name.err"
	local rc=$? bad=0
	[ $rc = 7 ] || { echo "FAIL: $name: exit status $rc, want the program's 7"; bad=1; }
	grep -qx "runtime: $presence" "$tmp/$name.out" ||
		{ echo "FAIL: $name: want 'runtime: $presence'"; cat "$tmp/$name.out"; bad=1; }
	if [ "$warn" = - ]; then
		[ -s "$tmp/$name.err" ] && { echo "FAIL: $name: want no warning"; bad=1; }
	else
		[ "$(grep -c "^vastrun: warning: '$tmp/$name' $warn" "$tmp/$name.err")" = 1 ] ||
			{ echo "FAIL: $name: want one warning '$warn'"; bad=1; }
	fi
	if [ $bad = 1 ]; then
		cat "$tmp/$name.err"; fail=1
	else
		echo "ok: $name: runtime $presence; $(cat "$tmp/$name.err")"
	fi
}

check dynamic - present
check static "is statically linked" absent
# Set-user-ID to its own user: the real user, nothing changes at exec.
cp "$tmp/dynamic" "$tmp/own-setuid" && chmod 4755 "$tmp/own-setuid"
check own-setuid - present
if [ "$(id -u)" = 0 ]; then
	cp "$tmp/dynamic" "$tmp/setuid" && chown nobody "$tmp/setuid" && chmod 4755 "$tmp/setuid"
	check setuid "is set-user-ID" absent
	cp "$tmp/dynamic" "$tmp/setgid" && chgrp "$(id -g nobody)" "$tmp/setgid" &&
		chmod 2755 "$tmp/setgid"
	check setgid "is set-group-ID" absent
	# Set-group-ID without group execute is not set-group-ID (it marks
	# mandatory locking): the program runs as the real group.
	cp "$tmp/dynamic" "$tmp/sgid-noexec" && chgrp "$(id -g nobody)" "$tmp/sgid-noexec" &&
		chmod 2745 "$tmp/sgid-noexec"
	check sgid-noexec - present
else
	echo "skip: set-ID targets of other users (needs root)"
fi
# Found on $PATH as execvp finds it: the same warning, named as given.
if PATH="$tmp:$PATH" "$vastrun" static 2>"$tmp/path.err" >/dev/null; [ $? = 7 ] &&
	grep -q "^vastrun: warning: 'static' is statically linked" "$tmp/path.err"; then
	echo "ok: static found on \$PATH"
else
	echo "FAIL: static found on \$PATH: want the warning"; cat "$tmp/path.err"; fail=1
fi
exit $fail
