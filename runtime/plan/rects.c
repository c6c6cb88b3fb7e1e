/* SPDX-License-Identifier: MIT */
/*
 * rects.c - spans that move as rectangles: one copy for a strip of many
 * rows.
 *
 * A range that walks a column strip (A^T x, gemm's B, column sums, a
 * transpose's output) touches the same few pages of every row of a
 * matrix: its spans (lpt.c) have one length and lie one pitch apart in
 * the buffer, and their frames follow one another, since frames are
 * handed out ascending with no gaps. Such a run of spans is a rectangle
 * (OpenCL 1.2 §5.2.2, clEnqueueReadBufferRect / WriteBufferRect): rows
 * of npages pages, host row pitch the spans' pitch, device row pitch
 * npages pages, one command where a span each took one, so a strided
 * slot that moves straight between its host copy and the frames costs
 * one command per rectangle rather than one per row.
 *
 * A span with bytes past the buffer's end (its last page) moves alone,
 * by a linear copy of its valid bytes: a rectangle's rows are whole.
 */
#include "plan/plan.h"

static int whole(const vrt_layout *l, const vrt_span *sp)
{
	return vrt_span_valid(l, sp) == sp->npages << l->page_shift;
}

/* Span j continues the rectangle that starts at span i. */
static int continues(const vrt_layout *l, const vrt_span *sp, size_t i, size_t j)
{
	const vrt_span *a = &sp[j - 1], *b = &sp[j];
	return whole(l, &sp[i]) && whole(l, b) && b->npages == sp[i].npages &&
	       b->frame == a->frame + a->npages &&
	       (j == i + 1 || b->page - a->page == sp[i + 1].page - sp[i].page);
}

size_t vrt_span_rects(const vrt_layout *l, const vrt_span *sp, size_t nsp, vrt_rect **rects)
{
	size_t cap = 0;
	*rects = NULL;
	return vrt_span_rects_in(l, sp, nsp, rects, &cap);
}

size_t vrt_span_rects_in(const vrt_layout *l, const vrt_span *sp, size_t nsp, vrt_rect **rects,
                         size_t *cap)
{
	unsigned sh = l->page_shift;
	size_t n = 0;
	if (!nsp)
		return 0;
	if (nsp > *cap) {
		vrt_rect *w = vrt_realloc(*rects, nsp * sizeof *w);
		if (!w)
			return (size_t)-1;
		*rects = w;
		*cap = nsp;
	}
	vrt_rect *out = *rects;
	for (size_t i = 0, j; i < nsp; i = j) {
		for (j = i + 1; j < nsp && continues(l, sp, i, j); j++)
			;
		vrt_rect *r = &out[n++];
		r->rows = j - i;
		r->host_off = sp[i].page << sh;
		r->dev_off = sp[i].frame << sh;
		r->row_bytes = r->rows > 1 ? sp[i].npages << sh : vrt_span_valid(l, &sp[i]);
		r->dev_pitch = sp[i].npages << sh;
		r->host_pitch = r->rows > 1 ? (sp[i + 1].page - sp[i].page) << sh : r->dev_pitch;
	}
	return n;
}

cl_int vrt_rect_move(cl_command_queue q, cl_mem frames, const vrt_rect *r, unsigned char *host,
                     int out, cl_event after, cl_event *e)
{
	cl_uint nw = after != NULL;
	const cl_event *w = after ? &after : NULL;
	if (r->rows == 1)
		return out ? vrt_real.clEnqueueReadBuffer(q, frames, CL_FALSE, r->dev_off, r->row_bytes,
		                                          host + r->host_off, nw, w, e)
		           : vrt_real.clEnqueueWriteBuffer(q, frames, CL_FALSE, r->dev_off, r->row_bytes,
		                                           host + r->host_off, nw, w, e);
	size_t dev[3] = { r->dev_off, 0, 0 }, hst[3] = { r->host_off, 0, 0 };
	size_t region[3] = { r->row_bytes, r->rows, 1 };
	return out ? vrt_real.clEnqueueReadBufferRect(q, frames, CL_FALSE, dev, hst, region,
	                                              r->dev_pitch, 0, r->host_pitch, 0, host, nw,
	                                              w, e)
	           : vrt_real.clEnqueueWriteBufferRect(q, frames, CL_FALSE, dev, hst, region,
	                                               r->dev_pitch, 0, r->host_pitch, 0, host, nw,
	                                               w, e);
}
