/* SPDX-License-Identifier: MIT */
/*
 * test_rt_pinlimit.c - how much host memory may be pinned (pinned.c) and
 * the default budget left beside it (device.c). The driver backs pinned
 * memory with device memory, so the two together must stay within the
 * device less its margin, the frames must keep room, and a context whose
 * buffers pass the device may pin more than half of it (the 96 GiB
 * triad: its output and one input, 32 GiB each, on the H100).
 */
#include <stdio.h>

#include "vrt.h"

#include "check.h"

#define GiB (1ull << 30)
#define MiB (1ull << 20)

/* For any device size: the uses nest, and pins within a use's limit plus
 * the budget beside them stay within the device less its margin. */
static void check_nesting(unsigned long long mem)
{
	unsigned long long host = vrt_pin_limit(mem, VRT_PIN_HOST_COPY);
	unsigned long long past = vrt_pin_limit(mem, VRT_PIN_PAST_DEVICE);
	unsigned long long stage = vrt_pin_limit(mem, VRT_PIN_STAGING);
	CHECK(host <= past);
	CHECK(past < stage);
	CHECK(stage < mem - mem / 16);
	unsigned long long lim[] = {0, host, past, stage};
	for (unsigned i = 0; i < 4; i++) {
		unsigned long long b = vrt_budget_default(mem, lim[i]);
		CHECK(b + lim[i] <= mem - mem / 16);
		CHECK(b >= mem / 16);
	}
	/* Past the device the frames keep an eighth of it, less the staging. */
	CHECK(vrt_budget_default(mem, past) >= mem / 8);
	/* Nothing pinned: all but the margin. */
	CHECK(vrt_budget_default(mem, 0) == mem - mem / 16);
	/* More pinned than any use allows still leaves a budget. */
	CHECK(vrt_budget_default(mem, mem) == mem / 16);
}

int main(void)
{
	/* The H100's CL_DEVICE_GLOBAL_MEM_SIZE. */
	const unsigned long long h100 = 85029158912ull;
	check_nesting(h100);
	check_nesting(139ull * GiB);
	check_nesting(24ull * GiB);
	check_nesting(256 * MiB);

	/* triad at 96 GiB: the first 32 GiB buffer within half the device,
	 * the second not (the context's 64 GiB still fit the device), the
	 * third (96 GiB pass it) past the device; the ring's 128 MiB and a
	 * 1 GiB staging area beside them. */
	CHECK(32 * GiB <= vrt_pin_limit(h100, VRT_PIN_HOST_COPY));
	CHECK(64 * GiB > vrt_pin_limit(h100, VRT_PIN_HOST_COPY));
	CHECK(64 * GiB <= vrt_pin_limit(h100, VRT_PIN_PAST_DEVICE));
	CHECK(64 * GiB + 128 * MiB + GiB <= vrt_pin_limit(h100, VRT_PIN_STAGING));
	/* Measured: with 64 GiB pinned, 14 GiB of the H100 could still be
	 * allocated; the budget must not promise more. */
	unsigned long long b = vrt_budget_default(h100, 64 * GiB + 128 * MiB);
	CHECK(b <= 14 * GiB);
	CHECK(b >= 8 * GiB);

	if (failures)
		fprintf(stderr, "%d failure(s)\n", failures);
	else
		printf("pinlimit: ok\n");
	return failures != 0;
}
