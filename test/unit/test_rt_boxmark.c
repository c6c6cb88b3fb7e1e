/* SPDX-License-Identifier: MIT */
/*
 * test_rt_boxmark.c - vrt_box_mark against brute force: random boxes
 * (origins before, inside and past the buffer; runs shorter and longer
 * than a page; pitches just under, at and over a run plus a page, where
 * folding dimensions into one interval stops being exact) and page sizes;
 * the pages marked must be exactly those of the buffer that some byte of
 * the box falls in. vrt_box_mark_count over a part already partly
 * marked: the same marks, the pages it set that were clear counted, and
 * the pages from its first mark to its last.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/footprint.h"

static int failures;

#define MAXPAGES 4096
static unsigned char want[MAXPAGES], got[MAXPAGES], before[MAXPAGES + 8];

/* Every block of b, one byte at a time. */
static void brute(const vrt_box *b, unsigned d, long long at, size_t npages, unsigned shift)
{
	if (d == 0) {
		for (unsigned long long i = 0; i < b->run; i++) {
			long long x = at + (long long)i;
			if (x >= 0 && (x >> shift) < (long long)npages)
				want[x >> shift] = 1;
		}
		return;
	}
	for (unsigned long long k = 0; k < b->dim[d - 1].count; k++)
		brute(b, d - 1, at + (long long)k * b->dim[d - 1].pitch, npages, shift);
}

static unsigned rnd(unsigned n)
{
	return (unsigned)rand() % n;
}

int main(void)
{
	srand(7);
	for (int iter = 0; iter < 20000; iter++) {
		unsigned shift = 4 + rnd(5); /* 16..256-byte pages */
		size_t page = (size_t)1 << shift;
		size_t size = 1 + rnd(64 * (unsigned)page);
		size_t npages = (size + page - 1) >> shift;
		vrt_box b;
		memset(&b, 0, sizeof b);
		b.run = 1 + rnd(2 * (unsigned)page);
		b.origin = (long long)rnd((unsigned)(size + 2 * page)) - (long long)page;
		b.ndims = rnd(4);
		unsigned long long span = b.run;
		for (unsigned i = 0; i < b.ndims; i++) {
			/* pitches ascending, each larger than the run below */
			long long pitch = (long long)span + 1 + rnd(i == 0 ? 3 * (unsigned)page : 64);
			if (rnd(4) == 0) /* exactly at the folding limit */
				pitch = (long long)(span + page) - (long long)rnd(2);
			b.dim[i].pitch = pitch;
			b.dim[i].count = rnd(6);
			span = (unsigned long long)pitch * (b.dim[i].count ? b.dim[i].count : 1) + b.run;
		}
		memset(want, 0, npages);
		memset(got, 0, npages);
		brute(&b, b.ndims, b.origin, npages, shift);
		if (!vrt_box_mark(got, npages, shift, &b)) {
			fprintf(stderr, "iteration %d: refused a small box\n", iter);
			failures++;
			continue;
		}
		if (memcmp(want, got, npages)) {
			fprintf(stderr, "iteration %d: shift %u, pages %zu, origin %lld, run %llu, dims %u:",
			        iter, shift, npages, b.origin, b.run, b.ndims);
			for (unsigned i = 0; i < b.ndims; i++)
				fprintf(stderr, " (%lld x %llu)", b.dim[i].pitch, b.dim[i].count);
			fputc('\n', stderr);
			failures++;
			if (failures > 10)
				break;
		}
		/* Counted, over random earlier marks (from an offset, so that
		 * words start anywhere in the part): b, then b moved back by
		 * up to the buffer's size, into one count. */
		vrt_box c = b;
		c.origin -= (long long)rnd((unsigned)size + 1);
		brute(&c, c.ndims, c.origin, npages, shift);
		size_t at = rnd(8), fresh = 0, lo = npages, hi = 0;
		unsigned char *part = before + at;
		for (size_t p = 0; p < npages; p++) {
			part[p] = rnd(3) == 0;
			fresh += want[p] && !part[p];
			if (want[p]) {
				lo = p < lo ? p : lo;
				hi = p + 1;
			}
		}
		vrt_marked m = { 7, 0, 0 }; /* adds to what it holds */
		if (rnd(2))
			m = (vrt_marked){ 0, 0, 0 };
		size_t fresh0 = m.fresh;
		int marked_any = hi > 0;
		if (!vrt_box_mark_count(part, npages, shift, &b, &m) ||
		    !vrt_box_mark_count(part, npages, shift, &c, &m) ||
		    m.fresh - fresh0 != fresh || (marked_any && (m.lo != lo || m.hi != hi)) ||
		    (!marked_any && m.lo != m.hi)) {
			fprintf(stderr, "iteration %d: counted %zu new pages [%zu, %zu), want %zu [%zu, %zu)\n",
			        iter, m.fresh - fresh0, m.lo, m.hi, fresh, lo, hi);
			failures++;
		}
		for (size_t p = 0; p < npages; p++)
			if (part[p] != 0 && part[p] != 1) {
				fprintf(stderr, "iteration %d: page %zu marked %d\n", iter, p, part[p]);
				failures++;
				break;
			}
		/* the marks themselves as vrt_box_mark's */
		for (size_t p = 0; p < npages; p++)
			if (want[p] && !part[p]) {
				fprintf(stderr, "iteration %d: page %zu not marked\n", iter, p);
				failures++;
				break;
			}
	}
	/* a box past 2^62 bytes is refused */
	vrt_box huge = { .origin = 0, .run = 16, .ndims = 1 };
	huge.dim[0].pitch = 1ll << 40;
	huge.dim[0].count = 1ull << 30;
	if (vrt_box_mark(got, MAXPAGES, 4, &huge)) {
		fprintf(stderr, "a box of 2^70 bytes was not refused\n");
		failures++;
	}
	if (failures)
		fprintf(stderr, "test_rt_boxmark: %d failures\n", failures);
	else
		printf("test_rt_boxmark: PASS\n");
	return failures != 0;
}
