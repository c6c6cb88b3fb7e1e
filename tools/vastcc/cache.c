/* SPDX-License-Identifier: MIT */
/*
 * cache.c - `vastcc --cache-stats`, `--clear-cache` and `--cache-max=SIZE`:
 * the runtime's cache of programs compiled at clBuildProgram, shown and
 * managed as ccache's -s, -C and -M do.
 *
 * The directory is the runtime's (VAST_CACHE_DIR, else
 * $XDG_CACHE_HOME/vastcc, else ~/.cache/vastcc), opened by the runtime's
 * own code (runtime/cache.c and cachestats.c, linked in) under the same
 * trust rule, so a directory the runtime would refuse is an error here.
 * Only the cache's entries are counted or removed; the runtime's counts
 * of hits and misses and the size setting live beside them. The
 * operations run in one order whatever the command line's: --cache-max
 * sets the bound and trims the cache to it at once, --clear-cache removes
 * every entry and keeps the counts and the bound, --cache-stats comes
 * last and shows what the others left.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "driver.h"
#include "vrt.h"

/* "12.1 KiB", a size as people read it. */
static const char *human(unsigned long long b, char buf[32])
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)b;
	int u = 0;
	while (v >= 1024 && u < 4)
		v /= 1024, u++;
	if (u)
		snprintf(buf, 32, "%.1f %s", v, units[u]);
	else
		snprintf(buf, 32, "%llu B", b);
	return buf;
}

/* A size argument or variable: "256M", "1G", "4096"; false when it is none. */
static bool parse_max(const char *s, unsigned long long *max)
{
	unsigned pct;
	return s && vrt_parse_size(s, max, &pct) == 0 && !pct;
}

/* VAST_CACHE_MAX, which overrides the directory's setting; 0 when unset
 * (or malformed: warned, as the runtime does). */
static unsigned long long env_max(void)
{
	const char *s = getenv("VAST_CACHE_MAX");
	unsigned long long max = 0;
	if (s && *s && !parse_max(s, &max)) {
		fprintf(stderr, "vastcc: warning: ignoring VAST_CACHE_MAX='%s' (want a size like 256M)\n",
		        s);
		max = 0;
	}
	return max;
}

static int refused(const char *dir, const char *why)
{
	fprintf(stderr, "vastcc: error: cache directory '%s': %s\n", dir, why);
	return 1;
}

static int set_max(const char *dir, const char *arg)
{
	char why[256], a[32], b[32];
	unsigned long long max;
	vrt_cache_usage removed;
	if (!parse_max(arg, &max)) {
		fprintf(stderr, "vastcc: error: invalid --cache-max '%s' (want a size like 256M)\n",
		        arg);
		return 1;
	}
	int dfd = vrt_cache_open_dir(dir, 1, why, sizeof why);
	if (dfd < 0)
		return refused(dir, why);
	if (vrt_cache_set_max(dfd, max, why, sizeof why)) {
		close(dfd);
		return refused(dir, why);
	}
	vrt_cache_trim(dfd, max, NULL, &removed);
	close(dfd);
	printf("cache max size set to %s (%llu bytes)", human(max, a), max);
	if (removed.entries)
		printf("; removed %llu entries (%s) to fit", removed.entries,
		       human(removed.bytes, b));
	printf("\n");
	if (env_max())
		fprintf(stderr, "vastcc: warning: VAST_CACHE_MAX, while set, overrides it\n");
	return 0;
}

static int clear(const char *dir)
{
	char why[256], a[32];
	vrt_cache_usage removed = { 0, 0 };
	int dfd = vrt_cache_open_dir(dir, 0, why, sizeof why);
	if (dfd < 0 && *why)
		return refused(dir, why);
	if (dfd >= 0) {
		vrt_cache_trim(dfd, 0, NULL, &removed);
		close(dfd);
	}
	printf("cache cleared: removed %llu entries (%s)\n", removed.entries,
	       human(removed.bytes, a));
	return 0;
}

static int show(const char *dir)
{
	char why[256], a[32];
	vrt_cache_usage left = { 0, 0 };
	vrt_cache_numbers nums = { 0, 0, 0 };
	int dfd = vrt_cache_open_dir(dir, 0, why, sizeof why);
	if (dfd < 0 && *why)
		return refused(dir, why);
	if (dfd >= 0) {
		int bad = vrt_cache_numbers_read(dfd, &nums, why, sizeof why);
		if (!bad)
			vrt_cache_trim(dfd, ~0ull, &left, NULL);
		close(dfd);
		if (bad)
			return refused(dir, why);
	}
	unsigned long long env = env_max();
	unsigned long long max = env ? env : nums.max ? nums.max : VRT_CACHE_MAX_DEFAULT;
	const char *from = env ? "from VAST_CACHE_MAX" : nums.max ? "set by --cache-max"
	                                                          : "the default";
	printf("%-16s %s%s\n", "cache directory", dir, dfd < 0 ? " (not made yet)" : "");
	printf("%-16s %llu\n", "entries", left.entries);
	printf("%-16s %s (%llu bytes)\n", "size", human(left.bytes, a), left.bytes);
	printf("%-16s %s (%llu bytes), %s\n", "max size", human(max, a), max, from);
	printf("%-16s %llu\n", "hits", nums.hits);
	printf("%-16s %llu\n", "misses", nums.misses);
	return 0;
}

int cache_command(const options *opt)
{
	for (size_t i = 0; i < opt->ninputs; i++)
		if (opt->inputs[i].kind != IN_LINK) {
			fprintf(stderr, "vastcc: error: --cache-stats, --clear-cache and --cache-max "
			                "take no input files\n");
			return 1;
		}
	char *dir = vrt_cache_dir();
	if (!dir) {
		fprintf(stderr, "vastcc: error: no cache directory: set VAST_CACHE_DIR (or HOME)\n");
		return 1;
	}
	int rc = 0;
	if (opt->cache_max)
		rc = set_max(dir, opt->cache_max);
	if (!rc && opt->clear_cache)
		rc = clear(dir);
	if (!rc && opt->cache_stats)
		rc = show(dir);
	vrt_free(dir);
	return rc;
}
