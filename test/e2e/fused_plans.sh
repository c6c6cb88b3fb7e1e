#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# fused_plans.sh VASTCC: a fused pair's plan (runtime/paged/plancache.c,
# plan/plans.c) is kept and reused like a single launch's, and only where
# it is the plan the pair would make again.
#   fdtd2d (examples/fdtd2d), 10 steps: fdtd_ex and fdtd_hz run fused
#   (where the program queued fdtd_hz before fdtd_ex started: not every
#   step on a slow host) and plan once: fdtd_ex plans at most once more
#   than its unfused launches (it planned at every fused step before);
#   fuseplans (fuseplans/host.c): the kept plan of produce and shifted
#   runs their next pair, not the pair where shifted's k (a scalar its
#   descriptors name) makes it inexact, nor the pair with another second
#   kernel made where the first one was: produce's plan_hits = 3 (two
#   fused pairs and one of its own), shifted fused 4 times; a pair like
#   one refused before is refused at once, not planned again (pair 8).
# Every output must be the native build's byte for byte, at a quarter of
# the data and with one frame set.
set -u
vastcc=$1
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "fused_plans: FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vast-fplans.XXXXXX") || { echo "fused_plans: mktemp failed" >&2; exit 1; }
trap 'rm -rf "$tmp"' EXIT
unset VAST_DEVICE_MEM VAST_MODE VAST_STATS VAST_TRACE VAST_PAGE_SIZE VAST_PIPELINE \
	VAST_MAX_ALLOC VAST_FAIL_DEVICE_MEM VAST_FAIL_RANGE VAST_LOG VAST_PINNED VAST_FOOTPRINTS \
	VAST_RESIDENT VAST_OVERLAP VAST_FUSE VAST_DEVICES VAST_PLAN_CHECK
export VAST_CACHE_DIR=$tmp/cache
field() { echo "$1" | sed -E "s/.* $2=([0-9]+).*/\\1/"; }
stats() { # log kernel: its VAST_STATS=kv line
	grep "^vast: kernel $2 " "$1" || { tail -5 "$1" >&2; fail "no stats for $2"; }
}

VAST_BUILD=$(dirname "$(dirname "$vastcc")") VAST_E2E_BUILD_ONLY=$tmp \
	bash "$here/diff.sh" fdtd2d >/dev/null 2>&1 || fail "building fdtd2d failed"
args=(256 256 10)
"$tmp/native/fdtd2d/fdtd2d" -o "$tmp/native.out" "${args[@]}" >/dev/null 2>&1 ||
	fail "fdtd2d: the native run failed"
for run in "" "VAST_PIPELINE=1"; do
	# shellcheck disable=SC2086
	env VAST_DEVICE_MEM=25% VAST_STATS=kv2 $run "$tmp/vast/fdtd2d/fdtd2d" -o "$tmp/vast.out" \
		"${args[@]}" >"$tmp/log" 2>&1 || { tail -5 "$tmp/log"; fail "fdtd2d $run: the run failed"; }
	cmp -s "$tmp/native.out" "$tmp/vast.out" || fail "fdtd2d $run: output differs"
	ex=$(stats "$tmp/log" fdtd_ex) && hz=$(stats "$tmp/log" fdtd_hz) || exit 1
	launches=$(field "$ex" launches) fused=$(field "$hz" fused)
	plans=$(field "$ex" fp_plans) hits=$(field "$ex" plan_hits)
	[ "$(field "$ex" ranges)" -ge $((2 * launches)) ] || fail "fdtd2d $run: fdtd_ex not paged ($ex)"
	# A step whose fdtd_hz was not queued yet when fdtd_ex started (a
	# slow host: the sanitizer build) runs unfused, on a plan of
	# fdtd_ex's own: the pair's plan once, and each of those at most once.
	[ $((plans + hits)) = "$launches" ] || fail "fdtd2d $run: fdtd_ex neither planned nor hit a plan ($ex)"
	[ "$plans" -le $((1 + launches - fused)) ] ||
		fail "fdtd2d $run: fdtd_ex planned $plans times, fused $fused of $launches, want at most $((1 + launches - fused)) ($ex)"
	[ "$fused" -ge 2 ] || echo "note: fdtd2d $run: fused only $fused times: fuseplans below is the check"
	echo "ok: fdtd2d $run: identical, fused $fused of $launches launches, $plans plans"
done

mkdir "$tmp/fp" && cp "$here"/fuseplans/* "$here/../rt/rt_host.h" "$tmp/fp/" && cd "$tmp/fp" || exit 1
cc -O1 -w -o plain host.c -lOpenCL || fail "cc"
"$vastcc" -O1 -w -o app host.c fuseplans.cl || fail "vastcc"
./plain ref.bin || fail "fuseplans: the native run failed"
for run in "" "VAST_PIPELINE=1"; do
	# shellcheck disable=SC2086
	env VAST_DEVICE_MEM=25% VAST_STATS=kv VAST_LOG=debug $run ./app out.bin >log 2>&1 ||
		{ tail -5 log; fail "fuseplans $run: the run failed"; }
	cmp -s ref.bin out.bin || fail "fuseplans $run: output differs"
	p=$(stats log produce) && s=$(stats log shifted) || exit 1
	[ "$(field "$s" fused)" = 4 ] || fail "fuseplans $run: shifted fused $(field "$s" fused) times, want 4 ($s)"
	[ "$(grep -c "not fused with .*: a page" log)" = 3 ] ||
		fail "fuseplans $run: want three pairs planned and refused, with their reason"
	[ "$(grep -c "not fused with .*: refused before" log)" = 1 ] ||
		fail "fuseplans $run: want the last pair refused as the one before it, not planned again"
	[ "$(field "$p" plan_hits)" = 5 ] || fail "fuseplans $run: produce plan_hits=$(field "$p" plan_hits), want 5 ($p)"
	echo "ok: fuseplans $run: identical, kept fused plans reused where they may be"
done
echo "fused_plans: PASS"
