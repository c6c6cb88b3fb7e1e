#!/bin/bash
# SPDX-License-Identifier: MIT
# cache_trust.sh VASTCC SRCDIR: the compile-at-build cache runs only the
# user's own entries. Two users besides root (setpriv to uids with no
# account, so nothing is left behind): the owner runs host_vadd.c (linked
# by `vastcc host_vadd.c`, its kernels compiled at clBuildProgram, paged
# at half the data), the other forges a cache entry for the same key whose
# generated kernel computes something else, and plants it where the owner
# looks: a directory the other made, a shared world-writable one, the
# owner's own directory while it was open to others, as a symbolic link,
# and a FIFO under the entry's name. Each run must write the plain build's
# bytes with no cache hit and one warning naming the directory; the FIFO
# must not block. First, as a control, the forged entry in the owner's own
# directory is taken and changes the output: the test can fail.
# Root only (it acts as two users); skipped (77) otherwise.
set -u
vastcc=$1 src=$2
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	echo "SKIP: cache_trust.sh acts as two users: it needs root and setpriv"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# Two uids no account has.
uids=()
for u in $(seq 23000 23999); do
	getent passwd "$u" >/dev/null || uids+=("$u")
	[ ${#uids[@]} = 2 ] && break
done
owner=${uids[0]} other=${uids[1]}
chmod 755 "$tmp"
cp "$src/host_vadd.c" "$src/rt_host.h" "$src/jit.cl" "$tmp/" || exit 1
cd "$tmp" || exit 1
mkdir o x && chown "$owner:$owner" o && chown "$other:$other" x
unset VAST_JIT VAST_CACHE VAST_CACHE_MAX VAST_MODE VAST_DEVICE_MEM XDG_CACHE_HOME
opts="-D SCALE=2.0f"
cc -o plain host_vadd.c -lOpenCL || { echo "FAIL: cc"; exit 1; }
"$vastcc" -o app host_vadd.c || { echo "FAIL: vastcc host_vadd.c"; exit 1; }
./plain ref.bin jit.cl "$opts" || { echo "FAIL: plain run"; exit 1; }

as_owner() { setpriv --reuid="$owner" --regid="$owner" --clear-groups env HOME="$tmp/o" "$@"; }
as_other() { setpriv --reuid="$other" --regid="$other" --clear-groups env HOME="$tmp/x" "$@"; }
# run WHO NAME CACHE-DIR: the program at a 50% budget with the cache in
# CACHE-DIR, its output in WHO's NAME.bin, its stderr in WHO's NAME.err.
run() {
	local who=$1 name=$2 cache=$3 home=o
	[ "$who" = owner ] || home=x
	"as_$who" timeout 120 env VAST_COMPILER="$vastcc" VAST_CACHE_DIR="$cache" VAST_STATS=kv \
		VAST_DEVICE_MEM=50% ./app "$tmp/$home/$name.bin" jit.cl "$opts" \
		2>"$tmp/$home/$name.err"
}
hits() { sed -n 's/^vast: programs jit=1 cache_hits=\([0-9]*\)$/\1/p' "$1"; }

# The other user's own entry for the owner's key (same program, options,
# device and compiler), its generated kernels made to compute a*7+b, then
# sealed again as vastcc seals (vast/stub.h: FNV-1a of what precedes the
# checksum) and its payload's length rewritten.
run other own "$tmp/x/cache" || { echo "FAIL: the other user's run"; cat x/own.err; exit 1; }
entry=$(cd x/cache && ls -- *.vc)
[ -n "$entry" ] || { echo "FAIL: the other user's run left no cache entry"; exit 1; }
as_other python3 - "x/cache/$entry" x/forged.vc <<'PY' || { echo "FAIL: forging"; exit 1; }
import json, sys
b = open(sys.argv[1], "rb").read()
i = b.index(b"\npayload ") + 1
j = b.index(b"\n", i)
n = int(b[i + len("payload "):j])
doc = json.loads(b[j + 1:j + 1 + n])
assert doc["generated_source"].count("* 2.0f") > 0
doc["generated_source"] = doc["generated_source"].replace("* 2.0f", "* 7.0f")
del doc["checksum"]
body = json.dumps(doc, indent="\t").encode()[:-2]
h = 14695981039346656037
for c in body:
    h = ((h ^ c) * 1099511628211) & (2**64 - 1)
p = body + b',\n\t"checksum":\t"0x%016x"\n}\n' % h
open(sys.argv[2], "wb").write(b[:i] + b"payload %d\n" % len(p) + p + b"\n")
PY
chmod 644 x/forged.vc

# 0. Control: the forged entry in the owner's own directory is the
# owner's (he copied it there): taken, and the output changes.
as_owner mkdir -p o/control && as_owner cp x/forged.vc "o/control/$entry"
run owner control "$tmp/o/control"
if [ "$(hits o/control.err)" = 1 ] && ! cmp -s ref.bin o/control.bin; then
	echo "ok: control (the forged entry, trusted, changes the output)"
else
	echo "FAIL: control: the forged entry was not taken or changes nothing"; cat o/control.err
	fail=1
fi

# refused NAME CACHE-DIR REASON: the owner's run in CACHE-DIR writes the
# plain bytes, hits nothing, and warns once, naming CACHE-DIR and REASON.
refused() {
	local name=$1 cache=$2 why=$3
	if ! run owner "$name" "$cache"; then
		echo "FAIL: $name: exit status (124: blocked)"; cat "o/$name.err"; fail=1; return
	fi
	if ! cmp -s ref.bin "o/$name.bin" || [ "$(hits "o/$name.err")" != 0 ]; then
		echo "FAIL: $name: the planted entry was used"; cat "o/$name.err"; fail=1; return
	fi
	if [ "$(grep -c "warning: cache '$cache' not used: .*$why" "o/$name.err")" != 1 ] ||
		[ "$(grep -c "warning: cache" "o/$name.err")" != 1 ]; then
		echo "FAIL: $name: want one warning: cache '$cache' not used: ...$why"
		cat "o/$name.err"; fail=1; return
	fi
	echo "ok: $name"
}

# 1. A directory the other user made before the owner first used it.
as_other mkdir x/made && as_other cp x/forged.vc "x/made/$entry"
refused foreign-dir "$tmp/x/made" "it is owned by uid $other, not by this user (uid $owner)"

# 2. A directory the owner shares: anyone may write it (sticky, as /tmp).
as_owner mkdir o/shared && as_owner chmod 1777 o/shared && as_other cp x/forged.vc "o/shared/$entry"
refused shared "$tmp/o/shared" "it is writable by others (mode 1777)"

# 3. The owner's directory, open to others for a while, 0700 again.
# open_dir DIR: made by the owner, world-writable while CMD... runs as
# the other user, then 0700.
open_dir() {
	local d=$1; shift
	as_owner mkdir "$d" && as_owner chmod 777 "$d" && as_other "$@"
	as_owner chmod 700 "$d"
}
open_dir o/was-open cp x/forged.vc "o/was-open/$entry"
refused foreign-entry "$tmp/o/was-open" \
	"entry '$entry' is owned by uid $other, not by this user (uid $owner)"
# The refused entry is replaced by the owner's: the next run hits it.
run owner again "$tmp/o/was-open"
if [ "$(stat -c %u "o/was-open/$entry")" = "$owner" ] && [ "$(hits o/again.err)" = 1 ] &&
	cmp -s ref.bin o/again.bin; then
	echo "ok: foreign-entry replaced"
else
	echo "FAIL: foreign-entry: not replaced by the owner's entry"; cat o/again.err; fail=1
fi

# 4. A symbolic link under the entry's name, to the forged entry.
open_dir o/link ln -s "$tmp/x/forged.vc" "o/link/$entry"
refused symlink "$tmp/o/link" "entry '$entry' is a symbolic link"

# 5. A FIFO under the entry's name: opening it must not wait for a writer.
open_dir o/fifo mkfifo -m 666 "o/fifo/$entry"
refused fifo "$tmp/o/fifo" "entry '$entry' is not a regular file"

# 6. A directory the cache makes is the owner's alone.
run owner fresh "$tmp/o/new/cache"
if [ "$(stat -c %a o/new)" = 700 ] && [ "$(stat -c %a o/new/cache)" = 700 ] &&
	cmp -s ref.bin o/fresh.bin && [ -f "o/new/cache/$entry" ]; then
	echo "ok: fresh directory 0700"
else
	echo "FAIL: fresh: want directories 0700 holding the entry"; ls -la o/new o/new/cache
	fail=1
fi
exit $fail
