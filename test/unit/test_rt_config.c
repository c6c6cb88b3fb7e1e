/* SPDX-License-Identifier: MIT */
/* test_rt_config.c - VAST_DEVICE_MEM / VAST_PAGE_SIZE size parsing, and
 * the on/off variables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vrt.h"

#include "check.h"

static int ok(const char *s, unsigned long long bytes, unsigned pct)
{
	unsigned long long b;
	unsigned p;
	return vrt_parse_size(s, &b, &p) == 0 && b == bytes && p == pct;
}

static int bad(const char *s)
{
	unsigned long long b;
	unsigned p;
	return vrt_parse_size(s, &b, &p) == -1;
}

/* What vrt_config_load writes to stderr (its warnings), malloc'd. */
static char *load_warnings(void)
{
	FILE *f = tmpfile();
	int saved = dup(2);
	fflush(stderr);
	dup2(fileno(f), 2);
	vrt_config_load();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	long n = ftell(f);
	char *s = calloc(1, n > 0 ? (size_t)n + 1 : 1);
	rewind(f);
	if (n > 0 && fread(s, 1, (size_t)n, f) != (size_t)n)
		s[0] = '\0';
	fclose(f);
	return s;
}

/* Every on/off variable takes 0/1, no/yes, false/true, off/on in any
 * case; anything else is one warning naming it, and its default stands. */
static void test_onoff(void)
{
	static const struct {
		const char *name;
		int *flag;
	} vars[] = {
		{ "VAST_PINNED", &vrt_cfg.pinned },     { "VAST_JIT", &vrt_cfg.jit },
		{ "VAST_CACHE", &vrt_cfg.cache },       { "VAST_RESIDENT", &vrt_cfg.resident },
		{ "VAST_HOLD", &vrt_cfg.hold },         { "VAST_STRAIGHT", &vrt_cfg.straight },
		{ "VAST_OVERLAP", &vrt_cfg.overlap },   { "VAST_FUSE", &vrt_cfg.fuse },
		{ "VAST_WGSPLIT", &vrt_cfg.wgsplit },
	};
	static const char *const off[] = { "0", "no", "false", "off", "NO", "False", "OFF" };
	static const char *const on[] = { "1", "yes", "true", "on", "YES", "True", "On" };
	for (size_t v = 0; v < sizeof vars / sizeof *vars; v++) {
		for (size_t i = 0; i < sizeof off / sizeof *off; i++) {
			setenv(vars[v].name, off[i], 1);
			char *w = load_warnings();
			if (*vars[v].flag != 0 || *w)
				fprintf(stderr, "%s=%s: %d '%s'\n", vars[v].name, off[i], *vars[v].flag, w);
			CHECK(*vars[v].flag == 0 && !*w);
			free(w);
		}
		for (size_t i = 0; i < sizeof on / sizeof *on; i++) {
			setenv(vars[v].name, on[i], 1);
			char *w = load_warnings();
			CHECK(*vars[v].flag == 1 && !*w);
			free(w);
		}
		/* Not a yes or a no: the default (on) and one warning. */
		setenv(vars[v].name, "nein", 1);
		char *w = load_warnings(), want[128];
		snprintf(want, sizeof want, "%s='nein'", vars[v].name);
		if (!strstr(w, want))
			fprintf(stderr, "%s=nein warned '%s'\n", vars[v].name, w);
		CHECK(*vars[v].flag == 1 && strstr(w, want) && strstr(w, "warning") &&
		      strchr(w, '\n') == strrchr(w, '\n'));
		free(w);
		unsetenv(vars[v].name);
	}
	/* VAST_STATS: off, on, or 2; VAST_FOOTPRINTS: off, on, or check. */
	setenv("VAST_STATS", "yes", 1);
	setenv("VAST_FOOTPRINTS", "off", 1);
	vrt_config_load();
	CHECK(vrt_cfg.stats == 1 && vrt_cfg.footprints == VRT_FP_OFF);
	setenv("VAST_STATS", "off", 1);
	setenv("VAST_FOOTPRINTS", "TRUE", 1);
	vrt_config_load();
	CHECK(vrt_cfg.stats == 0 && vrt_cfg.footprints == VRT_FP_ON);
	setenv("VAST_STATS", "2", 1);
	setenv("VAST_FOOTPRINTS", "check", 1);
	vrt_config_load();
	CHECK(vrt_cfg.stats == 2 && vrt_cfg.footprints == VRT_FP_CHECK);
	setenv("VAST_STATS", "often", 1);
	setenv("VAST_FOOTPRINTS", "maybe", 1);
	char *w = load_warnings();
	CHECK(strstr(w, "VAST_STATS='often'") && strstr(w, "VAST_FOOTPRINTS='maybe'"));
	CHECK(vrt_cfg.stats == 0 && vrt_cfg.footprints == VRT_FP_ON);
	free(w);
	unsetenv("VAST_STATS");
	unsetenv("VAST_FOOTPRINTS");
}

int main(void)
{
	CHECK(ok("4096", 4096, 0));
	CHECK(ok("64K", 64 << 10, 0));
	CHECK(ok("64k", 64 << 10, 0));
	CHECK(ok("64M", 64ull << 20, 0));
	CHECK(ok("2G", 2ull << 30, 0));
	CHECK(ok("1T", 1ull << 40, 0));
	CHECK(ok("1.5G", 3ull << 29, 0));
	CHECK(ok("8MiB", 8ull << 20, 0));
	CHECK(ok("8MB", 8ull << 20, 0));
	CHECK(ok(" 16M ", 16ull << 20, 0));
	CHECK(ok("50%", 0, 50));
	CHECK(ok("10%", 0, 10));
	CHECK(ok("250%", 0, 250));
	CHECK(bad(""));
	CHECK(bad("M"));
	CHECK(bad("-5M"));
	CHECK(bad("12Q"));
	CHECK(bad("0"));
	CHECK(bad("0%"));
	CHECK(bad("5%%"));
	CHECK(bad("64M junk"));
	CHECK(bad(NULL));

	/* The environment is read once, at start-up. */
	setenv("VAST_DEVICE_MEM", "25%", 1);
	setenv("VAST_PAGE_SIZE", "4K", 1);
	setenv("VAST_MODE", "paged", 1);
	setenv("VAST_LOG", "debug", 1);
	vrt_config_load();
	CHECK(vrt_cfg.mem_percent == 25 && vrt_cfg.mem_bytes == 0);
	CHECK(vrt_cfg.page_shift == 12);
	CHECK(vrt_cfg.mode == VRT_RUN_PAGED);
	CHECK(vrt_log_level() == VRT_LOG_DEBUG);
	setenv("VAST_PAGE_SIZE", "3000", 1); /* not a power of two: ignored */
	setenv("VAST_LOG", "warn", 1);
	vrt_cfg.page_shift = 0;
	vrt_config_load();
	CHECK(vrt_cfg.page_shift == 0);

	/* VAST_PIPELINE: frame sets in flight, 1 to VRT_MAX_SETS, default 3. */
	CHECK(vrt_cfg.pipeline == 3 && vrt_cfg.trace == NULL && !vrt_cfg.pipeline_forced);
	setenv("VAST_PIPELINE", "1", 1);
	setenv("VAST_TRACE", "t.json", 1);
	vrt_config_load();
	CHECK(vrt_cfg.pipeline == 1 && vrt_cfg.pipeline_forced);
	CHECK(vrt_cfg.trace && !strcmp(vrt_cfg.trace, "t.json"));
	const char *badsets[] = {"0", "9", "2x", "-1", ""};
	for (size_t i = 0; i < sizeof badsets / sizeof *badsets; i++) {
		setenv("VAST_PIPELINE", badsets[i], 1);
		vrt_config_load();
		CHECK(vrt_cfg.pipeline == 1); /* ignored: the value stands */
	}
	unsetenv("VAST_TRACE");
	unsetenv("VAST_PIPELINE");
	unsetenv("VAST_DEVICE_MEM");
	unsetenv("VAST_PAGE_SIZE");
	unsetenv("VAST_MODE");
	unsetenv("VAST_LOG");
	test_onoff();
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures != 0;
}
