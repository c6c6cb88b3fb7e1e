/* SPDX-License-Identifier: MIT */
/*
 * gaps.c - the bytes of a written page that must come from the host when
 * the kernel writes the rest of it: those bytes alone go in, not the
 * whole page.
 *
 * A write-only buffer's page that a range's must-write boxes cover whole
 * needs nothing from the host (paged/pagefill.c, pages_to_fill); one they cover
 * only partly was filled whole, so that the bytes the kernel leaves alone
 * go home unchanged. A stencil that leaves its border cells alone
 * (jacobi2d's out, x == 0 and x == n-1) leaves a few bytes of every row
 * out of its boxes: every page of the output went in, the size of the
 * output in H2D per launch. Only the gaps need to: the pieces the boxes
 * leave out (cover.c, vrt_cover_gaps), a few bytes per row.
 *
 * Pieces of one length whose places in the buffer and in the frames
 * advance by constant steps are one rectangle (rects.c's vrt_rect: rows
 * of the piece's length, host pitch the buffer's step, device pitch the
 * frames'). Two ways to find them, the one with fewer copies kept:
 * pieces at one offset in their pages (rows a page or a multiple of one
 * apart, frames in any order), or pieces joined across page boundaries
 * where the pages' frames follow one another (rows smaller than a page:
 * jacobi2d's gaps at 8 KiB rows in 64 KiB pages are one rectangle per
 * run of consecutive frames, where cut at pages they were nine, one per
 * offset in the page).
 * Pure C: no OpenCL calls; the unit test drives it directly.
 */
#include <stdlib.h>

#include "plan/plan.h"

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

static int by_length(const void *a, const void *b)
{
	const piece *x = a, *y = b;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return (x->host > y->host) - (x->host < y->host);
}

/* Piece j continues the rectangle that starts at piece i: the same
 * length (and offset in the page, when `off`), and the same steps forward
 * in the buffer and the frames as i+1 took. */
static int continues(const piece *pc, size_t i, size_t j, int off)
{
	const piece *a = &pc[j - 1], *b = &pc[j];
	if (b->len != pc[i].len || (off && b->off != pc[i].off) || b->dev <= a->dev ||
	    b->host < a->host + a->len || b->dev < a->dev + a->len)
		return 0;
	return j == i + 1 || (b->host - a->host == pc[i + 1].host - pc[i].host &&
	                      b->dev - a->dev == pc[i + 1].dev - pc[i].dev);
}

/* Rectangles of pc (sorted for them) into out; returns how many. */
static size_t group(const piece *pc, size_t n, int off, vrt_rect *out)
{
	size_t nr = 0;
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && continues(pc, i, j, off); j++)
			;
		vrt_rect *r = &out[nr++];
		r->rows = j - i;
		r->host_off = pc[i].host;
		r->dev_off = pc[i].dev;
		r->row_bytes = pc[i].len;
		r->host_pitch = r->rows > 1 ? pc[i + 1].host - pc[i].host : pc[i].len;
		r->dev_pitch = r->rows > 1 ? pc[i + 1].dev - pc[i].dev : pc[i].len;
	}
	return nr;
}

size_t vrt_gap_rects(const vrt_gap *g, size_t n, unsigned shift, const uint32_t *frame_of,
                     vrt_rect **rects)
{
	*rects = NULL;
	if (!n)
		return 0;
	piece *pc = vrt_malloc(2 * n * sizeof *pc);
	vrt_rect *out = vrt_malloc(2 * n * sizeof *out);
	if (!pc || !out) {
		vrt_free(pc);
		vrt_free(out);
		return (size_t)-1;
	}
	piece *joined = pc + n;
	size_t nj = 0;
	for (size_t i = 0; i < n; i++) {
		size_t base = g[i].page << shift;
		pc[i] = (piece){ g[i].hi - g[i].lo, g[i].lo - base, g[i].lo,
		                 ((size_t)frame_of[g[i].page] << shift) + (g[i].lo - base) };
		/* g is in buffer order: a piece that goes on across a page
		 * boundary into the next frame is one piece */
		piece *last = nj ? &joined[nj - 1] : NULL;
		if (last && last->host + last->len == pc[i].host && last->dev + last->len == pc[i].dev)
			last->len += pc[i].len;
		else
			joined[nj++] = pc[i];
	}
	/* Two ways, the one with fewer copies: pieces cut at pages, at one
	 * offset in theirs (rows a page or a multiple apart, frames in any
	 * order), or joined across pages in consecutive frames (rows smaller
	 * than a page: one rectangle of the row pitch per run of frames). */
	qsort(pc, n, sizeof *pc, by_shape);
	size_t cut = group(pc, n, 1, out);
	qsort(joined, nj, sizeof *joined, by_length);
	size_t nr = group(joined, nj, 0, out + n);
	if (cut <= nr) {
		nr = cut;
	} else {
		for (size_t i = 0; i < nr; i++)
			out[i] = out[n + i];
	}
	vrt_free(pc);
	*rects = out;
	return nr;
}

/* Measured on the H100 (bench/rects, session 8): a rectangular copy from
 * pageable memory costs about 50 ns a row, and a command some
 * microseconds; whole pages go in at about 20 GB/s. */
#define GAP_COMMAND_NS 10000ull
#define GAP_ROW_NS 50ull
#define WHOLE_BYTES_PER_US 20000ull

int vrt_gaps_worth(size_t nrects, size_t rows, unsigned long long whole_bytes)
{
	unsigned long long gaps_ns = nrects * GAP_COMMAND_NS + rows * GAP_ROW_NS;
	return gaps_ns < whole_bytes * 1000 / WHOLE_BYTES_PER_US;
}
