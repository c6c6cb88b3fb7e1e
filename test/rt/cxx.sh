#!/bin/bash
# SPDX-License-Identifier: MIT
# cxx.sh VASTCXX DIR: a C++ host (DIR: host.cpp with new[], std::vector,
# iostream; saxpy.cl read at run time; a Makefile with CXX ?= c++), issue
# 11 item 3. Built with plain c++ (the reference), with
# `vastc++ host.cpp saxpy.cl -o app` and with `make CXX=vastc++`; both
# vastc++ builds must write the reference's bytes at a 50% budget with
# every kernel paged (ranges >= 2).
set -u
vastcxx=$1 dir=$2
kernels="saxpy pairs"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_LOG VAST_PAGE_SIZE VAST_PIPELINE
fail=0
for b in plain direct make; do
	mkdir "$tmp/$b" && cp "$dir"/* "$tmp/$b/" || exit 1
done
make -C "$tmp/plain" > "$tmp/plain.log" 2>&1 || { echo "FAIL: make with c++"; cat "$tmp/plain.log"; exit 1; }
(cd "$tmp/direct" && "$vastcxx" -O2 host.cpp saxpy.cl -o app -lOpenCL) > "$tmp/direct.log" 2>&1 ||
	{ echo "FAIL: vastc++ host.cpp saxpy.cl"; cat "$tmp/direct.log"; exit 1; }
make -C "$tmp/make" CXX="$vastcxx" > "$tmp/make.log" 2>&1 ||
	{ echo "FAIL: make CXX=vastc++"; cat "$tmp/make.log"; exit 1; }
[ -f "$tmp/make/saxpy.o" ] || { echo "FAIL: make CXX=vastc++ did not compile saxpy.cl"; exit 1; }
(cd "$tmp/plain" && ./app "$tmp/ref.bin" saxpy.cl) > "$tmp/ref.log" 2>&1 ||
	{ echo "FAIL: plain run"; cat "$tmp/ref.log"; exit 1; }
for b in direct make; do
	if ! (cd "$tmp/$b" && VAST_DEVICE_MEM=50% VAST_STATS=kv ./app "$tmp/$b.bin" saxpy.cl) \
		> "$tmp/$b.run" 2>&1; then
		echo "FAIL: $b: exit status"; cat "$tmp/$b.run"; fail=1; continue
	fi
	cmp "$tmp/ref.bin" "$tmp/$b.bin" || { echo "FAIL: $b: output differs"; cat "$tmp/$b.run"; fail=1; continue; }
	for k in $kernels; do
		r=$(sed -n "s/^vast: kernel $k .* ranges=\([0-9]*\) .*/\1/p" "$tmp/$b.run")
		if [ -z "$r" ] || [ "$r" -lt 2 ]; then
			echo "FAIL: $b: kernel $k ranges='$r', want >= 2"; cat "$tmp/$b.run"; fail=1
		fi
	done
	echo "ok: $b: identical at 50%"; grep '^vast: kernel' "$tmp/$b.run"
done
exit $fail
