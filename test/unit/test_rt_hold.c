/* SPDX-License-Identifier: MIT */
/*
 * test_rt_hold.c - which pages the hold has (runtime/mem/hold.c): pages
 * recorded, found only for the hold's buffer and within its pages,
 * forgotten, passed over a run at a time; out of memory, no hold and
 * nothing found. (Whether a page
 * the hold has is current is the directory's answer: poolloc.c.)
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
	CHECK(d.hold_pages == 8 && d.hold_shift == 16 && !vrt_hold_has(&d, 9, 0));
	for (size_t p = 1; p <= 3; p++)
		vrt_hold_put(&d, p);
	vrt_hold_put(&d, 7);
	vrt_hold_put(&d, 8); /* past the hold: not recorded */
	CHECK(vrt_hold_has(&d, 9, 2) && vrt_hold_has(&d, 9, 7));
	CHECK(!vrt_hold_has(&d, 8, 2)); /* another buffer */
	CHECK(!vrt_hold_has(&d, 9, 8) && !vrt_hold_has(&d, 9, 4));
	vrt_hold_forget(&d, 7);
	vrt_hold_forget(&d, 8); /* past the hold: nothing */
	CHECK(!vrt_hold_has(&d, 9, 7) && vrt_hold_has(&d, 9, 3));

	/* The first page not in the hold: past a run of its pages at once,
	 * never past the end asked, every page of another buffer. */
	CHECK(vrt_hold_lacks(&d, 9, 1, 8) == 4);   /* 1..3 held */
	CHECK(vrt_hold_lacks(&d, 9, 2, 3) == 3);   /* all held up to the end */
	CHECK(vrt_hold_lacks(&d, 9, 0, 8) == 0);
	CHECK(vrt_hold_lacks(&d, 9, 4, 8) == 4);
	CHECK(vrt_hold_lacks(&d, 8, 1, 8) == 1);   /* another buffer */
	vrt_hold_put(&d, 4);
	vrt_hold_put(&d, 5);
	vrt_hold_put(&d, 6);
	vrt_hold_put(&d, 7);
	CHECK(vrt_hold_lacks(&d, 9, 1, 12) == 8);  /* past the hold's pages */
	CHECK(vrt_hold_lacks(&d, 9, 9, 12) == 9);
	CHECK(vrt_hold_lacks(&d, 9, 5, 5) == 5);   /* an empty range */
	for (size_t p = 4; p < 8; p++)
		vrt_hold_forget(&d, p);

	/* Out of memory: no hold, nothing found. */
	vrt_alloc_fail_after(1);
	CHECK(vrt_hold_init(&d, 9, 8, 16) == -1);
	vrt_alloc_fail_after(0);
	CHECK(d.hold_pages == 0 && !vrt_hold_has(&d, 9, 1));
	vrt_hold_free(&d);
	CHECK(!d.held);
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures != 0;
}
