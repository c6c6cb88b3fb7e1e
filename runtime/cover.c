/* SPDX-License-Identifier: MIT */
/*
 * cover.c - the pages a union of boxes covers whole (footprint.h): the
 * pages of a write-only buffer that a range's must-write boxes write
 * every byte of, which need not go in from the host (issue 9, item 3).
 *
 * Each box becomes its dense blocks: inner dimensions whose pitch does
 * not exceed the run so far leave no gap and fold into the run, every
 * other dimension is enumerated. The blocks of all boxes are sorted by
 * start and merged where they touch or overlap; a page is covered when one
 * merged interval holds all its bytes (the last page: up to the buffer's
 * end). Boxes of a guarded store (a tile clipped at the image's edge) are
 * strided, and only their union covers a page: a box alone never needs to.
 *
 * The blocks kept are bounded (vrt_cover_begin): a box with more is left
 * out, which only loses coverage, so its pages are filled as before.
 * Not thread-safe: one vrt_cover per user.
 */
#include <stdlib.h>

#include "footprint.h"
#include "vrt.h"

void vrt_cover_begin(vrt_cover *c, size_t max)
{
	c->n = 0;
	c->max = max;
}

static int grow(vrt_cover *c, size_t need)
{
	if (need <= c->cap)
		return 1;
	size_t cap = c->cap ? c->cap : 64;
	while (cap < need)
		cap *= 2;
	vrt_interval *iv = vrt_realloc(c->iv, cap * sizeof *iv);
	if (!iv)
		return 0;
	c->iv = iv;
	c->cap = cap;
	return 1;
}

static void add_blocks(vrt_cover *c, const vrt_box *b, unsigned d, unsigned f, long long at,
                       long long run)
{
	if (d == f) {
		c->iv[c->n].lo = at;
		c->iv[c->n].hi = at + run;
		c->n++;
		return;
	}
	for (unsigned long long i = 0; i < b->dim[d - 1].count; i++)
		add_blocks(c, b, d - 1, f, at + (long long)i * b->dim[d - 1].pitch, run);
}

int vrt_cover_add(vrt_cover *c, const vrt_box *b)
{
	/* Bounds as in vrt_box_mark: every offset within 2^62, never
	 * wrapped. */
	if (b->origin < -(1ll << 62) || b->origin > (1ll << 62) || b->run > (1ull << 62))
		return 0;
	unsigned long long run = b->run, blocks = 1;
	unsigned f = 0;
	for (; f < b->ndims; f++) {
		unsigned long long n = b->dim[f].count, span;
		if (n == 0)
			return 1; /* an empty box */
		if (b->dim[f].pitch <= 0 || (unsigned long long)b->dim[f].pitch > run)
			break;
		if (__builtin_mul_overflow((unsigned long long)b->dim[f].pitch, n - 1, &span) ||
		    __builtin_add_overflow(span, run, &span) || span > (1ull << 62))
			return 0;
		run = span;
	}
	__int128 end = (__int128)b->origin + run;
	for (unsigned d = f; d < b->ndims; d++) {
		if (b->dim[d].count == 0)
			return 1;
		if (b->dim[d].pitch <= 0 ||
		    __builtin_mul_overflow(blocks, b->dim[d].count, &blocks))
			return 0;
		end += (__int128)b->dim[d].pitch * (__int128)(b->dim[d].count - 1);
		if (end > ((__int128)1 << 62))
			return 0;
	}
	if (blocks > c->max - c->n)
		return 0; /* too many to enumerate: left out */
	if (!grow(c, c->n + blocks))
		return -1;
	add_blocks(c, b, b->ndims, f, b->origin, (long long)run);
	return 1;
}

static int by_start(const void *a, const void *b)
{
	const vrt_interval *x = a, *y = b;
	return (x->lo > y->lo) - (x->lo < y->lo);
}

void vrt_cover_pages(vrt_cover *c, unsigned char *pages, size_t npages, unsigned shift,
                     size_t size)
{
	if (c->n > 1) /* qsort's base may not be null, even for no elements */
		qsort(c->iv, c->n, sizeof *c->iv, by_start);
	long long pg = 1ll << shift;
	for (size_t i = 0; i < c->n;) {
		/* one merged interval [lo, hi) */
		long long lo = c->iv[i].lo, hi = c->iv[i].hi;
		for (i++; i < c->n && c->iv[i].lo <= hi; i++)
			if (c->iv[i].hi > hi)
				hi = c->iv[i].hi;
		if (lo < 0)
			lo = 0; /* bytes before the buffer cover none of it */
		for (long long p = (lo + pg - 1) >> shift; p < (long long)npages; p++) {
			long long e = (p + 1) * pg < (long long)size ? (p + 1) * pg : (long long)size;
			if (e > hi)
				break;
			pages[p] = 1;
		}
	}
}

void vrt_cover_free(vrt_cover *c)
{
	vrt_free(c->iv);
	c->iv = NULL;
	c->n = c->cap = 0;
}
