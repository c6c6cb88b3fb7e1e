/* SPDX-License-Identifier: MIT */
/*
 * test_rt_cover.c - vrt_cover_pages (cover.c) against brute force: random
 * unions of boxes (strided ones with gaps, their complements that fill the
 * gaps, dense ones, origins before and past the buffer) on random page
 * and buffer sizes; the pages reported must be exactly those whose every
 * byte, up to the buffer's end, some box holds. With room for fewer
 * blocks than the boxes have, the pages reported must still be covered
 * (a box left out only loses coverage), and every page's gaps
 * (vrt_cover_gaps) must be exactly the bytes the boxes leave out of it,
 * or more than room was given for.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/footprint.h"

static int failures;

#define MAXPAGES 64
#define MAXBYTES (MAXPAGES * 256)
static unsigned char bytes[MAXBYTES], want[MAXPAGES], got[MAXPAGES];

static unsigned rnd(unsigned n)
{
	return (unsigned)rand() % n;
}

/* Every byte of b inside [0, size). */
static void brute(const vrt_box *b, unsigned d, long long at, size_t size)
{
	if (d == 0) {
		for (unsigned long long i = 0; i < b->run; i++) {
			long long x = at + (long long)i;
			if (x >= 0 && x < (long long)size)
				bytes[x] = 1;
		}
		return;
	}
	for (unsigned long long k = 0; k < b->dim[d - 1].count; k++)
		brute(b, d - 1, at + (long long)k * b->dim[d - 1].pitch, size);
}

static vrt_box random_box(size_t size, size_t page)
{
	vrt_box b;
	memset(&b, 0, sizeof b);
	b.run = 1 + rnd(2 * (unsigned)page);
	b.origin = (long long)rnd((unsigned)(size + page)) - (long long)page / 2;
	b.ndims = rnd(4);
	unsigned long long span = b.run;
	for (unsigned i = 0; i < b.ndims; i++) {
		/* ascending pitches: at or under the span below (dense), or
		 * just over it (gaps of a few bytes), or far over it */
		long long pitch;
		switch (rnd(3)) {
		case 0: pitch = 1 + (long long)rnd((unsigned)span); break;
		case 1: pitch = (long long)span + 1 + rnd(8); break;
		default: pitch = (long long)span + 1 + rnd(2 * (unsigned)page); break;
		}
		b.dim[i].pitch = pitch;
		b.dim[i].count = 1 + rnd(5);
		span = (unsigned long long)pitch * (b.dim[i].count - 1) + span;
	}
	return b;
}

/* The gaps of a one-dimensional strided box: together they are dense. */
static vrt_box complement(const vrt_box *a)
{
	vrt_box b = *a;
	b.origin = a->origin + (long long)a->run;
	b.run = (unsigned long long)a->dim[0].pitch - a->run;
	return b;
}

/* Cuts *b in two along dimension d, or along its run when d is ndims:
 * b keeps the first part, the second is returned. b has two or more
 * elements (run bytes, or count) there. */
static vrt_box cut(vrt_box *b, unsigned d)
{
	vrt_box rest = *b;
	if (d == b->ndims) {
		unsigned long long k = 1 + rnd((unsigned)b->run - 1);
		rest.origin += (long long)k;
		rest.run -= k;
		b->run = k;
	} else {
		unsigned long long k = 1 + rnd((unsigned)b->dim[d].count - 1);
		rest.origin += (long long)k * b->dim[d].pitch;
		rest.dim[d].count -= k;
		b->dim[d].count = k;
	}
	return rest;
}

/* vrt_cover_gaps of page p against bytes[]: each gap in order, each a
 * whole run of uncovered bytes; with room for fewer gaps than there are,
 * max + 1. */
static int gaps_match(const vrt_cover *c, size_t p, unsigned shift, size_t size)
{
	size_t page = (size_t)1 << shift, end = (p + 1) * page < size ? (p + 1) * page : size;
	vrt_interval want_gap[MAXBYTES / 2 + 1], gap[MAXBYTES / 2 + 1];
	size_t nwant = 0;
	for (size_t x = p * page; x < end; x++)
		if (!bytes[x] && (x == p * page || bytes[x - 1]))
			want_gap[nwant++] = (vrt_interval){(long long)x, (long long)x};
		else if (bytes[x] && x > p * page && !bytes[x - 1])
			want_gap[nwant - 1].hi = (long long)x;
	if (nwant && !bytes[end - 1])
		want_gap[nwant - 1].hi = (long long)end;
	size_t n = vrt_cover_gaps(c, p, shift, size, gap, sizeof gap / sizeof *gap);
	if (n != nwant || memcmp(gap, want_gap, n * sizeof *gap))
		return 0;
	size_t max = nwant ? (size_t)rnd((unsigned)nwant) : 0; /* too little room */
	return !nwant || vrt_cover_gaps(c, p, shift, size, gap, max) == max + 1;
}

static void report(int iter, const char *what, unsigned shift, size_t size)
{
	fprintf(stderr, "iteration %d: %s (page %u bytes, buffer %zu bytes)\n", iter, what,
	        1u << shift, size);
	failures++;
}

int main(void)
{
	srand(11);
	vrt_cover c;
	memset(&c, 0, sizeof c);
	for (int iter = 0; iter < 20000 && failures < 10; iter++) {
		unsigned shift = 4 + rnd(5); /* 16..256-byte pages */
		size_t page = (size_t)1 << shift;
		size_t size = 1 + rnd(MAXPAGES * (unsigned)page);
		size_t npages = (size + page - 1) >> shift;
		vrt_box boxes[8];
		unsigned n = 0, nb = 1 + rnd(4);
		for (unsigned i = 0; i < nb; i++) {
			boxes[n++] = random_box(size, page);
			vrt_box *a = &boxes[n - 1];
			if (a->ndims == 1 && (unsigned long long)a->dim[0].pitch > a->run && rnd(2))
				boxes[n++] = complement(a);
		}
		memset(bytes, 0, size);
		for (unsigned i = 0; i < n; i++)
			brute(&boxes[i], boxes[i].ndims, boxes[i].origin, size);
		for (size_t p = 0; p < npages; p++) {
			size_t end = (p + 1) * page < size ? (p + 1) * page : size;
			want[p] = 1;
			for (size_t x = p * page; x < end; x++)
				want[p] &= bytes[x];
		}

		/* room for every block: exactly the covered pages */
		vrt_cover_begin(&c, 1u << 20);
		for (unsigned i = 0; i < n; i++)
			if (vrt_cover_add(&c, &boxes[i]) != 1)
				report(iter, "refused a small box", shift, size);
		memset(got, 0, npages);
		vrt_cover_pages(&c, got, npages, shift, size);
		if (memcmp(want, got, npages))
			report(iter, "pages differ from brute force", shift, size);
		for (size_t p = 0; p < npages; p++)
			if (!gaps_match(&c, p, shift, size))
				report(iter, "a page's gaps differ from brute force", shift, size);

		/* room for a few blocks: never a page not covered */
		vrt_cover_begin(&c, 1 + rnd(8));
		for (unsigned i = 0; i < n; i++)
			if (vrt_cover_add(&c, &boxes[i]) < 0)
				report(iter, "out of memory", shift, size);
		memset(got, 0, npages);
		vrt_cover_pages(&c, got, npages, shift, size);
		for (size_t p = 0; p < npages; p++)
			if (got[p] && !want[p]) {
				report(iter, "a page not covered reported with few blocks", shift, size);
				break;
			}
	}

	for (int iter = 0; iter < 5000 && failures < 10; iter++) {
		unsigned shift = 4 + rnd(5);
		size_t page = (size_t)1 << shift;
		size_t size = 1 + rnd(MAXPAGES * (unsigned)page);
		size_t npages = (size + page - 1) >> shift;
		/* a dense box: each pitch the span below it */
		vrt_box whole;
		memset(&whole, 0, sizeof whole);
		whole.run = 2 + rnd((unsigned)page);
		whole.origin = (long long)rnd((unsigned)size) - (long long)page / 2;
		whole.ndims = 1 + rnd(2);
		long long span = (long long)whole.run;
		for (unsigned i = 0; i < whole.ndims; i++) {
			whole.dim[i].pitch = span;
			whole.dim[i].count = 2 + rnd(3);
			span *= (long long)whole.dim[i].count;
		}
		vrt_box piece[4];
		piece[0] = whole;
		piece[1] = cut(&piece[0], rnd(whole.ndims + 1));
		unsigned n = 2;
		if (piece[0].run > 1)
			piece[n++] = cut(&piece[0], whole.ndims);
		if (piece[1].dim[0].count > 1)
			piece[n++] = cut(&piece[1], 0);
		memset(bytes, 0, size);
		brute(&whole, whole.ndims, whole.origin, size);
		for (size_t p = 0; p < npages; p++) {
			size_t end = (p + 1) * page < size ? (p + 1) * page : size;
			want[p] = 1;
			for (size_t x = p * page; x < end; x++)
				want[p] &= bytes[x];
		}
		vrt_cover_begin(&c, 1);
		for (unsigned i = n; i-- > 0;)
			if (vrt_cover_add(&c, &piece[(i + (unsigned)iter) % n]) != 1)
				report(iter, "refused a piece", shift, size);
		memset(got, 0, npages);
		if (vrt_cover_pages(&c, got, npages, shift, size))
			report(iter, "out of memory", shift, size);
		if (memcmp(want, got, npages))
			report(iter, "the pieces of a dense box were not fused into it", shift, size);
	}

	/* a box past 2^62 bytes is left out, never wrapped */
	vrt_box huge = { .origin = 0, .run = 16, .ndims = 1 };
	huge.dim[0].pitch = 1ll << 40;
	huge.dim[0].count = 1ull << 30;
	vrt_cover_begin(&c, (size_t)-1);
	if (vrt_cover_add(&c, &huge) != 0)
		report(-1, "a box of 2^70 bytes was not left out", 4, 0);
	vrt_cover_free(&c);

	if (failures)
		fprintf(stderr, "test_rt_cover: %d failures\n", failures);
	else
		printf("test_rt_cover: PASS\n");
	return failures != 0;
}
