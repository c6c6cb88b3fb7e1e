/* SPDX-License-Identifier: MIT */
/*
 * pagefill.c - which pages of a range go in from the host copies: whole,
 * by their gaps (the bytes its must-write boxes leave out), or not at
 * all (a slot the kernel only writes, written whole by the range).
 */
#include <string.h>

#include "paged/paged_int.h"

/* Bytes of page p of a buffer of `size` bytes. */
size_t vrt_paged_page_bytes(const vrt_layout *lay, size_t size, size_t p)
{
	size_t at = p << lay->page_shift, n = (size_t)1 << lay->page_shift;
	return size - at < n ? size - at : n;
}

/* Page p of slot s, which the range's must-write boxes (fp, just asked)
 * cover only in part, goes in by its gaps alone (gaps.c): into
 * P->gaps, and 1; 0 to fill it whole (large gaps, or more than
 * VRT_GAPS_MAX); -1 out of memory. */
static int by_gaps(const vrt_launch *L, paged *P, const vrt_fp_plan *fp, unsigned s, size_t p)
{
	const vrt_layout *lay = &P->lay;
	size_t lo[VRT_GAPS_MAX], hi[VRT_GAPS_MAX], bytes = 0;
	size_t n = vrt_fp_gaps(fp, p, lay->page_shift, L->slot_mem[s]->size, lo, hi,
	                       VRT_GAPS_MAX);
	if (!n || n > VRT_GAPS_MAX)
		return 0;
	for (size_t i = 0; i < n; i++)
		bytes += hi[i] - lo[i];
	if (bytes * 4 > vrt_paged_page_bytes(lay, L->slot_mem[s]->size, p))
		return 0; /* most of the page: one linear copy moves it better */
	if (P->ngaps + n > P->gaps_cap) {
		size_t cap = P->gaps_cap ? P->gaps_cap * 2 : 256;
		while (cap < P->ngaps + n)
			cap *= 2;
		vrt_gap *g = vrt_realloc(P->gaps, cap * sizeof *g);
		if (!g)
			return -1;
		P->gaps = g;
		P->gaps_cap = cap;
	}
	for (size_t i = 0; i < n; i++)
		P->gaps[P->ngaps++] = (vrt_gap){ s, p, lo[i], hi[i] };
	return 1;
}

/* Slot s's pages by their gaps (pieces P->gaps[first..]) go in whole
 * after all when the copies of their gaps would take longer
 * (vrt_gaps_worth); 0 out of memory, else 1. */
static int gaps_or_whole(const vrt_launch *L, paged *P, unsigned char *fillrow,
                         const uint32_t *lpt, unsigned s, size_t first)
{
	const vrt_layout *lay = &P->lay;
	unsigned char *fill = fillrow + lay->slot_off[s];
	vrt_rect *rc;
	size_t nrc = vrt_gap_rects(P->gaps + first, P->ngaps - first, lay->page_shift,
	                           vrt_lpt_table(lpt, s), &rc);
	if (nrc == (size_t)-1)
		return 0;
	size_t rows = 0;
	for (size_t i = 0; i < nrc; i++)
		rows += rc[i].rows;
	vrt_free(rc);
	unsigned long long whole = 0;
	for (size_t p = 0; p < lay->slot_pages[s]; p++)
		if (fill[p] == 2)
			whole += vrt_paged_page_bytes(lay, L->slot_mem[s]->size, p);
	if (vrt_gaps_worth(nrc, rows, whole))
		return 1;
	for (size_t p = 0; p < lay->slot_pages[s]; p++)
		if (fill[p] == 2)
			fill[p] = 1;
	P->ngaps = first;
	return 1;
}

/* fill: the pages of u (a range's, its frames fr and LPT lpt) that go in
 * from the host copies, 1 whole, 2 by their gaps (P->gaps). A slot the
 * kernel only writes (no reads, no atomics) needs none of the pages its
 * range certainly writes whole
 * (exact must-write descriptors): every byte of them comes back from the
 * kernel; of a page they write in part, only the bytes they leave out.
 * Every other page is filled, so bytes a kernel does not write keep
 * their values. In a fused launch the kernel that touches the slot first
 * on the range decides: L's where it has the slot, else L2's (the bytes
 * L's kernel writes whole are all L2's kernel sees of them). */
cl_int vrt_paged_fill_of(vrt_launch *L, paged *P, const unsigned char *u, const vrt_frames *fr,
                         const uint32_t *lpt, size_t g0, size_t g1, unsigned char *fillrow)
{
	const vrt_layout *lay = &P->lay;
	memcpy(fillrow, u, lay->row_bytes);
	P->ngaps = 0;
	if (!P->fp)
		return CL_SUCCESS;
	for (unsigned s = 1; s <= lay->nslots; s++) {
		unsigned mode = L->slot_mode[s];
		vrt_fp_plan *fp = P->fp;
		if (P->L2) {
			mode = P->mode1[s] ? P->mode1[s] : P->L2->slot_mode[s];
			fp = P->mode1[s] ? P->fp : P->fp2;
		}
		if (mode != VAST_MODE_W || !fr->count[s] || lay->res_buf[s])
			continue;
		if (P->written_cap < lay->slot_pages[s]) {
			/* a new plan may have smaller pages: more of them */
			unsigned char *w = vrt_realloc(P->written, lay->slot_pages[s]);
			if (!w)
				return CL_OUT_OF_HOST_MEMORY;
			P->written = w;
			P->written_cap = lay->slot_pages[s];
		}
		int r = vrt_fp_must_write(fp, lay, s, g0, g1, P->written);
		if (r < 0)
			return CL_OUT_OF_HOST_MEMORY;
		unsigned char *fill = fillrow + lay->slot_off[s];
		size_t first = P->ngaps, n = r ? lay->slot_pages[s] : 0, q;
		/* the range's pages, run by run: the others are 0 already */
		for (size_t a = vrt_pas_next_run(fill, 0, n, &q); a < n;
		     a = vrt_pas_next_run(fill, q, n, &q))
			for (size_t p = a; p < q; p++) {
				if (P->written[p]) {
					fill[p] = 0;
					continue;
				}
				int g = by_gaps(L, P, fp, s, p);
				if (g < 0)
					return CL_OUT_OF_HOST_MEMORY;
				if (g)
					fill[p] = 2;
			}
		if (first < P->ngaps && !gaps_or_whole(L, P, fillrow, lpt, s, first))
			return CL_OUT_OF_HOST_MEMORY;
	}
	return CL_SUCCESS;
}

/* F->fill and P->gaps of F's range, plan range r of groups [g0, g1)
 * (fill_of): the plan's, worked out once with it (plan_tables), else
 * here. */
cl_int vrt_paged_pages_to_fill(vrt_launch *L, paged *P, fset *F, size_t r, size_t g0, size_t g1)
{
	const vrt_plan_tables *t = &P->tables;
	if (!t->fills)
		return vrt_paged_fill_of(L, P, F->u, &F->fr, F->lpt, g0, g1, F->fill);
	size_t a = t->gaps_at[r], n = t->gaps_at[r + 1] - a;
	memcpy(F->fill, t->fills + r * P->lay.row_bytes, P->lay.row_bytes);
	if (n > P->gaps_cap) {
		vrt_gap *g = vrt_realloc(P->gaps, n * sizeof *g);
		if (!g)
			return CL_OUT_OF_HOST_MEMORY;
		P->gaps = g;
		P->gaps_cap = n;
	}
	if (n)
		memcpy(P->gaps, t->gaps + a, n * sizeof *P->gaps);
	P->ngaps = n;
	return CL_SUCCESS;
}
