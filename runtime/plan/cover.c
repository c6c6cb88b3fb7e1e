/* SPDX-License-Identifier: MIT */
/*
 * cover.c - the pages a union of boxes covers whole (footprint.h): the
 * pages of a write-only buffer that a range's must-write boxes write
 * every byte of, which need not go in from the host.
 *
 * Boxes are first fused where their union is one box: two with the same
 * dimensions whose runs abut (a tile and the clipped tile beside it at the
 * image's edge), or with the same run whose blocks continue each other
 * along one dimension (the rows below). Then each box becomes its dense
 * blocks: inner dimensions whose pitch does not exceed the run so far
 * leave no gap and fold into the run, every other dimension is
 * enumerated. The blocks of all boxes are sorted by start and merged where
 * they touch or overlap; a page is covered when one merged interval holds
 * all its bytes (the last page: up to the buffer's end). Fusing first
 * matters: fdtd3d's store is four boxes per range (whole tiles, the
 * clipped column, the clipped row, the corner) whose rows are not dense
 * apart, a row per block, but one dense block together.
 *
 * The merged intervals stay behind: vrt_cover_gaps lists the bytes of a
 * page they leave out, all a page partly written whole needs from the
 * host (gaps.c; paged/pagefill.c, by_gaps).
 *
 * The blocks kept are bounded (vrt_cover_begin): a box with more is left
 * out, which only loses coverage, so its pages are filled as before.
 * Not thread-safe: one vrt_cover per user.
 */
#include <stdlib.h>
#include <string.h>

#include "footprint.h"
#include "plan/plan.h"

void vrt_cover_begin(vrt_cover *c, size_t max)
{
	c->n = c->nbox = 0;
	c->max = max;
}

/* b in its simplest form, the same bytes: no dimension of count 1, and
 * inner dimensions that leave no gap folded into the run. Boxes cut from
 * one (a clipped tile, a single row) then look alike. */
static void simplify(vrt_box *b)
{
	unsigned n = 0;
	for (unsigned d = 0; d < b->ndims; d++)
		if (b->dim[d].count != 1)
			b->dim[n++] = b->dim[d];
	b->ndims = n;
	while (b->ndims && (unsigned long long)b->dim[0].pitch <= b->run) {
		b->run += (unsigned long long)b->dim[0].pitch * (b->dim[0].count - 1);
		b->ndims--;
		memmove(&b->dim[0], &b->dim[1], b->ndims * sizeof b->dim[0]);
	}
}

/* Dimension d of x and y alike, for every d but skip. */
static int same_dims(const vrt_box *x, const vrt_box *y, unsigned skip)
{
	if (x->ndims != y->ndims)
		return 0;
	for (unsigned d = 0; d < x->ndims; d++)
		if (d != skip && (x->dim[d].pitch != y->dim[d].pitch || x->dim[d].count != y->dim[d].count))
			return 0;
	return 1;
}

/* Makes x the union of x and y when that union is one box and y follows
 * x: runs that abut or overlap under the same dimensions, or the same run
 * continued along one dimension. 1 when fused. */
static int fuse_same(vrt_box *x, const vrt_box *y)
{
	long long q = y->origin - x->origin;
	if (same_dims(x, y, x->ndims) && q >= 0 && q <= (long long)x->run) {
		if ((unsigned long long)q + y->run > x->run)
			x->run = (unsigned long long)q + y->run;
		return 1;
	}
	if (x->run != y->run)
		return 0;
	for (unsigned d = 0; d < x->ndims; d++) {
		long long step;
		if (x->dim[d].pitch != y->dim[d].pitch || !same_dims(x, y, d) ||
		    __builtin_mul_overflow(x->dim[d].pitch, (long long)x->dim[d].count, &step) ||
		    y->origin - x->origin != step)
			continue;
		x->dim[d].count += y->dim[d].count;
		return 1;
	}
	return 0;
}

/* b with a dimension of count 1 (no bytes more) inserted at d. */
static vrt_box with_dim(const vrt_box *b, unsigned d, long long pitch)
{
	vrt_box r = *b;
	memmove(&r.dim[d + 1], &r.dim[d], (b->ndims - d) * sizeof r.dim[0]);
	r.dim[d].pitch = pitch;
	r.dim[d].count = 1;
	r.ndims++;
	return r;
}

/* fuse_same, also where one of the two is a single slice of the other's
 * shape (simplify dropped its dimension of count 1). */
static int fuse(vrt_box *x, const vrt_box *y)
{
	int done = 0;
	if (x->ndims == y->ndims) {
		done = fuse_same(x, y);
	} else if (y->ndims + 1 == x->ndims) {
		for (unsigned d = 0; d < x->ndims && !done; d++) {
			vrt_box y1 = with_dim(y, d, x->dim[d].pitch);
			done = fuse_same(x, &y1);
		}
	} else if (x->ndims + 1 == y->ndims) {
		for (unsigned d = 0; d < y->ndims && !done; d++) {
			vrt_box x1 = with_dim(x, d, y->dim[d].pitch);
			if ((done = fuse_same(&x1, y)))
				*x = x1;
		}
	}
	if (done)
		simplify(x);
	return done;
}

int vrt_cover_add(vrt_cover *c, const vrt_box *b)
{
	/* Bounds as in vrt_box_mark: every offset within 2^62, never
	 * wrapped. */
	if (b->origin < -(1ll << 62) || b->origin > (1ll << 62) || b->run > (1ull << 62))
		return 0;
	__int128 end = (__int128)b->origin + b->run;
	for (unsigned d = 0; d < b->ndims; d++) {
		if (b->dim[d].count == 0)
			return 1; /* an empty box */
		if (b->dim[d].pitch <= 0)
			return 0;
		end += (__int128)b->dim[d].pitch * (__int128)(b->dim[d].count - 1);
		if (end > ((__int128)1 << 62))
			return 0;
	}
	if (VRT_GROW(&c->box, &c->boxcap, c->nbox + 1))
		return -1;
	c->box[c->nbox] = *b;
	simplify(&c->box[c->nbox++]);
	return 1;
}

/* Makes x the union of x and y when y is x moved by more than its run,
 * as two rows of a tile that lost its middle dimension to simplify: a
 * new dimension of count 2. 1 when fused. */
static int fuse_twins(vrt_box *x, const vrt_box *y)
{
	long long q = y->origin - x->origin;
	if (x->ndims >= VRT_BOX_MAX_DIMS || x->run != y->run || !same_dims(x, y, x->ndims) ||
	    q <= (long long)x->run)
		return 0;
	unsigned d = 0;
	while (d < x->ndims && x->dim[d].pitch < q)
		d++;
	*x = with_dim(x, d, q);
	x->dim[d].count = 2;
	simplify(x);
	return 1;
}

/* Fuses boxes in place until no two fuse, twins only where nothing else
 * does (they may pair boxes that other fusions would join better); at
 * most a few thousand pairs per pass (a range's must-write boxes are a
 * handful). */
#define FUSE_MAX_BOXES 64

static int fuse_pass(vrt_cover *c, int (*join)(vrt_box *, const vrt_box *))
{
	int fused = 0;
	for (size_t i = 0; i < c->nbox; i++)
		for (size_t j = 0; j < c->nbox; j++) {
			if (i == j || !join(&c->box[i], &c->box[j]))
				continue;
			c->box[j] = c->box[--c->nbox];
			if (i == c->nbox)
				i = j; /* box i moved into j's place */
			fused = 1;
			j = (size_t)-1; /* box i grew: try every other again */
		}
	return fused;
}

static void fuse_all(vrt_cover *c)
{
	if (c->nbox > FUSE_MAX_BOXES)
		return;
	while (fuse_pass(c, fuse) || fuse_pass(c, fuse_twins))
		;
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

/* b's dense blocks into c->iv: 1, or 0 when there are more than room is
 * left for (b is left out), -1 out of memory. b is within 2^62 bytes
 * (vrt_cover_add), so no sum below overflows. */
static int add_box_blocks(vrt_cover *c, const vrt_box *b)
{
	unsigned long long run = b->run, blocks = 1;
	unsigned f = 0;
	for (; f < b->ndims; f++) {
		if ((unsigned long long)b->dim[f].pitch > run)
			break;
		run += (unsigned long long)b->dim[f].pitch * (b->dim[f].count - 1);
	}
	if (run > (1ull << 62))
		return 0; /* fused past the bound of vrt_cover_add */
	for (unsigned d = f; d < b->ndims; d++)
		if (__builtin_mul_overflow(blocks, b->dim[d].count, &blocks))
			return 0;
	if (blocks > c->max - c->n)
		return 0; /* too many to enumerate: left out */
	if (VRT_GROW(&c->iv, &c->cap, c->n + blocks))
		return -1;
	add_blocks(c, b, b->ndims, f, b->origin, (long long)run);
	return 1;
}

static int by_start(const void *a, const void *b)
{
	const vrt_interval *x = a, *y = b;
	return (x->lo > y->lo) - (x->lo < y->lo);
}

int vrt_cover_pages(vrt_cover *c, unsigned char *pages, size_t npages, unsigned shift,
                    size_t size)
{
	fuse_all(c);
	for (size_t i = 0; i < c->nbox; i++)
		if (add_box_blocks(c, &c->box[i]) < 0)
			return -1;
	if (c->n > 1) /* qsort's base may not be null, even for no elements */
		qsort(c->iv, c->n, sizeof *c->iv, by_start);
	long long pg = 1ll << shift;
	size_t merged = 0;
	for (size_t i = 0; i < c->n;) {
		/* one merged interval [lo, hi) */
		long long lo = c->iv[i].lo, hi = c->iv[i].hi;
		for (i++; i < c->n && c->iv[i].lo <= hi; i++)
			if (c->iv[i].hi > hi)
				hi = c->iv[i].hi;
		if (lo < 0)
			lo = 0; /* bytes before the buffer cover none of it */
		if (lo < hi)
			c->iv[merged++] = (vrt_interval){lo, hi}; /* for vrt_cover_gaps */
		for (long long p = (lo + pg - 1) >> shift; p < (long long)npages; p++) {
			long long e = (p + 1) * pg < (long long)size ? (p + 1) * pg : (long long)size;
			if (e > hi)
				break;
			pages[p] = 1;
		}
	}
	c->n = merged;
	return 0;
}

/* The first of c's merged intervals (in order) that ends past byte at;
 * c->n when none does. */
static size_t first_ending_after(const vrt_cover *c, long long at)
{
	size_t lo = 0, hi = c->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->iv[mid].hi <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t vrt_cover_gaps(const vrt_cover *c, size_t page, unsigned shift, size_t size,
                      vrt_interval *gap, size_t max)
{
	long long at = (long long)page << shift, end = at + (1ll << shift);
	if (end > (long long)size)
		end = (long long)size;
	size_t n = 0;
	for (size_t i = first_ending_after(c, at); at < end; i++) {
		long long next = i < c->n && c->iv[i].lo < end ? c->iv[i].lo : end;
		if (next > at) {
			if (n == max)
				return max + 1;
			gap[n++] = (vrt_interval){at, next};
		}
		if (i >= c->n || c->iv[i].lo >= end)
			break;
		at = c->iv[i].hi;
	}
	return n;
}

int vrt_cover_holds(const vrt_cover *c, long long lo, long long hi)
{
	size_t a = first_ending_after(c, lo);
	return lo >= hi || (a < c->n && c->iv[a].lo <= lo && c->iv[a].hi >= hi);
}

void vrt_cover_free(vrt_cover *c)
{
	vrt_free(c->iv);
	vrt_free(c->box);
	c->iv = NULL;
	c->box = NULL;
	c->n = c->cap = c->nbox = c->boxcap = 0;
}
