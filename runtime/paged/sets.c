/* SPDX-License-Identifier: MIT */
/*
 * sets.c - a launch's frame sets, one a range in flight holds (frame
 * buffers, LPT buffer, fault word, staging): their device buffers taken
 * from the frame pool (mem/framepool.c) or made, and the hold's, and
 * given back or released when the launch ends.
 */
#include <string.h>

#include "paged/paged_int.h"

/* A device buffer of `bytes`, backed now: NVIDIA's driver allocates a
 * buffer's memory at its first use, so a one-byte write makes an
 * out-of-memory show here, before any range has run, rather than in
 * the middle of the launch. VAST_FAIL_DEVICE_MEM (a testing knob) fails
 * the buffers past that many bytes of a launch in the same way. */
static cl_mem backed_buffer(vrt_launch *L, paged *P, size_t bytes, cl_int *err)
{
	static const unsigned char zero;
	cl_mem m = vrt_real.clCreateBuffer(L->ctx, CL_MEM_READ_WRITE, bytes, NULL, err);
	if (!m)
		return NULL;
	P->device_bytes += bytes;
	if (vrt_cfg.fail_device_mem && P->device_bytes > vrt_cfg.fail_device_mem)
		*err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
	else
		*err = vrt_real.clEnqueueWriteBuffer(P->qs->in, m, CL_TRUE, bytes - 1, 1, &zero,
		                                     0, NULL, NULL);
	if (*err) {
		vrt_real.clReleaseMemObject(m);
		return NULL;
	}
	return m;
}

/* The hold's device buffer, for a launch that uses it: the pool's when
 * it holds the same buffer's pages at this page size and its size, or a
 * new one (the old one's dirty pages home first). */
static cl_int place_hold(vrt_launch *L, paged *P)
{
	vrt_devsets *d = &P->devs;
	const vrt_layout *lay = &P->lay;
	if (!lay->hold_pages)
		return CL_SUCCESS;
	const vrt_mem *m = L->slot_mem[lay->hold_slot];
	if (d->hold && (d->hold_serial != m->serial || d->hold_shift != lay->page_shift ||
	                d->hold_bytes != P->hold_bytes))
		vrt_paged_drop_hold(d, L->ctx, L->dev);
	if (d->hold)
		return CL_SUCCESS;
	cl_int err;
	if (!(d->hold = backed_buffer(L, P, lay->hold_pages << lay->page_shift, &err)))
		return err;
	d->hold_bytes = P->hold_bytes;
	if (vrt_hold_init(d, m->serial, lay->hold_pages, lay->page_shift)) {
		vrt_real.clReleaseMemObject(d->hold);
		d->hold = NULL;
		return CL_OUT_OF_HOST_MEMORY;
	}
	return CL_SUCCESS;
}


cl_int vrt_paged_make_sets(vrt_launch *L, paged *P)
{
	size_t rb = P->lay.row_bytes, lb = vrt_lpt_bytes(&P->lay);
	unsigned sh = P->lay.page_shift;
	cl_int err = CL_SUCCESS;
	/* The buffers an earlier launch left, where large enough; the
	 * others made here, their sizes recorded. */
	vrt_devsets want, *d = &P->devs;
	memset(&want, 0, sizeof want);
	want.dummy_bytes = (size_t)1 << sh;
	want.nsets = P->nsets;
	/* A set of one frame buffer gets all the room its share of the
	 * budget leaves: the kernels of a pipeline (fdtd2d's three) then
	 * keep one another's buffers, and the pages in them, where each
	 * sized to its own plan made the next that needed more drop them. */
	size_t whole = P->buf_frames[0] << sh;
	unsigned long long share = L->budget / P->nsets, data = 1;
	for (unsigned s = 1; s <= P->lay.nslots; s++)
		data += P->lay.slot_pages[s];
	if (!P->buf_frames[1] && share > lb) {
		/* what place_frames lets a plan fill: its frames and LPT; no
		 * more than all the launch's pages (and the scratch frame) on
		 * a budget larger than its data (VAST_MODE=paged) */
		unsigned long long room = vrt_frames_beside_lpt(share, lb, sh);
		if (room > data)
			room = data;
		if (room << sh > whole && (!P->maxalloc || room << sh <= P->maxalloc))
			whole = (size_t)(room << sh);
	}
	vrt_log(VRT_LOG_DEBUG, "kernel '%s': %u frame sets of %zu bytes (the plan needs %zu)",
	        L->k->name, P->nsets, whole, (size_t)(P->buf_frames[0] << sh));
	for (unsigned i = 0; i < P->nsets; i++) {
		want.set[i].lpt_bytes = lb;
		for (unsigned b = 0; b < VAST_FRAME_BUFS; b++)
			want.set[i].frame_bytes[b] = b ? P->buf_frames[b] << sh : whole;
	}
	/* Shares of a split launch run on threads (multi.c): the pool is
	 * the executor's alone. */
	if (!L->share)
		vrt_framepool_take(L->ctx, L->dev, d);
	d->home = vrt_paged_write_home;
	/* Pages the pools of the context's other devices alone hold (their
	 * launches left them) come home first: this launch fills its frames
	 * from the host copy. */
	for (unsigned s = 1; !L->share && s <= L->nslots; s++)
		if (vrt_framepool_newer(L->slot_mem[s]) &&
		    (err = vrt_framepool_write_home(L->slot_mem[s])) != CL_SUCCESS)
			return err;
	/* Frame buffers fit drops, or pages of another size, take the pages
	 * they hold with them: those newer than the host go home first (the
	 * hold's with its buffer where the page size changes: the hold's
	 * pages are the frames' size, poolloc.c). */
	/* The plan's sets fill the budget (place_frames), the dummy page
	 * aside. */
	unsigned long long room = L->budget + want.dummy_bytes;
	if (d->res.n && (d->res.page_shift != sh || !vrt_devsets_fit_keeps(d, &want, room)) &&
	    (err = vrt_paged_newer_home(d, L->ctx, L->dev, NULL, VRT_POOL_FRAMES)) != CL_SUCCESS)
		return err;
	if (d->hold && d->hold_shift != sh)
		vrt_paged_drop_hold(d, L->ctx, L->dev);
	vrt_devsets_fit(d, &want, room);
	if (d->res.page_shift != sh) {
		vrt_pool_forget_frames(d);
		vrt_res_clear(&d->res); /* its pages are not this launch's */
		d->res.page_shift = sh;
	}
	/* The pool is a location of every buffer whose pages it may keep. */
	for (unsigned s = 0; s <= VAST_MAX_SLOTS; s++)
		P->loc[s] = -1;
	for (unsigned s = 1; s <= L->nslots; s++)
		if (vrt_paged_may_reside(L, s) && (P->loc[s] = vrt_pool_loc(d, L->slot_mem[s])) < 0)
			return CL_OUT_OF_HOST_MEMORY;
	if (vrt_cfg.resident && !L->share)
		d->reverse = !d->reverse;
	P->reverse = d->reverse;
	if (!d->dummy) {
		d->dummy_bytes = want.dummy_bytes;
		if (!(d->dummy = backed_buffer(L, P, d->dummy_bytes, &err)))
			return err;
	}
	P->dummy = d->dummy;
	if ((err = place_hold(L, P)) != CL_SUCCESS)
		return err;
	for (unsigned i = 0; i < P->nsets; i++) {
		fset *F = &P->set[i];
		vrt_devset *ds = &d->set[i], *ws = &want.set[i];
		F->range = -1;
		F->u = vrt_calloc(1, rb);
		F->prev_u = vrt_calloc(1, rb);
		F->fill = vrt_calloc(1, rb);
		F->lpt_own = vrt_malloc(lb);
		if (!F->u || !F->prev_u || !F->fill || !F->lpt_own)
			return CL_OUT_OF_HOST_MEMORY;
		for (unsigned b = 0; b < VAST_FRAME_BUFS; b++) {
			if (!ws->frame_bytes[b] || ds->frames[b])
				continue;
			ds->frame_bytes[b] = ws->frame_bytes[b];
			if (!(ds->frames[b] = backed_buffer(L, P, ds->frame_bytes[b], &err)))
				return err;
		}
		if (!ds->lptbuf) {
			vrt_free(ds->lpt_held);
			ds->lpt_held = NULL;
			ds->lpt_bytes = lb;
			if (!(ds->lptbuf = vrt_real.clCreateBuffer(L->ctx, CL_MEM_READ_ONLY, lb, NULL, &err)))
				return err;
		}
		if (!ds->fault) {
			ds->fault_clear = 0;
			if (!(ds->fault = vrt_real.clCreateBuffer(L->ctx, CL_MEM_READ_WRITE, sizeof(cl_uint),
			                                          NULL, &err)))
				return err;
		}
		memcpy(F->frames, ds->frames, sizeof F->frames);
		for (unsigned s = 1; s <= P->lay.nslots; s++)
			if (P->lay.res_buf[s])
				F->frames[P->lay.res_buf[s]] = L->slot_mem[s]->dev;
		if (P->lay.hold_pages)
			F->frames[P->lay.hold_buf] = d->hold;
		F->lptbuf = ds->lptbuf;
		F->fault = ds->fault;
		F->fault_word = &P->tail->fault[i];
	}
	return err;
}

/* Leaves the frame sets as new: their device buffers kept for the next
 * launch on L's context and device (framepool.c), or, unless `keep`,
 * released, their dirty pages written home first (or their buffers
 * refused: write_home). */
void vrt_paged_drop_sets(paged *P, const vrt_launch *L, int keep)
{
	for (unsigned i = 0; i < VRT_MAX_SETS; i++) {
		fset *F = &P->set[i];
		vrt_paged_drop_events(F);
		if (F->reader)
			vrt_real.clReleaseEvent(F->reader);
		vrt_free(F->u);
		vrt_free(F->prev_u);
		vrt_free(F->fill);
		vrt_free(F->lpt_own);
		memset(F, 0, sizeof *F);
	}
	if (keep && !L->share) {
		vrt_framepool_give(L->ctx, L->dev, &P->devs);
	} else {
		if (!L->share)
			vrt_paged_write_home(&P->devs, L->ctx, L->dev, NULL, 0);
		vrt_devsets_release(&P->devs);
	}
	P->dummy = NULL;
	P->device_bytes = 0;
}
