/* SPDX-License-Identifier: MIT */
/*
 * test_rt_hold.c - what the hold holds (runtime/mem/hold.c): pages recorded,
 * found only for the hold's buffer and within its pages, forgotten;
 * dirty pages listed as runs of consecutive pages (frame = page), stale
 * ones (another version) forgotten rather than listed; a launch's new
 * version carried to what it left dirty; settled pages clean.
 */
#include <stdio.h>
#include <string.h>

#include "vrt.h"

#include "check.h"

int main(void)
{
	vrt_devsets d;
	memset(&d, 0, sizeof d);
	CHECK(vrt_hold_init(&d, 9, 8, 16) == 0);
	CHECK(d.hold_pages == 8 && d.hold_shift == 16 && !vrt_hold_find(&d, 9, 0));
	/* pages 1, 2, 3 dirty at version 5, page 5 dirty at 4 (stale),
	 * page 6 clean, page 7 dirty */
	for (size_t p = 1; p <= 3; p++)
		vrt_hold_put(&d, p, 5, 1);
	vrt_hold_put(&d, 5, 4, 1);
	vrt_hold_put(&d, 6, 5, 0);
	vrt_hold_put(&d, 7, 5, 1);
	vrt_hold_put(&d, 8, 5, 1); /* past the hold: not recorded */
	CHECK(vrt_hold_find(&d, 9, 2) && vrt_hold_find(&d, 9, 2)->dirty);
	CHECK(!vrt_hold_find(&d, 8, 2)); /* another buffer */
	CHECK(!vrt_hold_find(&d, 9, 8));
	vrt_hold_forget(&d, 7);
	CHECK(!vrt_hold_find(&d, 9, 7));
	vrt_hold_put(&d, 7, 5, 1);

	/* A launch wrote the buffer (version 5 -> 6): its dirty pages carry
	 * the new version; the stale page 5 and clean page 6 keep theirs. */
	vrt_hold_restamp(&d, 5, 6);
	CHECK(vrt_hold_find(&d, 9, 1)->version == 6 && vrt_hold_find(&d, 9, 5)->version == 4);
	CHECK(vrt_hold_find(&d, 9, 6)->version == 5);

	vrt_res_run *runs;
	size_t n = vrt_hold_dirty_runs(&d, 6, &runs);
	CHECK(n == 2);
	if (n == 2) {
		CHECK(runs[0].serial == 9 && runs[0].page == 1 && runs[0].frame == 1 &&
		      runs[0].n == 3 && runs[0].set == VRT_HOLD_SET);
		CHECK(runs[1].page == 7 && runs[1].n == 1);
		vrt_hold_settle(&d, runs, n);
	}
	vrt_free(runs);
	CHECK(!vrt_hold_find(&d, 9, 5)); /* stale: forgotten */
	CHECK(vrt_hold_find(&d, 9, 2) && !vrt_hold_find(&d, 9, 2)->dirty);
	CHECK(vrt_hold_dirty_runs(&d, 6, &runs) == 0 && runs == NULL);

	/* Out of memory: no hold, nothing found. */
	vrt_alloc_fail_after(1);
	CHECK(vrt_hold_init(&d, 9, 8, 16) == -1);
	vrt_alloc_fail_after(0);
	CHECK(d.hold_pages == 0 && !vrt_hold_find(&d, 9, 1));
	vrt_hold_free(&d);
	CHECK(!d.held);
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures != 0;
}
