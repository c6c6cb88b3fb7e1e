# SPDX-License-Identifier: MIT
#
# bench/jit-build/common.sh - what run.sh and many.sh share, sourced by
# both: the options they both take, the two builds of buildtime.c (cc and
# vastcc), the checks before a run and its environment, and the figures'
# arithmetic.
#
# The sourcing script sets NAME (its messages' prefix) first, and
# defines script_option OPTION [VALUE]: sets what one of its own options
# means and returns how many words it took (1 a flag, 2 an option with a
# value, 0 not one of its own). Then: parse_options "$@"; its own checks;
# prepare_run (builds, stops after --build-only, checks the builds, makes
# $tmp).

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$ROOT/bench/jit-build
REPS=5 BUILD=1 RUN=1
VASTCC=${VASTCC:-$ROOT/build/bin/vastcc}
OUT=$ROOT/bench/out/jit-build

die() { echo "$NAME: $*" >&2; exit 1; }

# The script's header comment from its third line, as --help.
usage() { awk 'NR < 3 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; }

parse_options() {
	local took
	while [ $# -gt 0 ]; do
		case $1 in
		--reps) REPS=$2; took=2 ;;
		--vastcc) VASTCC=$2; took=2 ;;
		--out) OUT=$2; took=2 ;;
		--no-build) BUILD=0; took=1 ;;
		--build-only) RUN=0; took=1 ;;
		-h | --help) usage; exit 0 ;;
		*) script_option "$@"; took=$? ;;
		esac
		[ $took -gt 0 ] || { echo "$NAME: unknown option '$1' (see --help)" >&2; exit 2; }
		shift $took
	done
	[ "$REPS" -ge 1 ] 2>/dev/null || die "--reps wants a positive count"
}

# Builds buildtime-native and buildtime-vast into $B (unless --no-build),
# stops there after --build-only, else checks both builds and the
# compiler the runtime runs, clears the runtime's knobs and makes $tmp
# (removed at exit).
prepare_run() {
	mkdir -p "$OUT/build" || die "cannot make $OUT"
	OUT=$(cd "$OUT" && pwd)
	B=$OUT/build
	if [ $BUILD = 1 ]; then
		[ -x "$VASTCC" ] || die "$VASTCC not found: build vastcc, or pass --vastcc"
		cc -O2 -o "$B/buildtime-native" "$HERE/buildtime.c" -lOpenCL ||
			die "the native build of buildtime.c failed"
		"$VASTCC" -O2 -o "$B/buildtime-vast" "$HERE/buildtime.c" ||
			die "the vastcc build of buildtime.c failed"
	fi
	[ $RUN = 1 ] || { echo "$NAME: built under $B"; exit 0; }
	# The compiler the runtime runs at clBuildProgram: this one, wherever
	# the runtime would look by itself (the build tree may have moved).
	[ -x "$VASTCC" ] || die "$VASTCC not found: the runtime needs it to compile at clBuildProgram (--vastcc)"
	export VAST_COMPILER=$VASTCC
	local p
	for p in native vast; do
		[ -x "$B/buildtime-$p" ] || die "$B/buildtime-$p not found: build first (without --no-build)"
	done
	# The runtime's knobs must not leak in; every cache the scripts use
	# is their own.
	unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_LOG VAST_JIT VAST_CACHE VAST_CACHE_DIR
	# The driver's cache stays where it was (PoCL keeps it under
	# XDG_CACHE_HOME, which the runs change to give each its own vastcc
	# cache).
	export POCL_CACHE_DIR=${POCL_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pocl}
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-jit-build.XXXXXX") || die "mktemp"
	trap 'rm -rf "$tmp"' EXIT
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
