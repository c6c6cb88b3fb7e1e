/* SPDX-License-Identifier: MIT */
/*
 * test_rt_devmerge.c - what a resident split merges on the devices
 * (runtime/launch/devmerge.c, docs/multi.md "Resident shares"), decided
 * before any device is touched: the pages two or more windows may write,
 * each page's destination (the lowest-index share that may write it),
 * the scratch a destination needs, and what each share's replica is the
 * newest copy of afterwards (its may-write pages less the shared pages
 * of other destinations). Three shares write one page; two write
 * another, the buffer's partial last page; a read-only buffer and
 * disjoint windows share nothing.
 */
#include <string.h>

#include "vrt.h"

#include "check.h"

#define PAGE 4096
#define PAGES 4

/* wr for share j's pages listed in `pages` (a string of page digits). */
static void pages_of(unsigned char *wr, const char *pages)
{
	memset(wr, 0, PAGES);
	for (; *pages; pages++)
		wr[*pages - '0'] = 1;
}

static int same(const unsigned char *wr, const char *pages)
{
	unsigned char want[PAGES];
	pages_of(want, pages);
	return !memcmp(wr, want, PAGES);
}

int main(void)
{
	vrt_mem out, in;
	memset(&out, 0, sizeof out);
	memset(&in, 0, sizeof in);
	out.size = PAGES * PAGE - 100; /* a partial last page */
	in.size = PAGES * PAGE;
	vrt_launch L;
	memset(&L, 0, sizeof L);
	L.nslots = 2;
	L.slot_mem[1] = &out;
	L.slot_mode[1] = VAST_MODE_W;
	L.slot_mem[2] = &in;
	L.slot_mode[2] = VAST_MODE_R;

	/* Page 1: shares 0, 1 and 2 (destination 0); page 3: shares 1 and
	 * 2 (destination 1); pages 0 and 2 one share's each. */
	vrt_devmerge *M = vrt_devmerge_new(&L, 3);
	CHECK(M != NULL);
	if (!M)
		return 1;
	unsigned char wr[3][PAGES], rd[PAGES];
	pages_of(wr[0], "01");
	pages_of(wr[1], "123");
	pages_of(wr[2], "13");
	pages_of(rd, "0123");
	for (unsigned j = 0; j < 3; j++) {
		vrt_devmerge_writes(M, j, 1, wr[j]);
		vrt_devmerge_writes(M, j, 2, rd); /* read-only: never merged */
	}
	CHECK(vrt_devmerge_pages(M) == 2);
	/* A destination keeps its shared pages' bytes and one chunk of
	 * another writer's (at most as large as those pages). */
	CHECK(vrt_devmerge_scratch(M, 0) == 2 * PAGE);
	CHECK(vrt_devmerge_scratch(M, 1) == 2 * PAGE);
	CHECK(vrt_devmerge_scratch(M, 2) == 0);
	for (unsigned j = 0; j < 3; j++)
		vrt_devmerge_claims(M, j, 1, wr[j]);
	CHECK(same(wr[0], "01"));  /* page 1 merged here */
	CHECK(same(wr[1], "23"));  /* page 3 merged here; page 1 is share 0's */
	CHECK(same(wr[2], ""));    /* every page it wrote merged elsewhere */
	vrt_devmerge_claims(M, 0, 2, rd);
	CHECK(same(rd, "0123"));  /* a slot not written keeps what it had */
	vrt_devmerge_free(M);

	/* Disjoint windows: nothing to merge, nothing claimed away. */
	M = vrt_devmerge_new(&L, 2);
	CHECK(M != NULL);
	if (!M)
		return 1;
	pages_of(wr[0], "01");
	pages_of(wr[1], "23");
	vrt_devmerge_writes(M, 0, 1, wr[0]);
	vrt_devmerge_writes(M, 1, 1, wr[1]);
	CHECK(vrt_devmerge_pages(M) == 0);
	CHECK(vrt_devmerge_scratch(M, 0) == 0 && vrt_devmerge_scratch(M, 1) == 0);
	vrt_devmerge_claims(M, 1, 1, wr[1]);
	CHECK(same(wr[1], "23"));
	vrt_devmerge_free(M);

	if (!failures)
		printf("ok: devmerge plans\n");
	return failures != 0;
}
