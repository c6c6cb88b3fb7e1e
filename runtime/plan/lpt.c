/* SPDX-License-Identifier: MIT */
/*
 * lpt.c - look-ahead page tables, frames, and recovery.
 *
 * A range's union PAS says which pages of each slot it touches. Frames
 * are handed out slot by slot, pages ascending, with no gaps, so that
 * consecutive resident pages sit in consecutive frames: an element that
 * straddles pages p and p+1 is contiguous in the frame buffer, and a run
 * of resident pages (a span) moves with one copy. A frame set spans up
 * to VAST_FRAME_BUFS device buffers of at most `per_buf` frames each (a
 * device caps one buffer at CL_DEVICE_MAX_MEM_ALLOC_SIZE); a slot's
 * frames never cross from one buffer to the next, since an element may
 * straddle any two of its pages, so a slot that does not fit the rest of
 * a buffer starts the next one. Frame numbers count within the slot's
 * buffer; frame 0 of buffer 0 is the scratch frame that faulting
 * accesses hit. A boxed slot (boxframes.c) takes the frames of its
 * packed box, in one piece, and no page of it gets one. The LPT layout
 * is the one of docs/generated-kernels.md.
 *
 * Every touched page is filled from the host copy, read or written: a
 * kernel that writes a page sparsely leaves the other bytes as they were,
 * and scattering the whole page back is then exact. Only the buffer's
 * valid bytes of its last page go back.
 */
#include <string.h>

#include "plan/plan.h"

/* Field `field` (VAST_RUN_*, VAST_BOX_*) of a run-table or box-table
 * entry, a ulong as two uint32 words (devices and host are
 * little-endian: CL_DEVICE_ENDIAN_LITTLE). */
static void put64(uint32_t *entry, unsigned field, unsigned long long v)
{
	entry[2 * field] = (uint32_t)v;
	entry[2 * field + 1] = (uint32_t)(v >> 32);
}

/* Slot s's entries of the run table and the box table, cleared. */
static uint32_t *run_entry(const vrt_layout *l, uint32_t *lpt, unsigned s)
{
	uint32_t *r = lpt + vrt_lpt_runs_index(l->nslots) + VAST_LPT_ENTRY_WORDS * (size_t)(s - 1);
	memset(r, 0, VAST_LPT_ENTRY_WORDS * sizeof *r);
	return r;
}
static uint32_t *box_entry(const vrt_layout *l, uint32_t *lpt, unsigned s)
{
	return run_entry(l, lpt, l->nslots + s);
}

/* Slot s's box entry (docs/generated-kernels.md): where its box lies in
 * the buffer and in the frames. */
static void put_box(uint32_t *w, const vrt_box2d *bx, unsigned long long frame_byte)
{
	put64(w, VAST_BOX_FIRST, bx->origin);
	put64(w, VAST_BOX_PITCH, bx->pitch);
	put64(w, VAST_BOX_SHAPE, bx->width | bx->rows << 32);
	put64(w, VAST_BOX_FRAME, frame_byte);
}

/* Slot s's header entries: where its page table starts, its pages. */
static void put_table(uint32_t *lpt, unsigned s, size_t idx, size_t pages)
{
	lpt[VAST_LPT_TABLE(s)] = (uint32_t)idx;
	lpt[VAST_LPT_PAGES(s)] = (uint32_t)pages;
}

/* Resident slot s (l->res_buf[s]): its whole buffer is bound as frame
 * buffer res_buf[s], page p in frame p, one run from byte 0: the straight
 * variant translates it with one add; no frames of the set's. */
static void resident_slot(const vrt_layout *l, unsigned s, uint32_t *lpt, size_t idx,
                          vrt_frames *fr)
{
	size_t n = l->slot_pages[s];
	uint32_t *r = run_entry(l, lpt, s);
	box_entry(l, lpt, s);
	put_table(lpt, s, idx, n);
	for (size_t p = 0; p < n; p++)
		lpt[idx + p] = (uint32_t)p;
	fr->first[s] = 0;
	fr->count[s] = n;
	fr->buf[s] = l->res_buf[s];
	fr->lo[s] = 0;
	put64(r, VAST_RUN_BYTES, (unsigned long long)n << l->page_shift);
	put64(r, VAST_RUN_BUF, l->res_buf[s]);
}

/* Slot s of a range whose pages of it all lie in the hold (vrt_pas_held):
 * bound to the hold, page p in frame p, one run from byte 0 as a resident
 * slot's, and no frames of the set's. */
static void held_slot(const vrt_layout *l, unsigned s, uint32_t *lpt, size_t idx,
                      vrt_frames *fr)
{
	size_t n = l->hold_pages;
	uint32_t *r = run_entry(l, lpt, s);
	box_entry(l, lpt, s);
	put_table(lpt, s, idx, l->slot_pages[s]);
	for (size_t p = 0; p < l->slot_pages[s]; p++)
		lpt[idx + p] = p < n ? (uint32_t)p : VAST_NO_FRAME;
	fr->first[s] = 0;
	fr->count[s] = n;
	fr->buf[s] = l->hold_buf;
	fr->lo[s] = 0;
	fr->held = s;
	put64(r, VAST_RUN_BYTES, (unsigned long long)n << l->page_shift);
	put64(r, VAST_RUN_BUF, l->hold_buf);
}

int vrt_lpt_build(const vrt_layout *l, const unsigned char *u, const vrt_box2d *boxes,
                  size_t per_buf, uint32_t *lpt, vrt_frames *fr)
{
	size_t runs = vrt_lpt_runs_index(l->nslots);
	size_t idx = runs + 2 * VAST_LPT_ENTRY_WORDS * (size_t)l->nslots, frame = 1;
	unsigned sh = l->page_shift, b = 0;
	memset(fr, 0, sizeof *fr);
	fr->straight = 1;
	lpt[VAST_LPT_NSLOTS] = l->nslots;
	lpt[VAST_LPT_RUNS(l->nslots)] = (uint32_t)runs;
	/* The words before the run table too: send_lpt_and_fault (paged/kargs.c)
	 * compares whole tables, and garbage there resent an unchanged LPT
	 * (measured on the H100: 260 bytes and ~20 us a cached launch). */
	for (size_t w = VAST_LPT_HEADER((size_t)l->nslots); w < runs; w++)
		lpt[w] = 0;
	unsigned nbufs = vrt_set_bufs(l);
	for (unsigned s = 1; s <= l->nslots; s++) {
		const unsigned char *row = u + l->slot_off[s];
		const vrt_box2d *bx = boxes && boxes[s].rows ? &boxes[s] : NULL;
		if (l->res_buf[s]) {
			resident_slot(l, s, lpt, idx, fr);
			idx += l->slot_pages[s];
			continue;
		}
		if (!bx && s == l->hold_slot && vrt_pas_held(l, u)) {
			held_slot(l, s, lpt, idx, fr);
			idx += l->slot_pages[s];
			continue;
		}
		/* A box of whole rows (or one) is one run of the buffer's
		 * bytes: translated as a run, straight where all are. */
		int box_run = bx && (bx->rows == 1 || bx->width == bx->pitch);
		size_t n = bx ? (size_t)((bx->width * bx->rows + (1ull << sh) - 1) >> sh)
		              : vrt_pas_count(row, l->slot_pages[s]);
		if (n > per_buf - frame) { /* the rest of buffer b is too small */
			if (n > per_buf || ++b == nbufs)
				return -1;
			frame = 0;
		}
		put_table(lpt, s, idx, l->slot_pages[s]);
		fr->first[s] = frame;
		fr->count[s] = n;
		fr->buf[s] = b;
		size_t lo = 0, hi = 0;
		uint32_t *box = box_entry(l, lpt, s);
		if (bx) {
			/* Packed rows: no page of the slot has a frame, so every
			 * access of it takes the box (vast_tr). */
			for (size_t p = 0; p < l->slot_pages[s]; p++)
				lpt[idx + p] = VAST_NO_FRAME;
			if (!box_run)
				put_box(box, bx, (unsigned long long)frame << sh);
			frame += n;
			fr->straight &= box_run;
		}
		for (size_t p = 0; p < l->slot_pages[s] && !bx; p++) {
			lpt[idx + p] = row[p] ? (uint32_t)frame++ : VAST_NO_FRAME;
			if (row[p]) {
				if (frame - 1 == fr->first[s])
					lo = p;
				hi = p;
			}
		}
		fr->used[b] = frame;
		/* One contiguous run of pages: the kernel translates it with
		 * one add and no table walk. */
		uint32_t *r = run_entry(l, lpt, s);
		fr->lo[s] = (unsigned long long)lo << sh;
		if (box_run) {
			fr->lo[s] = bx->origin;
			put64(r, VAST_RUN_FIRST, bx->origin);
			put64(r, VAST_RUN_BYTES, bx->width * bx->rows);
			put64(r, VAST_RUN_FRAME, (unsigned long long)fr->first[s] << sh);
		} else if (bx) {
			put64(r, VAST_RUN_FIRST, VAST_BOXED); /* the kernel reads the box */
		} else if (n && hi - lo + 1 == n) {
			put64(r, VAST_RUN_FIRST, (unsigned long long)lo << sh);
			put64(r, VAST_RUN_BYTES, (unsigned long long)n << sh);
			put64(r, VAST_RUN_FRAME, (unsigned long long)fr->first[s] << sh);
		} else if (n) {
			fr->straight = 0;
		}
		put64(r, VAST_RUN_BUF, b);
		idx += l->slot_pages[s];
	}
	if (!fr->used[0])
		fr->used[0] = 1; /* the scratch frame */
	return 0;
}

size_t vrt_spans(const vrt_layout *l, const unsigned char *u,
                 const uint32_t *lpt, unsigned s, vrt_span **spans)
{
	size_t cap = 0;
	*spans = NULL;
	return vrt_spans_in(l, u, lpt, s, 0, l->slot_pages[s], spans, &cap);
}

size_t vrt_spans_in(const vrt_layout *l, const unsigned char *u, const uint32_t *lpt,
                    unsigned s, size_t lo, size_t hi, vrt_span **spans, size_t *cap)
{
	const unsigned char *row = u + l->slot_off[s];
	const uint32_t *tab = vrt_lpt_table(lpt, s);
	size_t n = 0, q;
	if (hi > l->slot_pages[s])
		hi = l->slot_pages[s];
	for (size_t p = vrt_pas_next_run(row, lo, hi, &q); p < hi;
	     p = vrt_pas_next_run(row, q, hi, &q))
		n++;
	if (!n)
		return 0;
	if (n > *cap) {
		vrt_span *w = vrt_realloc(*spans, n * sizeof *w);
		if (!w)
			return (size_t)-1;
		*spans = w;
		*cap = n;
	}
	vrt_span *out = *spans;
	size_t k = 0;
	for (size_t p = vrt_pas_next_run(row, lo, hi, &q); p < hi;
	     p = vrt_pas_next_run(row, q, hi, &q)) {
		out[k].slot = s;
		out[k].page = p;
		out[k].npages = q - p;
		out[k].frame = tab[p];
		k++;
	}
	return n;
}

size_t vrt_span_valid(const vrt_layout *l, const vrt_span *sp)
{
	size_t start = sp->page << l->page_shift;
	size_t end = (sp->page + sp->npages) << l->page_shift;
	if (end > l->slot_size[sp->slot])
		end = l->slot_size[sp->slot];
	return end > start ? end - start : 0;
}

void vrt_gather(const vrt_layout *l, const vrt_span *sp,
                const unsigned char *host, unsigned char *frames)
{
	size_t n = vrt_span_valid(l, sp), all = sp->npages << l->page_shift;
	unsigned char *dst = frames + (sp->frame << l->page_shift);
	vrt_copy(dst, host + (sp->page << l->page_shift), n);
	/* Past the buffer's end: defined bytes, never read back. */
	memset(dst + n, 0, all - n);
}

void vrt_scatter(const vrt_layout *l, const vrt_span *sp,
                 unsigned char *host, const unsigned char *frames)
{
	vrt_copy(host + (sp->page << l->page_shift),
	       frames + (sp->frame << l->page_shift), vrt_span_valid(l, sp));
}
