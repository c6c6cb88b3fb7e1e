/* SPDX-License-Identifier: MIT */
/* test_rt_config.c - VAST_DEVICE_MEM / VAST_PAGE_SIZE size parsing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures != 0;
}
