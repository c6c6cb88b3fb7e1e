/* SPDX-License-Identifier: MIT */
/*
 * gaps.c - the bytes of a written page that must come from the host when
 * the kernel writes the rest of it (issue 9, item 3).
 *
 * A write-only buffer's page that a range's must-write boxes cover whole
 * needs nothing from the host (paged.c, pages_to_fill); one they cover
 * only partly was filled whole, so that the bytes the kernel leaves alone
 * go home unchanged. A stencil that leaves its border cells alone
 * (jacobi2d's out, x == 0 and x == n-1) leaves a few bytes of every row
 * out of its boxes: every page of the output went in, the size of the
 * output in H2D per launch. Only the gaps need to: the pieces the boxes
 * leave out (cover.c, vrt_cover_gaps), a few bytes per row.
 *
 * Pieces at the same offset in their pages, of one length, whose pages
 * and frames advance by constant steps, are one rectangle (rects.c's
 * vrt_rect: rows of the piece's length, host pitch the pages' step,
 * device pitch the frames'): jacobi2d's range sends its gaps as two or
 * three rectangular copies, one per offset in the page.
 * Pure C: no OpenCL calls; the unit test drives it directly.
 */
#include <stdlib.h>

#include "vrt.h"

typedef struct piece {
	size_t len, off;            /* bytes, offset in the page */
	size_t host, dev;           /* offsets in the buffer and the frames */
} piece;

static int by_shape(const void *a, const void *b)
{
	const piece *x = a, *y = b;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return (x->host > y->host) - (x->host < y->host);
}

/* Piece j continues the rectangle that starts at piece i: the same shape,
 * and the same steps forward in the buffer and the frames as i+1 took. */
static int continues(const piece *pc, size_t i, size_t j)
{
	const piece *a = &pc[j - 1], *b = &pc[j];
	if (b->len != pc[i].len || b->off != pc[i].off || b->dev <= a->dev)
		return 0;
	return j == i + 1 || (b->host - a->host == pc[i + 1].host - pc[i].host &&
	                      b->dev - a->dev == pc[i + 1].dev - pc[i].dev);
}

size_t vrt_gap_rects(const vrt_gap *g, size_t n, unsigned shift, const uint32_t *frame_of,
                     vrt_rect **rects)
{
	*rects = NULL;
	if (!n)
		return 0;
	piece *pc = vrt_malloc(n * sizeof *pc);
	vrt_rect *out = vrt_malloc(n * sizeof *out);
	if (!pc || !out) {
		vrt_free(pc);
		vrt_free(out);
		return (size_t)-1;
	}
	for (size_t i = 0; i < n; i++) {
		size_t base = g[i].page << shift;
		pc[i] = (piece){ g[i].hi - g[i].lo, g[i].lo - base, g[i].lo,
		                 ((size_t)frame_of[g[i].page] << shift) + (g[i].lo - base) };
	}
	qsort(pc, n, sizeof *pc, by_shape);
	size_t nr = 0;
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && continues(pc, i, j); j++)
			;
		vrt_rect *r = &out[nr++];
		r->rows = j - i;
		r->host_off = pc[i].host;
		r->dev_off = pc[i].dev;
		r->row_bytes = pc[i].len;
		r->host_pitch = r->rows > 1 ? pc[i + 1].host - pc[i].host : pc[i].len;
		r->dev_pitch = r->rows > 1 ? pc[i + 1].dev - pc[i].dev : pc[i].len;
	}
	vrt_free(pc);
	*rects = out;
	return nr;
}
