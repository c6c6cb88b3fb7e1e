/* SPDX-License-Identifier: MIT */
/*
 * test_rt_fill.c - the range-width decisions (plan/fill.c): when ranges
 * are too narrow to fill a device, and when one frame set replaces several.
 * Edge cases: fewer groups than units, a launch that fits in one range,
 * an unknown unit count, ranges of several groups a PAS row.
 */
#include <stdio.h>
#include <string.h>

#include "vrt.h"

#include "check.h"

static void test_narrow(void)
{
	/* 132 units (an H100): 57 groups a range leave 75 idle. */
	CHECK(vrt_fill_narrow(57, 132));
	CHECK(vrt_fill_narrow(2 * 132 - 1, 132));
	CHECK(!vrt_fill_narrow(2 * 132, 132));
	/* Fewer groups than units: never filled. */
	CHECK(vrt_fill_narrow(1, 2));
	/* No unit count: nothing is called narrow. */
	CHECK(!vrt_fill_narrow(1, 0));
}

static void test_widest(void)
{
	vrt_range r[3] = { { 0, 3, 9 }, { 4, 10, 9 }, { 11, 12, 4 } };
	CHECK(vrt_fill_widest(r, 3, 1) == 7);
	CHECK(vrt_fill_widest(r, 3, 4) == 28); /* rows of 4 groups */
	CHECK(vrt_fill_widest(r, 0, 1) == 0);
}

static void test_sets(void)
{
	/* Narrow at 3 sets, three times as wide at one: one set. */
	CHECK(vrt_fill_sets(3, 19, 57, 132) == 1);
	/* Narrow, but one set barely wider (nbody: the positions every
	 * group reads fill the budget whatever the sets): keep the sets. */
	CHECK(vrt_fill_sets(3, 50, 57, 132) == 3);
	/* Wide enough to fill: keep the sets and their overlap. */
	CHECK(vrt_fill_sets(3, 4096, 12288, 132) == 3);
	/* The whole launch in one range at 3 sets (budget fits all): kept. */
	CHECK(vrt_fill_sets(3, 10, 10, 132) == 3);
	/* One set already, or no unit count: unchanged. */
	CHECK(vrt_fill_sets(1, 3, 9, 2) == 1);
	CHECK(vrt_fill_sets(3, 3, 9, 0) == 3);
	/* Fewer groups in the widest range than units (a CPU of 2 cores,
	 * ranges of one group): one set's ranges of 3 are wider. */
	CHECK(vrt_fill_sets(3, 1, 3, 2) == 1);
}

int main(void)
{
	test_narrow();
	test_widest();
	test_sets();
	if (failures)
		fprintf(stderr, "%d failures\n", failures);
	return failures != 0;
}
