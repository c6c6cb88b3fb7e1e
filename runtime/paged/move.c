/* SPDX-License-Identifier: MIT */
/*
 * move.c - a range's transfers: each slot's pages between its host copy
 * and the frames, straight (spans, rectangles, the pinned ring) or
 * through the staging area, as choose_direct decides once a launch; a
 * boxed slot's box; the pages an earlier range in flight writes,
 * forwarded on the device; and the events of each phase.
 */
#include <string.h>

#include "paged/paged_int.h"

/* Pinned host copies move span by span, straight between the host copy
 * and the frames, when the spans are large enough for a copy to reach the
 * link's speed (DESIGN §3: 1 MiB pieces 48 GB/s, 64 KiB 17.6 GB/s);
 * everything else is gathered into the pinned staging area and moves in
 * one piece. Decided once per launch and slot, from the runs of pages
 * the whole launch touches, so that write-backs of one slot all take the
 * same (ordered) path.
 *
 * A staging area is a second host copy of what it stages, and a pinned
 * one is a buffer the device caps at its largest allocation: a set's
 * staging stays within VRT_STAGE_MAX and that size, and a slot whose
 * share of it (its pages, at most the set's budget) would pass the bound
 * moves straight from its host copy too, pinned or not (a 32 GiB
 * USE_HOST_PTR array on a 128 GiB host has no room for staging the size
 * of the budget). */
#define VRT_DIRECT_SPAN (256u << 10)
#define VRT_STAGE_MAX (512ull << 20)

void vrt_paged_choose_direct(vrt_launch *L, paged *P)
{
	const vrt_layout *lay = &P->lay;
	const unsigned char *all = P->unions + P->nranges * lay->row_bytes;
	unsigned long long room = VRT_STAGE_MAX, share = L->budget / P->nsets;
	if (P->maxalloc && P->maxalloc < room)
		room = P->maxalloc;
	for (unsigned s = 1; s <= lay->nslots; s++) {
		const unsigned char *row = all + lay->slot_off[s];
		size_t pages = 0, runs = 0;
		for (size_t p = 0; p < lay->slot_pages[s]; p++) {
			pages += row[p];
			runs += row[p] && (p == 0 || !row[p - 1]);
		}
		unsigned long long bytes = (unsigned long long)pages << lay->page_shift;
		unsigned long long staged = bytes < share ? bytes : share;
		P->direct[s] = (L->slot_mem[s]->pin.buf && runs && bytes / runs >= VRT_DIRECT_SPAN) ||
		               staged > room || vrt_fp_boxed(P->fp, s);
		if (!P->direct[s])
			room -= staged;
		else if (!L->slot_mem[s]->pin.buf)
			vrt_log(VRT_LOG_INFO, "kernel '%s': slot %u moves unstaged, from pageable memory (%llu bytes a range would pass the staging bound)",
			        L->k->name, s, staged);
	}
}

/* Remembers a command of a phase: ev[0] the first, ev[1] the last. */
void vrt_paged_keep(cl_event ev[2], cl_event e)
{
	if (!ev[0]) {
		ev[0] = e;
		return;
	}
	if (ev[1])
		vrt_real.clReleaseEvent(ev[1]);
	ev[1] = e;
}

cl_event vrt_paged_last_of(cl_event ev[2])
{
	return ev[1] ? ev[1] : ev[0];
}

void vrt_paged_drop_events(fset *F)
{
	cl_event *all[] = {&F->in[0], &F->in[1], &F->run0, &F->run, &F->out[0], &F->out[1]};
	for (size_t i = 0; i < sizeof all / sizeof *all; i++)
		if (*all[i]) {
			vrt_real.clReleaseEvent(*all[i]);
			*all[i] = NULL;
		}
}

static void gather_share(void *ctx, size_t begin, size_t end)
{
	span_job *j = ctx;
	for (size_t i = begin; i < end; i++)
		vrt_gather(j->lay, &j->sp[i], j->host, j->stage);
}

void vrt_paged_scatter_share(void *ctx, size_t begin, size_t end)
{
	span_job *j = ctx;
	for (size_t i = begin; i < end; i++)
		vrt_scatter(j->lay, &j->sp[i], j->host, j->stage);
}

/* Lays out the staged slots of F's range one after another in its
 * staging area, sized to them alone: pinning a staging area costs about
 * what moving it does (measured on the H100: 1.5 GB of full-frame
 * staging took 0.55-0.67 s before the first range). */
cl_int vrt_paged_stage_layout(vrt_launch *L, paged *P, fset *F)
{
	size_t total = 0;
	for (unsigned s = 1; s <= P->lay.nslots; s++) {
		F->stage_off[s] = total;
		if (!P->direct[s] && !P->lay.res_buf[s] && F->fr.held != s)
			total += F->fr.count[s] << P->lay.page_shift;
	}
	if (!total)
		return CL_SUCCESS;
	F->stage = vrt_staging(L->ctx, L->stage_base + (unsigned)(F - P->set), total);
	return F->stage ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
}

/* Spans of staged slot s with frames relative to its place in the
 * staging area, in *sp (P's scratch, valid until the next call);
 * (size_t)-1 when out of memory. */
size_t vrt_paged_staged_spans(paged *P, const fset *F, const unsigned char *u, unsigned s,
                              vrt_span **sp)
{
	size_t nsp = vrt_spans_in(&P->lay, u, F->lpt, s, F->lo[s], F->hi[s], &P->spans,
	                          &P->spans_cap);
	*sp = P->spans;
	if (nsp == (size_t)-1)
		return nsp;
	for (size_t i = 0; i < nsp; i++)
		(*sp)[i].frame -= F->fr.first[s];
	return nsp;
}

/* Writes the frames of staged spans sp (in page order, frames relative to
 * img) from img to fb at off: in one piece, except where frames that need
 * nothing from the host (pages a range writes whole, pages_to_fill) leave
 * a gap of VRT_DIRECT_SPAN or more between spans, which one more copy
 * skips. */
static cl_int write_staged(cl_command_queue q, cl_mem fb, size_t off, const unsigned char *img,
                           const vrt_span *sp, size_t nsp, unsigned sh, cl_event ev[2],
                           unsigned long long *count)
{
	for (size_t i = 0; i < nsp;) {
		size_t a = sp[i].frame, z = a + sp[i].npages;
		for (i++; i < nsp && (sp[i].frame - z) << sh < VRT_DIRECT_SPAN; i++)
			z = sp[i].frame + sp[i].npages;
		cl_event e;
		cl_int err = vrt_real.clEnqueueWriteBuffer(q, fb, CL_FALSE, off + (a << sh),
		                                           (z - a) << sh, img + (a << sh), 0, NULL,
		                                           &e);
		if (err)
			return err;
		vrt_paged_keep(ev, e);
		*count += (z - a) << sh;
	}
	return CL_SUCCESS;
}

/* The pages of slot s that go in whole (F->fill's 1s), as a row like
 * F->fill within the range's extent (what move_pages reads of it):
 * F->fill itself when no page of s goes by its gaps. NULL when out of
 * memory. */
static const unsigned char *filled_whole(paged *P, const fset *F, unsigned s)
{
	const vrt_layout *lay = &P->lay;
	const unsigned char *fill = F->fill + lay->slot_off[s];
	size_t lo = F->lo[s], hi = F->hi[s];
	if (!memchr(fill + lo, 2, hi - lo))
		return F->fill;
	if (!vrt_paged_scratch_row(&P->whole, &P->whole_cap, lay->row_bytes))
		return NULL;
	unsigned char *w = P->whole + lay->slot_off[s];
	for (size_t p = lo; p < hi; p++)
		w[p] = fill[p] == 1;
	return P->whole;
}

/* Enqueues on F's H2D queue the gaps of slot s's pages still filled by
 * their gaps (use_kept may have found a kept copy of one since), from the
 * host copy, as rectangles. */
static cl_int send_gaps(vrt_launch *L, paged *P, fset *F, unsigned s)
{
	const vrt_layout *lay = &P->lay;
	const unsigned char *fill = F->fill + lay->slot_off[s];
	/* Slot s's gaps, a block of P->gaps (pieces go in slot by slot:
	 * pages_to_fill), are packed within that block: the slots go in two
	 * passes when one goes through the ring (start_range), so a later
	 * slot may be sent first, and packing from the front overwrote an
	 * earlier slot's gaps before they were sent. */
	size_t a = 0;
	while (a < P->ngaps && P->gaps[a].slot != s)
		a++;
	size_t end = a, n = 0;
	for (; end < P->ngaps && P->gaps[end].slot == s; end++)
		if (fill[P->gaps[end].page] == 2)
			P->gaps[a + n++] = P->gaps[end];
	vrt_gap *gaps = P->gaps + a;
	/* The plan's copies of them, where use_kept took none of their
	 * pages (it only takes pages out: the count tells). */
	size_t k = F->plan_r * (lay->nslots + 1) + s, nplan = 0, nrc;
	const vrt_plan_tables *t = &P->tables;
	for (size_t i = t->gap_rects ? t->gaps_at[F->plan_r] : 0;
	     t->gap_rects && i < t->gaps_at[F->plan_r + 1]; i++)
		nplan += t->gaps[i].slot == s;
	vrt_rect *rc = NULL;
	const vrt_rect *use;
	if (t->gap_rects && nplan == n) {
		use = t->gap_rects + t->gap_rects_at[k];
		nrc = t->gap_rects_at[k + 1] - t->gap_rects_at[k];
	} else {
		nrc = vrt_gap_rects(gaps, n, lay->page_shift, vrt_lpt_table(F->lpt, s), &rc);
		if (nrc == (size_t)-1)
			return CL_OUT_OF_HOST_MEMORY;
		use = rc;
	}
	vrt_log(VRT_LOG_DEBUG, "slot %u: %zu gaps of pages written in part, in %zu copies", s, n,
	        nrc);
	cl_int err = CL_SUCCESS;
	for (size_t i = 0; i < nrc && !err; i++) {
		cl_event e;
		if (!(err = vrt_rect_move(P->qs->in, F->frames[F->fr.buf[s]], &use[i],
		                          L->slot_mem[s]->host, 0, NULL, &e)))
			vrt_paged_keep(F->in, e);
		F->in_bytes += use[i].rows * use[i].row_bytes;
	}
	vrt_free(rc);
	return err;
}

/* Whether slot s of F's range goes in straight from a plain host copy,
 * through the pinned ring (move_pages). */
int vrt_paged_in_by_ring(vrt_launch *L, paged *P, const fset *F, unsigned s)
{
	return (P->direct[s] || F->fr.held == s) && !F->box[s].rows && !L->slot_mem[s]->pin.buf &&
	       vrt_ring_usable(L->ctx, L->stage_base / VRT_MAX_SETS);
}

/* A range whose pages go in both through the ring and straight from
 * pinned host copies: the ring's copy of each chunk waits for the chunk's
 * previous transfer, queued behind every straight transfer enqueued
 * before it (the 96 GiB triad: 1.15 GB a range from pinned memory, 21 ms
 * of the link, stalled the ring's copies every range). So while the
 * range has a slot in through the ring (P->hold_back), its straight
 * single-row transfers are held back and sent a piece at a time between
 * the ring's chunks: the link moves both while the host copies. */
static int hold_piece(paged *P, cl_mem fb, size_t dev_off, const unsigned char *src, size_t n)
{
	if (P->nheld == P->held_cap) {
		size_t cap = P->held_cap ? 2 * P->held_cap : 64;
		struct held *h = vrt_realloc(P->held, cap * sizeof *h);
		if (!h)
			return -1;
		P->held = h;
		P->held_cap = cap;
	}
	P->held[P->nheld++] = (struct held){fb, dev_off, n, src};
	P->held_bytes += n;
	return 0;
}

/* Sends up to `bytes` of the held transfers on q, in order. */
cl_int vrt_paged_send_held(paged *P, cl_command_queue q, cl_event ev[2], size_t bytes)
{
	cl_int err = CL_SUCCESS;
	while (bytes && P->held_next < P->nheld && !err) {
		struct held *h = &P->held[P->held_next];
		size_t n = h->n - P->held_sent < bytes ? h->n - P->held_sent : bytes;
		cl_event e;
		err = vrt_real.clEnqueueWriteBuffer(q, h->fb, CL_FALSE, h->dev_off + P->held_sent, n,
		                                    h->src + P->held_sent, 0, NULL, &e);
		if (err)
			break;
		vrt_paged_keep(ev, e);
		bytes -= n;
		if ((P->held_sent += n) == h->n) {
			P->held_next++;
			P->held_sent = 0;
		}
	}
	if (P->held_next == P->nheld)
		P->nheld = P->held_next = P->held_sent = 0;
	return err;
}

/* What a D2H of F's range (out) waits for: its kernel, on another
 * queue, for the range's first D2H (the fault word's, where it is read,
 * else its first frames'); NULL for the others, which follow it on the
 * in-order D2H queue, and for an H2D. */
static cl_event after_run(const fset *F, int out)
{
	return out && !F->out[0] ? F->run : NULL;
}

/* Enqueues the pages u marks of slot s's frames of set F in (H2D,
 * gathering first when staged) or out (D2H; the scatter of a staged slot
 * comes in finish_range). */
static cl_int move_pages(vrt_launch *L, paged *P, fset *F, unsigned s, int out,
                         const unsigned char *u)
{
	vrt_layout *lay = &P->lay;
	unsigned sh = lay->page_shift;
	vrt_mem *m = L->slot_mem[s];
	cl_command_queue q = out ? P->qs->out : P->qs->in;
	cl_mem fb = F->frames[F->fr.buf[s]];
	cl_event *ev = out ? F->out : F->in, e;
	unsigned long long *count = out ? &F->out_bytes : &F->in_bytes;
	cl_int err = CL_SUCCESS;
	if (P->direct[s] || F->fr.held == s) { /* the hold has no staging */
		size_t nsp = vrt_spans_in(lay, u, F->lpt, s, F->lo[s], F->hi[s], &P->spans,
		                          &P->spans_cap),
		       nrc = 0;
		if (nsp == (size_t)-1 ||
		    (nrc = vrt_span_rects_in(lay, P->spans, nsp, &P->rects, &P->rects_cap)) ==
		            (size_t)-1)
			return CL_OUT_OF_HOST_MEMORY;
		const vrt_rect *rc = P->rects;
		if (nrc < nsp)
			vrt_log(VRT_LOG_DEBUG, "slot %u: %zu spans in %zu rectangular copies", s, nsp, nrc);
		/* Only the buffer's valid bytes: the frames past its end hold
		 * nothing of the program's. Strided spans move as rectangles;
		 * spans of a plain host copy go in through the pinned ring. */
		unsigned ring = L->stage_base / VRT_MAX_SETS;
		int by_ring = !out && vrt_paged_in_by_ring(L, P, F, s);
		if (by_ring) { /* the ring waits on q: nothing it needs unflushed */
			vrt_log(VRT_LOG_DEBUG, "slot %u in through the pinned ring", s);
			vrt_real.clFlush(P->qs->run);
			vrt_real.clFlush(P->qs->out);
			vrt_real.clFlush(q);
		}
		for (size_t i = 0; i < nrc && !err; i++) {
			*count += rc[i].rows * rc[i].row_bytes;
			if (!by_ring && !out && P->hold_back && rc[i].rows == 1) {
				if (hold_piece(P, fb, rc[i].dev_off, m->host + rc[i].host_off,
				               rc[i].row_bytes))
					err = CL_OUT_OF_HOST_MEMORY;
				continue;
			}
			if (!by_ring || rc[i].rows > 1) {
				if (!(err = vrt_rect_move(q, fb, &rc[i], m->host, out, after_run(F, out),
				                          &e)))
					vrt_paged_keep(ev, e);
				continue;
			}
			for (size_t done = 0, sent; done < rc[i].row_bytes && !err; done += sent)
				if (!(err = vrt_ring_write(L->ctx, ring, q, fb, rc[i].dev_off + done,
				                           m->host + rc[i].host_off + done,
				                           rc[i].row_bytes - done, &sent, &e))) {
					vrt_paged_keep(ev, e);
					err = vrt_paged_send_held(P, q, ev, sent);
				}
		}
		return err;
	}
	size_t off = F->fr.first[s] << sh, n = F->fr.count[s] << sh;
	unsigned char *img = F->stage + F->stage_off[s];
	if (!out) {
		vrt_span *sp;
		size_t nsp = vrt_paged_staged_spans(P, F, u, s, &sp);
		if (nsp == (size_t)-1)
			return CL_OUT_OF_HOST_MEMORY;
		span_job j = {lay, sp, m->host, img};
		vrt_parallel(nsp, n, gather_share, &j);
		return write_staged(q, fb, off, img, sp, nsp, sh, ev, count);
	}
	cl_event after = after_run(F, out);
	err = vrt_real.clEnqueueReadBuffer(q, fb, CL_FALSE, off, n, img, after != NULL,
	                                   after ? &after : NULL, &e);
	if (!err)
		vrt_paged_keep(ev, e);
	*count += n;
	return err;
}

/* Before the first H2D into F's frames: the previous launch's last
 * range on them may still run (defer_ranges). A range that sends
 * nothing waits for nothing: a barrier on another queue's event costs
 * the host up to 30 us on NVIDIA's driver. */
cl_int vrt_paged_after_busy(paged *P, fset *F)
{
	vrt_devset *ds = &P->devs.set[F - P->set];
	if (!ds->busy)
		return CL_SUCCESS;
	cl_int err = vrt_real.clEnqueueBarrierWithWaitList(P->qs->in, 1, &ds->busy, NULL);
	vrt_real.clReleaseEvent(ds->busy);
	ds->busy = NULL;
	return err;
}

/* Before range i's box of written slot s goes in: the ranges still in
 * flight whose boxes of s share bytes with it have written them back.
 * A box goes back whole, bytes the kernel did not write as they came in
 * (no forwarding, as pages have), so this range's must be theirs: a
 * byte two ranges write is a race in the program, but bytes one writes
 * and the other's box merely spans are not. */
static cl_int after_box_writers(vrt_launch *L, paged *P, size_t i, fset *F, unsigned s)
{
	cl_event wait[VRT_MAX_SETS];
	cl_uint n = 0;
	if (!(L->slot_mode[s] & VAST_MODE_W))
		return CL_SUCCESS;
	for (size_t j = i; j-- > P->done;) {
		fset *G = &P->set[j % P->nsets];
		if (G != F && vrt_paged_last_of(G->out) &&
		    vrt_box2d_overlap(&G->box[s], &F->box[s]))
			wait[n++] = vrt_paged_last_of(G->out);
	}
	return n ? vrt_real.clEnqueueBarrierWithWaitList(P->qs->in, n, wait, NULL) : CL_SUCCESS;
}

/* Enqueues boxed slot s's box of F's range (range i) in (H2D) or out
 * (D2H), its rows packed one after another in the slot's frames: one
 * copy straight between the host copy and the frames, rectangular unless
 * the box is whole rows. In whole, written or not: a byte the kernel
 * does not write goes back as it came; a box whose every byte the range
 * must write (exact must-write descriptors) does not go in at all. */
cl_int vrt_paged_move_box(vrt_launch *L, paged *P, size_t i, fset *F, unsigned s, int out)
{
	const vrt_box2d *bx = &F->box[s];
	int whole = bx->width == bx->pitch;
	vrt_rect r = { whole ? 1 : bx->rows, bx->origin, F->fr.first[s] << P->lay.page_shift,
	               whole ? bx->width * bx->rows : bx->width, bx->pitch, bx->width };
	cl_event e;
	if (!out && L->slot_mode[s] == VAST_MODE_W) {
		/* A box the range writes whole, of a slot the kernel only
		 * writes (it reads nothing of it first), needs nothing from
		 * the host. */
		const vrt_range *R = vrt_paged_range_at(P, i);
		int w = vrt_fp_box_written(P->fp, &P->lay, s, R->first_row * P->wpp,
		                           (R->last_row + 1) * P->wpp, bx);
		vrt_log(VRT_LOG_DEBUG, "range %zu: slot %u: a box of %llu rows of %llu bytes at %llu, pitch %llu%s",
		        i, s, bx->rows, bx->width, bx->origin, bx->pitch,
		        w > 0 ? ", all written: not filled" : "");
		if (w)
			return w < 0 ? CL_OUT_OF_HOST_MEMORY : CL_SUCCESS;
	}
	cl_int err = out ? CL_SUCCESS : vrt_paged_after_busy(P, F);
	if (!err && !out)
		err = after_box_writers(L, P, i, F, s);
	if (!err)
		err = vrt_rect_move(out ? P->qs->out : P->qs->in, F->frames[F->fr.buf[s]], &r,
		                    L->slot_mem[s]->host, out, after_run(F, out), &e);
	if (err)
		return err;
	vrt_paged_keep(out ? F->out : F->in, e);
	*(out ? &F->out_bytes : &F->in_bytes) += bx->width * bx->rows;
	return CL_SUCCESS;
}

/* Enqueues slot s's frames of set F in or out (move_pages): in, the
 * pages filled whole, then the gaps of those filled by their gaps, last:
 * a staged slot's copy may span a page of the second kind (write_staged)
 * with stale bytes of the staging area, which the gaps then overwrite. */
cl_int vrt_paged_move_frames(vrt_launch *L, paged *P, fset *F, unsigned s, int out)
{
	const unsigned char *u = out ? F->u : filled_whole(P, F, s);
	if (!u)
		return CL_OUT_OF_HOST_MEMORY;
	cl_int err = out ? CL_SUCCESS : vrt_paged_after_busy(P, F);
	if (err)
		return err;
	err = move_pages(L, P, F, s, out, u);
	if (!err && !out && u != F->fill)
		err = send_gaps(L, P, F, s);
	return err;
}

/* The range in flight that last brings page p of slot s back: its frame
 * holds the page's current bytes once its kernel ran. NULL: the host
 * copy is current. */
static fset *writer_of(vrt_launch *L, paged *P, size_t i, unsigned s, size_t p)
{
	if (!(L->slot_mode[s] & VAST_MODE_W))
		return NULL;
	for (size_t j = i; j-- > P->done;) {
		fset *G = &P->set[j % P->nsets];
		if (G->u[P->lay.slot_off[s] + p])
			return G;
	}
	return NULL;
}

/* Copies, on the kernel queue (after the earlier ranges' kernels and this
 * range's H2D), every page of F that a range still in flight writes from
 * that range's frame; runs of pages consecutive in both move together. */
cl_int vrt_paged_forward(vrt_launch *L, paged *P, size_t i, fset *F)
{
	const vrt_layout *lay = &P->lay;
	unsigned sh = lay->page_shift;
	cl_event after = vrt_paged_last_of(F->in);
	for (unsigned s = 1; s <= lay->nslots; s++) {
		if (!(L->slot_mode[s] & VAST_MODE_W) || P->done == i)
			continue;
		const unsigned char *row = F->u + lay->slot_off[s];
		size_t hi = F->hi[s], end;
		/* the range's runs of the slot: a page outside them is none of its */
		for (size_t a = vrt_pas_next_run(row, F->lo[s], hi, &end); a < hi;
		     a = vrt_pas_next_run(row, end, hi, &end))
			for (size_t p = a; p < end;) {
				fset *G = writer_of(L, P, i, s, p);
				if (!G) {
					p++;
					continue;
				}
				const uint32_t *tg = vrt_lpt_table(G->lpt, s);
				const uint32_t *tf = vrt_lpt_table(F->lpt, s);
				size_t q = p + 1;
				while (q < end && writer_of(L, P, i, s, q) == G &&
				       tg[q] == tg[p] + (q - p) && tf[q] == tf[p] + (q - p))
					q++;
				/* Both bound to the hold: the page is where G wrote it,
				 * and F's kernel follows G's on the in-order queue. */
				if (G->fr.held == s && F->fr.held == s) {
					p = q;
					continue;
				}
				cl_event e;
				vrt_log(VRT_LOG_DEBUG, "range %zu: %zu pages of slot %u forwarded from range %ld",
				        i, q - p, s, G->range);
				cl_int err = vrt_real.clEnqueueCopyBuffer(
					P->qs->run, G->frames[G->fr.buf[s]],
					F->frames[F->fr.buf[s]], (size_t)tg[p] << sh,
					(size_t)tf[p] << sh, (q - p) << sh,
					after != NULL, after ? &after : NULL, &e);
				if (err)
					return err;
				/* G's frames are refilled only after this copy (start_range). */
				if (G->reader)
					vrt_real.clReleaseEvent(G->reader);
				G->reader = e;
				p = q;
			}
	}
	return CL_SUCCESS;
}
