/* SPDX-License-Identifier: MIT */
/*
 * config.c - the VAST_* environment, read once at start-up.
 *
 * VAST_DEVICE_MEM  budget: a size ("64M", "2G", "4096") or "N%" of each
 *                  launch's buffer footprint (to force paging in tests)
 * VAST_PAGE_SIZE   page size, a power of two from 256 bytes to 1G
 * VAST_MODE        auto | paged | native
 * VAST_LOG         warn | info | debug
 * VAST_STATS       1 (on, yes, true): a table of the kernels at exit;
 *                  kv: key=value lines; 2, kv2: with the kernels' own time
 * VAST_PIPELINE    frame sets in flight in a paged launch, 1 to VRT_MAX_SETS
 * VAST_TRACE       FILE.json: a Chrome trace of every phase, written at exit
 * VAST_JIT         0: no compiling at clBuildProgram (jit.c)
 * VAST_CACHE       0: no on-disk cache of what it compiled (cache.c)
 * VAST_CACHE_MAX   a size: the cache's bound, over the one `vastcc
 *                  --cache-max` set (default 256M, cachestats.c)
 * VAST_CACHE_DIR, VAST_COMPILER: read where used (cache.c, jit.c)
 * VAST_DEVICES     all, or names like gpu0,gpu1,cpu: split launches over
 *                  these devices too (resolved at the first launch, devices.c)
 * Testing knobs (docs/runtime.md):
 * VAST_MAX_ALLOC   a size: the largest device buffer the runtime makes, when
 *                  smaller than CL_DEVICE_MAX_MEM_ALLOC_SIZE (frame sets
 *                  then span several buffers)
 * VAST_FAIL_DEVICE_MEM  a size: a paged launch's device buffers past that
 *                  many bytes fail at first use, as on a device that holds
 *                  less than it reports
 * VAST_FAIL_RANGE  N: the N-th paged range finished (from 1) reads as if its
 *                  kernel had touched a page its plan did not hold (tail.c)
 * VAST_RESIDENT    0: a paged launch sends every page from the host, never
 *                  reusing one an earlier launch left in the kept frames
 * VAST_HOLD        0: no hold (paged/keeps.c, choose_hold): only frames
 *                  keep pages between launches; to measure what the
 *                  hold saves
 * VAST_STRAIGHT    0: never launch the straight variant (paged/kargs.c); to
 *                  measure it against the checked paged kernel
 * VAST_OVERLAP     0: wait for each launch before the next command runs
 *                  (queue.c); to measure what overlapping them saves
 * VAST_FUSE        0: never run two paged launches range by range together
 *                  (launch.c, fused); to measure what fusing saves
 * VAST_PLAN_CHECK  1: each paged launch's move list (plan/moves.c) is
 *                  checked against what its ranges did; a mismatch fails it
 * VAST_PLAN_DUMP   FILE: each paged launch's layout, rows and moves are
 *                  appended to FILE as text (paged/planrec.c)
 * VAST_WGSPLIT     0: never run the program's work-groups as smaller ones,
 *                  even where its work-items are independent (launch.c);
 *                  such a group that does not fit is refused
 * The on/off variables (VAST_JIT, VAST_CACHE, VAST_PINNED and the testing
 * knobs) take 0/1, no/yes, false/true, off/on in any case; VAST_STATS and
 * VAST_FOOTPRINTS take the same besides 2 and check (vrt_parse_onoff).
 * Malformed values are reported once and ignored (defaults stand): the
 * runtime is inside someone else's program and must not stop it.
 *
 * Every variable the runtime reads, these and TMPDIR, HOME, XDG_CACHE_HOME,
 * goes through vrt_getenv. In a set-user-ID or set-group-ID program (or
 * one with file capabilities: the kernel's AT_SECURE) the environment is
 * chosen by a user with fewer rights than the program: VAST_COMPILER would
 * run as the program's owner, VAST_TRACE and the cache would write where
 * the owner may. There vrt_getenv reads nothing and the runtime runs the
 * program natively, compiling and caching nothing, as the dynamic linker
 * ignores LD_PRELOAD there.
 */
#define _GNU_SOURCE /* secure_getenv */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/auxv.h>

#include "base/base.h"

/* The defaults; every field not named is 0 (unset). */
vrt_config vrt_cfg = {
	.mode = VRT_RUN_AUTO,
	.pinned = 1,
	.pipeline = 3,
	.footprints = VRT_FP_ON,
	.jit = 1,
	.cache = 1,
	.resident = 1,
	.hold = 1,
	.straight = 1,
	.overlap = 1,
	.fuse = 1,
	.wgsplit = 1,
};

int vrt_parse_size(const char *s, unsigned long long *bytes, unsigned *percent)
{
	*bytes = 0;
	*percent = 0;
	if (!s)
		return -1;
	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s) && *s != '.')
		return -1;
	char *end;
	double v = strtod(s, &end);
	if (end == s || v < 0)
		return -1;
	while (isspace((unsigned char)*end))
		end++;
	double mul = 1;
	int pct = 0;
	switch (toupper((unsigned char)*end)) {
	case '\0': break;
	case '%': pct = 1; end++; break;
	case 'K': mul = 1024.0; end++; break;
	case 'M': mul = 1024.0 * 1024; end++; break;
	case 'G': mul = 1024.0 * 1024 * 1024; end++; break;
	case 'T': mul = 1024.0 * 1024 * 1024 * 1024; end++; break;
	default: return -1;
	}
	/* Accept "64MB", "64MiB" too. */
	if (!pct && mul > 1) {
		if (toupper((unsigned char)*end) == 'I')
			end++;
		if (toupper((unsigned char)*end) == 'B')
			end++;
	}
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -1;
	if (pct) {
		if (v <= 0 || v > 1e6)
			return -1;
		*percent = (unsigned)(v + 0.5);
		if (*percent == 0)
			*percent = 1;
		return 0;
	}
	double b = v * mul;
	if (b < 1 || b > 1.8e19)
		return -1;
	*bytes = (unsigned long long)b;
	return 0;
}

const char *vrt_getenv(const char *name)
{
	return secure_getenv(name);
}

int vrt_parse_onoff(const char *s)
{
	static const char *const words[][2] = {
		{ "0", "1" }, { "no", "yes" }, { "false", "true" }, { "off", "on" },
	};
	for (size_t i = 0; s && i < sizeof words / sizeof *words; i++)
		for (int v = 0; v < 2; v++)
			if (!strcasecmp(s, words[i][v]))
				return v;
	return -1;
}

#define ONOFF_WANT "0/1, no/yes, false/true or off/on"

/* An on/off knob: *flag is `dflt` unless the variable says otherwise;
 * a value that is neither is reported and the default stands. */
static void config_onoff(const char *name, int *flag, int dflt)
{
	const char *s = vrt_getenv(name);
	int v = s && *s ? vrt_parse_onoff(s) : dflt;
	if (v < 0)
		vrt_log(VRT_LOG_WARN, "ignoring %s='%s' (want " ONOFF_WANT ")", name, s);
	*flag = v < 0 ? dflt : v;
}

/* A byte count knob; malformed or a percentage: reported, ignored. */
static void config_size(const char *name, unsigned long long *bytes)
{
	const char *s = vrt_getenv(name);
	unsigned pct;
	if (s && *s && (vrt_parse_size(s, bytes, &pct) || pct)) {
		*bytes = 0;
		vrt_log(VRT_LOG_WARN, "ignoring %s='%s' (want a size like 64K)", name, s);
	}
}

void vrt_config_load(void)
{
	const char *s;
	if (getauxval(AT_SECURE)) {
		vrt_cfg.mode = VRT_RUN_NATIVE;
		vrt_cfg.jit = 0;
		vrt_cfg.cache = 0;
		vrt_log(VRT_LOG_WARN, "a set-user-ID or set-group-ID program (or one with file capabilities) "
		        "ignores VAST_*, TMPDIR and HOME: it runs natively, nothing compiled or cached");
		return;
	}
	if ((s = vrt_getenv("VAST_LOG")) && *s) {
		if (!strcmp(s, "warn"))
			vrt_log_set_level(VRT_LOG_WARN);
		else if (!strcmp(s, "info"))
			vrt_log_set_level(VRT_LOG_INFO);
		else if (!strcmp(s, "debug"))
			vrt_log_set_level(VRT_LOG_DEBUG);
		else
			vrt_log(VRT_LOG_WARN, "ignoring VAST_LOG='%s' (want warn, info or debug)", s);
	}
	if ((s = vrt_getenv("VAST_MODE")) && *s) {
		if (!strcmp(s, "auto"))
			vrt_cfg.mode = VRT_RUN_AUTO;
		else if (!strcmp(s, "paged"))
			vrt_cfg.mode = VRT_RUN_PAGED;
		else if (!strcmp(s, "native"))
			vrt_cfg.mode = VRT_RUN_NATIVE;
		else
			vrt_log(VRT_LOG_WARN, "ignoring VAST_MODE='%s' (want auto, paged or native)", s);
	}
	config_onoff("VAST_PINNED", &vrt_cfg.pinned, 1);
	vrt_cfg.stats = 0;
	if ((s = vrt_getenv("VAST_STATS")) && *s) {
		/* kv, kv2: the key=value lines of 1, 2 (stats.c) */
		int kv = !strncmp(s, "kv", 2);
		const char *level = kv ? s + 2 : s;
		if (kv && !*level)
			vrt_cfg.stats = 1;
		else if (!strcmp(level, "2"))
			vrt_cfg.stats = 2;
		else if (!kv && vrt_parse_onoff(s) >= 0)
			vrt_cfg.stats = vrt_parse_onoff(s);
		else
			vrt_log(VRT_LOG_WARN, "ignoring VAST_STATS='%s' (want " ONOFF_WANT ", 2, kv or kv2)", s);
		vrt_cfg.stats_kv = vrt_cfg.stats && kv;
	}
	if ((s = vrt_getenv("VAST_DEVICE_MEM")) && *s) {
		if (vrt_parse_size(s, &vrt_cfg.mem_bytes, &vrt_cfg.mem_percent))
			vrt_log(VRT_LOG_WARN, "ignoring VAST_DEVICE_MEM='%s' (want a size like 64M or a percentage like 50%%)", s);
	}
	if ((s = vrt_getenv("VAST_PIPELINE")) && *s) {
		char *end;
		long n = strtol(s, &end, 10);
		if (*end || n < 1 || n > VRT_MAX_SETS)
			vrt_log(VRT_LOG_WARN, "ignoring VAST_PIPELINE='%s' (want 1 to %d frame sets)", s,
			        VRT_MAX_SETS);
		else {
			vrt_cfg.pipeline = (unsigned)n;
			vrt_cfg.pipeline_forced = 1;
		}
	}
	config_onoff("VAST_JIT", &vrt_cfg.jit, 1);
	config_onoff("VAST_CACHE", &vrt_cfg.cache, 1);
	vrt_cfg.cache_max = 0;
	if ((s = vrt_getenv("VAST_CACHE_MAX")) && *s) {
		unsigned long long b;
		unsigned pct;
		if (vrt_parse_size(s, &b, &pct) || pct)
			vrt_log(VRT_LOG_WARN, "ignoring VAST_CACHE_MAX='%s' (want a size like 256M)", s);
		else
			vrt_cfg.cache_max = b;
	}
	config_size("VAST_MAX_ALLOC", &vrt_cfg.max_alloc);
	config_size("VAST_FAIL_DEVICE_MEM", &vrt_cfg.fail_device_mem);
	if ((s = vrt_getenv("VAST_FAIL_RANGE")) && *s) {
		char *end;
		unsigned long long n = strtoull(s, &end, 10);
		if (*end || !n)
			vrt_log(VRT_LOG_WARN, "ignoring VAST_FAIL_RANGE='%s' (want a range count from 1)", s);
		else
			vrt_cfg.fail_range = n;
	}
	if ((s = vrt_getenv("VAST_TRACE")) && *s)
		vrt_cfg.trace = s;
	config_onoff("VAST_RESIDENT", &vrt_cfg.resident, 1);
	config_onoff("VAST_HOLD", &vrt_cfg.hold, 1);
	config_onoff("VAST_STRAIGHT", &vrt_cfg.straight, 1);
	config_onoff("VAST_OVERLAP", &vrt_cfg.overlap, 1);
	config_onoff("VAST_FUSE", &vrt_cfg.fuse, 1);
	config_onoff("VAST_WGSPLIT", &vrt_cfg.wgsplit, 1);
	config_onoff("VAST_PLAN_CHECK", &vrt_cfg.plan_check, 0);
	if ((s = vrt_getenv("VAST_PLAN_DUMP")) && *s)
		vrt_cfg.plan_dump = s;
	if ((s = vrt_getenv("VAST_DEVICES")) && *s)
		vrt_cfg.devices = s;
	vrt_cfg.footprints = VRT_FP_ON;
	if ((s = vrt_getenv("VAST_FOOTPRINTS")) && *s) {
		if (!strcmp(s, "check"))
			vrt_cfg.footprints = VRT_FP_CHECK;
		else if (vrt_parse_onoff(s) >= 0)
			vrt_cfg.footprints = vrt_parse_onoff(s) ? VRT_FP_ON : VRT_FP_OFF;
		else
			vrt_log(VRT_LOG_WARN, "ignoring VAST_FOOTPRINTS='%s' (want " ONOFF_WANT ", or check)", s);
	}
	if ((s = vrt_getenv("VAST_PAGE_SIZE")) && *s) {
		unsigned long long b;
		unsigned pct;
		if (vrt_parse_size(s, &b, &pct) || pct || b < (1ull << VRT_MIN_PAGE_SHIFT) || b > (1ull << 30) ||
		    (b & (b - 1))) {
			vrt_log(VRT_LOG_WARN, "ignoring VAST_PAGE_SIZE='%s' (want a power of two from 256 to 1G)", s);
		} else {
			unsigned sh = 0;
			while ((1ull << sh) < b)
				sh++;
			vrt_cfg.page_shift = sh;
		}
	}
}
