/* SPDX-License-Identifier: MIT */
/*
 * boxframes.c - a slot's footprint as one strided box, packed in the
 * frames, rather than every page it touches.
 *
 * A work-group that walks a column of a matrix touches a few bytes of
 * every row, and so every page, however small: colsum's 256-byte strips
 * of 4000-byte rows straddle two 256-byte pages each, twice their bytes
 * (and a table entry per 256 bytes), and a transpose's output strip
 * moves whole pages both ways. Where pages waste the link or do not fit
 * (paged/planner.c), a slot whose boxes share one pitch goes in as their
 * bounding rectangle instead, its rows packed one after another in the
 * frames (lpt.c), and the paged kernel finds a byte by re-pitching its
 * offset (vast_tr in the prelude). The bound of boxes at one pitch is
 * exact for one strip and holds at most the bytes between strips of the
 * same rows otherwise; a box of three or more strided dimensions (a
 * work-group's tile rows in every plane of a volume) is bounded by rows
 * of its outermost one.
 * Pure C: the unit test drives it directly.
 */
#include "footprint.h"

/* b's rows as one strided dimension: dimensions of one step ignored,
 * and one whose pitch is the span of those below it (a 2-D tile's rows,
 * then its groups of rows) joined to them. 0 when b is one run, -1 when
 * its rows are not evenly spaced. */
static long long one_stride(const vrt_box *b, unsigned long long *count)
{
	long long pitch = 0, span;
	*count = 1;
	for (unsigned i = 0; i < b->ndims; i++) {
		if (b->dim[i].count <= 1)
			continue;
		if (pitch && (__builtin_mul_overflow(pitch, (long long)*count, &span) ||
		              b->dim[i].pitch != span))
			return -1;
		if (!pitch)
			pitch = b->dim[i].pitch;
		if (__builtin_mul_overflow(*count, b->dim[i].count, count))
			return -1;
	}
	return pitch;
}

/* Where b's rows are not evenly spaced: the rows of its outermost
 * dimension, each the bytes from the first to the last of the dimensions
 * below it (*run), when that fits its pitch: a 3-D walk's planes, each a
 * few rows of a tile. A bound, holding the bytes between those rows too.
 * -1 when the rows would overlap. */
static long long outer_rows(const vrt_box *b, unsigned long long *count, unsigned long long *run)
{
	unsigned outer = b->ndims;
	for (unsigned i = 0; i < b->ndims; i++)
		if (b->dim[i].count > 1)
			outer = i;
	if (outer == b->ndims)
		return -1;
	unsigned long long span = b->run, step;
	for (unsigned i = 0; i < outer; i++)
		if (b->dim[i].count > 1 &&
		    (__builtin_mul_overflow((unsigned long long)b->dim[i].pitch, b->dim[i].count - 1,
		                            &step) ||
		     __builtin_add_overflow(span, step, &span)))
			return -1;
	if (span > (unsigned long long)b->dim[outer].pitch)
		return -1;
	*count = b->dim[outer].count;
	*run = span;
	return b->dim[outer].pitch;
}

/* b's rows: one strided dimension (one_stride), else their bound
 * (outer_rows); *run the bytes of each. */
static long long rows_of(const vrt_box *b, unsigned long long *count, unsigned long long *run)
{
	long long pitch = one_stride(b, count);
	*run = b->run;
	return pitch >= 0 ? pitch : outer_rows(b, count, run);
}

long long vrt_box_pitch(const vrt_box *b)
{
	unsigned long long count, run;
	return rows_of(b, &count, &run);
}

int vrt_box2d_add(vrt_box2d *bound, const vrt_box *b, unsigned long long pitch)
{
	unsigned long long count, run;
	long long own = rows_of(b, &count, &run);
	/* rows past 2^32 are no box the kernel's entry holds (lpt.c) */
	if (own < 0 || (own && (unsigned long long)own != pitch) || b->origin < 0 || !pitch ||
	    count >> 32)
		return 0;
	if (!run || !count)
		return 1; /* no bytes */
	unsigned long long r0 = (unsigned long long)b->origin / pitch;
	unsigned long long c0 = (unsigned long long)b->origin % pitch;
	if (run > pitch - c0)
		return 0;
	unsigned long long r1 = r0 + count, c1 = c0 + run;
	if (bound->rows) {
		unsigned long long R0 = bound->origin / pitch, C0 = bound->origin % pitch;
		unsigned long long R1 = R0 + bound->rows, C1 = C0 + bound->width;
		r0 = r0 < R0 ? r0 : R0;
		c0 = c0 < C0 ? c0 : C0;
		r1 = r1 > R1 ? r1 : R1;
		c1 = c1 > C1 ? c1 : C1;
	}
	bound->origin = r0 * pitch + c0;
	bound->pitch = pitch;
	bound->width = c1 - c0;
	bound->rows = r1 - r0;
	return 1;
}

/* The bytes from a's first to its last. */
static unsigned long long span_end(const vrt_box2d *a)
{
	return a->origin + (a->rows - 1) * a->pitch + a->width;
}

int vrt_box2d_overlap(const vrt_box2d *a, const vrt_box2d *b)
{
	if (!a->rows || !b->rows || !a->width || !b->width)
		return 0;
	if (a->origin >= span_end(b) || b->origin >= span_end(a))
		return 0;
	if (a->pitch != b->pitch)
		return 1;
	unsigned long long p = a->pitch;
	unsigned long long ar = a->origin / p, ac = a->origin % p;
	unsigned long long br = b->origin / p, bc = b->origin % p;
	return ar < br + b->rows && br < ar + a->rows && ac < bc + b->width && bc < ac + a->width;
}

int vrt_box2d_align(vrt_box2d *b, unsigned long long align)
{
	if (!b->rows || align <= 1)
		return 1;
	unsigned long long shift = b->origin % align;
	if (b->rows == 1) {
		/* One run: its pitch only has to keep it in its row. */
		b->origin -= shift;
		b->width += shift;
		b->pitch = b->origin + b->width;
		return 1;
	}
	unsigned long long p = b->pitch, c0 = b->origin % p;
	if (shift <= c0) {
		unsigned long long w = b->width + shift, pad = (p - w) % align;
		if (c0 - shift + w + pad <= p) {
			b->origin -= shift;
			b->width = w + pad;
			return 1;
		}
	}
	/* Whole rows: aligned when the rows' starts are. */
	unsigned long long r0 = b->origin / p;
	if ((r0 * p) % align || p % align)
		return 0;
	b->origin = r0 * p;
	b->width = p;
	return 1;
}
