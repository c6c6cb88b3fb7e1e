#!/bin/bash
# SPDX-License-Identifier: MIT
#
# install.sh BUILD ROUTE...: installs BUILD into a temporary prefix P
# (`cmake --install BUILD --prefix P`) and builds and runs an example
# through each ROUTE with P's tools only (issue 11 item 5):
#   layout     P holds bin/{vastcc,vastc++,vastrun}, lib/{libvastrt.a,
#              libvastrt.so}, include/vast, the CMake package, vastrt.pc,
#              the man pages, which render without warnings, and
#              share/doc/vastcc (README.md, LICENSE, docs/*.md)
#   aot        P/bin/vastcc host.c vadd.cl (examples/vadd)
#   cxx        P/bin/vastc++ host.cpp saxpy.cl (test/rt/cxx, a C++ host)
#   cmake      a project using find_package(vastcc) and vastcc_add_kernels,
#              configured with CMAKE_PREFIX_PATH=P (test/install/cmake, at
#              cmake_minimum_required 3.16; it checks the imported targets):
#              vadd, and test/rt/foreign/rebuild with CL_OPTIONS (its
#              clBuildProgram passes -D options); a kernel header edited
#              rebuilds its kernel's object; the same under Ninja (where
#              ninja is installed), whose second build has nothing to do
#   pkgconfig  `pkg-config --variable=vastcc vastrt` -c vadd.cl, then
#              cc host.c vadd.o $(pkg-config --cflags --libs vastrt); cJSON
#              comes as Requires.private: libcjson, not as a file's path
#   vastrun    P/bin/vastrun on examples/vadd built with plain cc
#   jit        P/bin/vastcc host.c, no .cl: the runtime compiles vadd.cl
#              when the program builds it
#   deb        `cpack -G DEB` makes libvastrt, vastcc and vastcc-dev, whose
#              Depends name the Debian packages they need and which share no
#              file; unpacked with `dpkg -x` into an empty tree, their vastcc
#              builds vadd and their vastrun runs the native build
#   jit_found  the same with the build tree out of reach (a mount namespace
#              with an empty file system over it, where unshare can; none of
#              it on PATH): the runtime runs P/bin/vastcc, the compiler
#              beside the runtime the program was linked with
#   jit_path   examples/vadd linked through pkg-config (nothing says which
#              vastcc linked it), no .cl, the build tree out of reach as
#              above and P/bin first on PATH: the runtime runs P/bin/vastcc
#              (unless the configured install prefix has a vastcc: skipped)
#   jit_shared the jit program, then P/bin/vastrun on the plain build, with
#              one cache directory: the second finds the first's entry (the
#              same source and options make the same key by either route)
# Every program runs at a 50% budget (VAST_DEVICE_MEM=50%, VAST_STATS=kv):
# its output must equal the plain cc (or c++) build's byte for byte and
# every kernel must page (ranges >= 2). vastrun and jit NEED
# compile-at-clBuildProgram (issue 11 item 1, branch s4/jit): until it is
# merged the runtime has no stub for those programs and refuses to run
# them over budget, so they fail. Each route prints "PASS: install/ROUTE"
# or "FAIL: install/ROUTE: why"; the exit status is 1 if any failed.
set -u
[ $# -ge 2 ] || { echo "usage: install.sh BUILD ROUTE..." >&2; exit 2; }
build=$(cd "$1" && pwd) || exit 1
shift
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
example=$root/examples/vadd
cxxdir=$root/test/rt/cxx
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-install.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_LOG VAST_PAGE_SIZE VAST_PIPELINE VAST_CC VAST_CXX
# What the routes compile at build is cached here, never in ~/.cache/vastcc,
# also when the script runs outside ctest.
export VAST_CACHE_DIR=$tmp/cache
P=$tmp/prefix
cmake --install "$build" --prefix "$P" > "$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log"; echo "FAIL: cmake --install $build --prefix P"; exit 1; }

fail() { echo "FAIL: install/$route: $*"; return 1; }

# paged_run LABEL REF.bin KERNELS CMD...: CMD, run at a 50% budget, must
# write $tmp/LABEL.bin equal to REF.bin, with every kernel of KERNELS paged.
paged_run() {
	local label=$1 ref=$2 kernels=$3 k r
	shift 3
	if ! env VAST_DEVICE_MEM=50% VAST_STATS=kv "$@" > "$tmp/$label.log" 2>&1; then
		cat "$tmp/$label.log"; fail "exit status of $*"; return 1
	fi
	cmp "$ref" "$tmp/$label.bin" || { cat "$tmp/$label.log"; fail "output differs from the native run"; return 1; }
	for k in $kernels; do
		r=$(sed -n "s/^vast: kernel $k .* ranges=\([0-9]*\) .*/\1/p" "$tmp/$label.log")
		if [ -z "$r" ] || [ "$r" -lt 2 ]; then
			cat "$tmp/$label.log"; fail "kernel $k ranges='$r', want >= 2"; return 1
		fi
	done
	grep '^vast: kernel' "$tmp/$label.log"
}

# The references: examples/vadd and the C++ host built with plain cc / c++.
w=$tmp/work
mkdir -p "$w" && cp -r "$example" "$root/examples/common" "$w/" && cp -r "$cxxdir" "$w/cxx" &&
	cp -r "$root/test/rt/foreign/rebuild" "$w/rebuild" || exit 1
cc -O2 -I"$w/common" -o "$w/native" "$w/vadd/host.c" -lOpenCL -lm ||
	{ echo "FAIL: the native build with cc"; exit 1; }
"$w/native" -q -o "$tmp/ref.bin" -k "$w/vadd/vadd.cl" || { echo "FAIL: the native run"; exit 1; }
vadd_run() { # LABEL EXE [LAUNCHER...]: examples/vadd's binary at 50%
	local label=$1 exe=$2
	shift 2
	paged_run "$label" "$tmp/ref.bin" vadd "$@" "$exe" -q -o "$tmp/$label.bin" -k "$w/vadd/vadd.cl"
}

route_layout() {
	local f
	for f in bin/vastcc bin/vastc++ bin/vastrun lib/libvastrt.a lib/libvastrt.so \
		include/vast/stub.h lib/cmake/vastcc/vastccConfig.cmake \
		lib/cmake/vastcc/vastccConfigVersion.cmake lib/cmake/vastcc/vastccTargets.cmake \
		lib/pkgconfig/vastrt.pc share/man/man1/vastcc.1 share/man/man1/vastrun.1 \
		share/doc/vastcc/README.md share/doc/vastcc/LICENSE; do
		[ -e "$P/$f" ] || fail "P/$f is missing" || return 1
	done
	for f in "$root"/docs/*.md; do
		[ -e "$P/share/doc/vastcc/${f##*/}" ] || fail "P/share/doc/vastcc/${f##*/} is missing" || return 1
	done
	[ -L "$P/bin/vastc++" ] || fail "P/bin/vastc++ is not a link to vastcc" || return 1
	"$P/bin/vastrun" --version | grep -q '^vastrun version' || fail "vastrun --version" || return 1
	for f in vastcc vastrun; do
		local warn
		warn=$(groff -man -Tutf8 -ww -z "$P/share/man/man1/$f.1" 2>&1)
		[ -z "$warn" ] || fail "$f.1 renders with warnings: $warn" || return 1
	done
	return 0
}

route_aot() {
	(cd "$w/vadd" && "$P/bin/vastcc" -O2 -I../common -o "$w/aot" host.c vadd.cl -lm) ||
		fail "P/bin/vastcc host.c vadd.cl" || return 1
	vadd_run aot "$w/aot"
}

route_cxx() {
	make -C "$w/cxx" > "$tmp/cxx-native.log" 2>&1 || { cat "$tmp/cxx-native.log"; fail "c++ build"; return 1; }
	mv "$w/cxx/app" "$w/cxx-native" && make -C "$w/cxx" clean > /dev/null || return 1
	(cd "$w/cxx" && "$w/cxx-native" "$tmp/cxx-ref.bin" saxpy.cl > /dev/null) || fail "the c++ run" || return 1
	(cd "$w/cxx" && "$P/bin/vastc++" -O2 host.cpp saxpy.cl -o "$w/cxx-vast" -lOpenCL) ||
		fail "P/bin/vastc++ host.cpp saxpy.cl" || return 1
	(cd "$w/cxx" && paged_run cxx "$tmp/cxx-ref.bin" "saxpy pairs" "$w/cxx-vast" "$tmp/cxx.bin" saxpy.cl)
}

# The same project under Ninja: a second build right after the first has
# nothing to do. The project's CMake 3.16 policies leave CMP0116 unset, so
# Ninja reads the kernels' dependency files as vastcc wrote them, and a
# target there other than the object's name in build.ninja would make it
# rebuild every object every time.
cmake_ninja() {
	local explain
	if ! command -v ninja > /dev/null; then
		echo "note: no ninja (Debian's ninja-build): the Ninja no-op rebuild is not checked"
		return 0
	fi
	cp -r "$here/cmake" "$w/ninja-src" &&
	cmake -G Ninja -S "$w/ninja-src" -B "$w/cmake-ninja" -DCMAKE_PREFIX_PATH="$P" \
		-DVAST_EXAMPLE="$w/vadd" -DVAST_REBUILD="$w/rebuild" > "$tmp/ninja.log" 2>&1 &&
		ninja -C "$w/cmake-ninja" >> "$tmp/ninja.log" 2>&1 ||
		{ cat "$tmp/ninja.log"; fail "the find_package(vastcc) project did not build with Ninja"; return 1; }
	explain=$(ninja -C "$w/cmake-ninja" -n -d explain 2>&1) ||
		{ echo "$explain"; fail "ninja -n after the Ninja build"; return 1; }
	grep -q 'no work to do' <<< "$explain" ||
		{ echo "$explain"; fail "a second Ninja build rebuilds what the first built"; return 1; }
	# An edited kernel header rebuilds its kernel's object, and only it.
	touch -d "@$(( $(date +%s) + 2 ))" "$w/ninja-src/header/scale.h" &&
		ninja -C "$w/cmake-ninja" > "$tmp/ninja-header.log" 2>&1 ||
		{ cat "$tmp/ninja-header.log"; fail "the Ninja rebuild after editing a kernel header"; return 1; }
	grep -q "vastcc: compiling kernels header/kernels.cl" "$tmp/ninja-header.log" &&
		! grep -q "vastcc: compiling kernels .*vadd.cl" "$tmp/ninja-header.log" ||
		{ cat "$tmp/ninja-header.log"; fail "under Ninja, editing header/scale.h did not rebuild (only) its kernel's object"; return 1; }
}

route_cmake() {
	# A copy of the project, whose kernel header the route edits.
	cp -r "$here/cmake" "$w/cmake-src" &&
	cmake -S "$w/cmake-src" -B "$w/cmake-build" -DCMAKE_PREFIX_PATH="$P" \
		-DVAST_EXAMPLE="$w/vadd" -DVAST_REBUILD="$w/rebuild" > "$tmp/cmake.log" 2>&1 &&
		cmake --build "$w/cmake-build" >> "$tmp/cmake.log" 2>&1 ||
		{ cat "$tmp/cmake.log"; fail "find_package(vastcc) project did not build"; return 1; }
	grep -q "vastcc: compiling kernels" "$tmp/cmake.log" ||
		{ cat "$tmp/cmake.log"; fail "vastcc_add_kernels did not compile vadd.cl"; return 1; }
	# An edited kernel header rebuilds the kernel's object (vastcc -MD's
	# dependency file as the custom command's DEPFILE), and only it.
	touch -d "@$(( $(date +%s) + 2 ))" "$w/cmake-src/header/scale.h" &&
		cmake --build "$w/cmake-build" > "$tmp/cmake-header.log" 2>&1 ||
		{ cat "$tmp/cmake-header.log"; fail "the rebuild after editing a kernel header"; return 1; }
	grep -q "vastcc: compiling kernels header/kernels.cl" "$tmp/cmake-header.log" &&
		! grep -q "vastcc: compiling kernels .*vadd.cl" "$tmp/cmake-header.log" ||
		{ cat "$tmp/cmake-header.log"; fail "editing header/scale.h did not rebuild (only) its kernel's object"; return 1; }
	vadd_run cmake "$w/cmake-build/vadd" || return 1
	cmake_ninja || return 1
	# rebuild opens kernels.cl in its working directory.
	cc -O1 -w -o "$w/rebuild-native" "$w/rebuild/host.c" -lOpenCL -lm &&
		(cd "$w/rebuild" && "$w/rebuild-native" "$tmp/rebuild-ref.bin" > /dev/null 2>&1) ||
		fail "the native build and run of rebuild" || return 1
	(cd "$w/rebuild" && paged_run rebuild "$tmp/rebuild-ref.bin" "axpy_every_other rows_sum" \
		"$w/cmake-build/rebuild" "$tmp/rebuild.bin")
}

route_pkgconfig() {
	local vastcc flags
	export PKG_CONFIG_PATH=$P/lib/pkgconfig
	vastcc=$(pkg-config --variable=vastcc vastrt) && flags=$(pkg-config --cflags --libs vastrt) ||
		fail "pkg-config vastrt" || return 1
	# cJSON by its package, not by a path on the machine that built vastcc.
	pkg-config --print-requires-private vastrt | grep -qx libcjson ||
		fail "vastrt.pc: no Requires.private: libcjson" || return 1
	! grep -n 'libcjson\.so' "$P/lib/pkgconfig/vastrt.pc" ||
		fail "vastrt.pc names a libcjson file" || return 1
	(cd "$w/vadd" && "$vastcc" -c vadd.cl -o "$w/pc-vadd.o" &&
		cc -O2 -I../common -o "$w/pc" host.c "$w/pc-vadd.o" $flags -lm) ||
		fail "cc host.c vadd.o \$(pkg-config --cflags --libs vastrt)" || return 1
	vadd_run pkgconfig "$w/pc"
}

route_vastrun() {
	vadd_run vastrun "$w/native" "$P/bin/vastrun"
}

route_jit() {
	(cd "$w/vadd" && "$P/bin/vastcc" -O2 -I../common -o "$w/jit" host.c -lm) ||
		fail "P/bin/vastcc host.c (no .cl)" || return 1
	vadd_run jit "$w/jit"
}

# deb_depends DEB PACKAGE...: DEB's Depends names every PACKAGE.
deb_depends() {
	local deb=$1 depends p
	shift
	depends=$(dpkg-deb -f "$deb" Depends) || return 1
	for p in "$@"; do
		# A name is a whole word of the list: "libvastrt (= 0.1.0), clang-19, ...".
		grep -qE "(^|[ ,|])$p([ ,]|\$)" <<< "$depends" ||
			fail "${deb##*/}: Depends has no $p: $depends" || return 1
	done
}

route_deb() {
	local d=$tmp/deb R=$tmp/root bin f
	cpack -G DEB --config "$build/CPackConfig.cmake" -B "$d" > "$tmp/cpack.log" 2>&1 ||
		{ cat "$tmp/cpack.log"; fail "cpack -G DEB"; return 1; }
	local rt=("$d"/libvastrt_*.deb) cc=("$d"/vastcc_*.deb) dev=("$d"/vastcc-dev_*.deb)
	for f in "$rt" "$cc" "$dev"; do
		[ -f "$f" ] || fail "cpack made no ${f##*/}" || return 1
	done
	deb_depends "$rt" libc6 libcjson1 ocl-icd-libopencl1 || return 1
	deb_depends "$cc" libvastrt libclang1-19 clang-19 libclang-common-19-dev libcjson1 \
		ocl-icd-opencl-dev || return 1
	deb_depends "$dev" vastcc libcjson-dev ocl-icd-opencl-dev || return 1
	# dpkg refuses two packages that hold the same file.
	f=$(for deb in "$rt" "$cc" "$dev"; do dpkg-deb -c "$deb"; done |
		awk '$1 !~ /^d/ { print $6 }' | sort | uniq -d)
	[ -z "$f" ] || fail "files in two packages: $f" || return 1
	# The packages unpacked into an empty tree, as dpkg would install them.
	for f in "$rt" "$cc" "$dev"; do
		dpkg -x "$f" "$R" || fail "dpkg -x ${f##*/}" || return 1
	done
	bin=$(find "$R" -path '*/bin/vastcc' -printf '%h\n')
	[ -n "$bin" ] && [ -f "$bin/../lib/libvastrt.so" ] && [ -f "$bin/../lib/libvastrt.a" ] &&
		[ -f "$bin/../lib/cmake/vastcc/vastccConfig.cmake" ] ||
		fail "the unpacked tree lacks bin/vastcc or what it finds beside it" || return 1
	(cd "$w/vadd" && "$bin/vastcc" -O2 -I../common -o "$w/deb" host.c vadd.cl -lm) ||
		fail "the package's vastcc host.c vadd.cl" || return 1
	vadd_run deb "$w/deb" || return 1
	# vastrun (package vastcc) preloads libvastrt.so (package libvastrt).
	vadd_run deb-vastrun "$w/native" "$bin/vastrun"
}

# Where unshare can mount over the build tree (and the prefix and work
# directory lie outside it), the compile-at-build routes run without it.
hide=0
case "$tmp/" in
"$build"/*) ;;
*) unshare -Urm sh -c 'mount -t tmpfs vast-no-build "$0"' "$build" 2>/dev/null && hide=1 ;;
esac
# $tmp/nobuild CMD...: CMD without the build tree: none of it on PATH, and
# hidden where unshare can.
cat >"$tmp/nobuild" <<EOS
#!/bin/sh
PATH=\$(printf '%s' "\$PATH" | tr ':' '\\n' | grep -v '^$build' | paste -sd: -)
export PATH
[ $hide = 1 ] || exec "\$@"
exec unshare -Urm sh -c 'mount -t tmpfs vast-no-build "\$0" && exec "\$@"' "$build" "\$@"
EOS
chmod +x "$tmp/nobuild"
Preal=$(cd "$P" && pwd -P)

# compiled_by LABEL WANT: LABEL's run compiled at build, by P's vastcc,
# with the VAST_STATS line WANT ("jit=1 cache_hits=0").
compiled_by() {
	local label=$1 want=$2
	grep -qx "vast: programs $want" "$tmp/$label.log" ||
		{ cat "$tmp/$label.log"; fail "want 'vast: programs $want'"; return 1; }
	[ "$want" != "jit=1 cache_hits=0" ] ||
		grep -q "compiled by '$Preal/bin/vastcc'\$" "$tmp/$label.log" ||
		{ cat "$tmp/$label.log"; fail "not compiled by P/bin/vastcc"; return 1; }
}

route_jit_found() {
	(cd "$w/vadd" && "$P/bin/vastcc" -O2 -I../common -o "$w/jit-found" host.c -lm) ||
		fail "P/bin/vastcc host.c (no .cl)" || return 1
	[ $hide = 1 ] || echo "note: unshare cannot hide the build tree here; checking the compiler's path only"
	vadd_run found "$w/jit-found" "$tmp/nobuild" env VAST_LOG=info \
		VAST_CACHE_DIR="$tmp/found-cache" &&
		compiled_by found "jit=1 cache_hits=0"
}

route_jit_path() {
	local flags prefix
	prefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$build/CMakeCache.txt")
	if [ -x "$prefix/bin/vastcc" ]; then
		echo "note: skipped: '$prefix/bin/vastcc' comes before PATH"; return 0
	fi
	flags=$(PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --cflags --libs vastrt) ||
		fail "pkg-config vastrt" || return 1
	cc -O2 -I"$w/common" -o "$w/jit-path" "$w/vadd/host.c" $flags -lm ||
		fail "cc host.c \$(pkg-config --cflags --libs vastrt)" || return 1
	vadd_run path "$w/jit-path" env PATH="$P/bin:$PATH" "$tmp/nobuild" env VAST_LOG=info \
		VAST_CACHE_DIR="$tmp/path-cache" &&
		compiled_by path "jit=1 cache_hits=0"
}

route_jit_shared() {
	(cd "$w/vadd" && "$P/bin/vastcc" -O2 -I../common -o "$w/jit-shared" host.c -lm) ||
		fail "P/bin/vastcc host.c (no .cl)" || return 1
	vadd_run shared-linked "$w/jit-shared" "$tmp/nobuild" env VAST_LOG=info \
		VAST_CACHE_DIR="$tmp/shared-cache" &&
		compiled_by shared-linked "jit=1 cache_hits=0" || return 1
	vadd_run shared-vastrun "$w/native" "$tmp/nobuild" env VAST_LOG=info \
		VAST_CACHE_DIR="$tmp/shared-cache" "$P/bin/vastrun" &&
		compiled_by shared-vastrun "jit=1 cache_hits=1"
}

failed=0
for route in "$@"; do
	if ! declare -F "route_$route" > /dev/null; then
		fail "no such route"
		failed=1
	elif "route_$route"; then
		echo "PASS: install/$route"
	else
		failed=1
	fi
done
exit $failed
