/* SPDX-License-Identifier: MIT */
/*
 * paged.c - the paged path of a launch (DESIGN §3, VAST §4).
 *
 *   inspect -> PAS rows -> reduction (Algorithm 1) -> per range:
 *   plan (LPT), gather frames, H2D, vast_paged_K (vast_straight_K when
 *   every slot's pages are one run), D2H of the written slots and the
 *   fault word, fault check, scatter into the host copies.
 *
 * Ranges are pipelined (VAST_PIPELINE=k frame sets, default 3): each range
 * owns one frame set (frame buffer, LPT, fault word, staging area) and
 * its commands go to three queues of the runtime's own, joined by events:
 * H2D on one, kernels (and page forwarding) on another, D2H on a third.
 * While range i's kernel runs, range i+1's frames go in and range i-1's
 * come out; the host thread plans and gathers range i+1 meanwhile, and
 * finishes range i-k+1 (fault check, scatter) only when its set is needed
 * again. The budget covers all k sets, so the reduction cuts ranges
 * against budget/k, and the first range is cut smaller still so the
 * pipeline fills fast.
 *
 * Exactness: a page of a written slot that an earlier range still in
 * flight also touches is not taken from the host copy (which that range
 * has not written back yet) but copied on the device from the earlier
 * range's frame, after its kernel (the paper's shared PAS forwarding,
 * done device-side). Write-backs reach the host copies in range order:
 * a slot moves either straight between its pinned host copy and the
 * frames or through the staging area for the whole launch, and both
 * paths are ordered (one in-order D2H queue; scatters in range order).
 * A read-only slot whose pages and frames did not change since the
 * set's previous range is not sent again. The last range on each set
 * leaves what it writes in its frames, dirty, for the host to fetch
 * when it needs it (lazy_slot, remember, write_home: written data
 * goes home lazily). A fault in any range means the
 * inspector missed a page: the launch fails rather than give a wrong
 * result.
 *
 * This file is the range loop: a launch planned and its frame sets
 * made, then each range started and finished in turn. The steps live in
 * the folder's other files, listed in paged_int.h.
 */
#include <string.h>

#include "paged/paged_int.h"

/* Whether a whole write is pending for some slot of L (pending.c): only
 * then is the next range's box worked out ahead of it. */
static int any_pending(const vrt_launch *L)
{
	for (unsigned s = 1; s <= L->nslots; s++)
		if (vrt_pend_has(L->slot_mem[s]))
			return 1;
	return 0;
}

/* Row u of a range with the pages its boxes bx cover marked in their
 * (boxed) slots, whose rows are empty: what pending.c copies in and
 * deliver.c out, a page at a time. u itself where there are no boxes;
 * NULL when out of memory. The one scratch row: valid until the next
 * call. */
static const unsigned char *pages_of(paged *P, const unsigned char *u, const vrt_box2d *bx)
{
	const vrt_layout *lay = &P->lay;
	unsigned s;
	for (s = 1; s <= lay->nslots && !bx[s].rows; s++)
		;
	if (s > lay->nslots)
		return u;
	if (!vrt_paged_scratch_row(&P->boxrow, &P->boxrow_cap, lay->row_bytes))
		return NULL;
	memcpy(P->boxrow, u, lay->row_bytes);
	for (s = 1; s <= lay->nslots; s++) {
		unsigned char *r = P->boxrow + lay->slot_off[s];
		for (unsigned long long k = 0; k < bx[s].rows && bx[s].width; k++) {
			unsigned long long a = bx[s].origin + k * bx[s].pitch, b = a + bx[s].width - 1;
			for (unsigned long long p = a >> lay->page_shift;
			     p <= b >> lay->page_shift && p < lay->slot_pages[s]; p++)
				r[p] = 1;
		}
	}
	return P->boxrow;
}

/* What range i's executor did, for the planner's check and dump
 * (planrec.c), in P->recrows: the pages it writes whole, with nothing
 * read first (pages_to_fill left them out of F->fill), ... */
static void record_whole(paged *P, const fset *F)
{
	size_t rb = P->lay.row_bytes;
	if (!P->rec)
		return;
	if (!vrt_paged_scratch_row(&P->recrows, &P->recrows_cap, 3 * rb)) {
		vrt_planrec_end(P->rec, 0); /* out of memory: no check */
		P->rec = NULL;
		return;
	}
	memset(P->recrows, 0, 3 * rb);
	for (size_t k = 0; k < rb; k++)
		P->recrows[k] = F->u[k] && !F->fill[k];
}

/* ... the pages it sends from the host (use_kept took the kept ones out
 * of F->fill; `sending`, the slots that send), ... */
static void record_sent(paged *P, const fset *F, uint64_t sending)
{
	if (!P->rec)
		return; /* nor recrows: no row past it */
	const vrt_layout *lay = &P->lay;
	unsigned char *sent = P->recrows + lay->row_bytes;
	for (unsigned s = 1; s <= lay->nslots; s++)
		for (size_t p = 0; (sending >> s & 1) && p < lay->slot_pages[s]; p++)
			sent[lay->slot_off[s] + p] = F->fill[lay->slot_off[s] + p] != 0;
}

/* ... and where its written pages go (VRT_OUT_*, as goes_home_now). */
static void record_range(const vrt_launch *L, paged *P, const fset *F, size_t i)
{
	const vrt_layout *lay = &P->lay;
	size_t rb = lay->row_bytes;
	if (!P->rec)
		return;
	unsigned char *out = P->recrows + 2 * rb;
	for (unsigned s = 1; s <= lay->nslots; s++) {
		if (!(L->slot_mode[s] & VAST_MODE_W) || !F->fr.count[s] || lay->res_buf[s] ||
		    F->box[s].rows)
			continue;
		unsigned kind = F->fr.held == s ? VRT_OUT_HELD
		                : vrt_paged_goes_home_now(L, P, F, s) ? VRT_OUT_HOME
		                : VRT_OUT_DIRTY;
		for (size_t p = 0; p < lay->slot_pages[s]; p++)
			out[lay->slot_off[s] + p] = F->u[lay->slot_off[s] + p] ? kind : VRT_OUT_NONE;
	}
	vrt_planrec_range rr = {F->u, P->recrows, P->recrows + rb, out, F->in_bytes,
	                        F->out_bytes};
	vrt_planrec_put(P->rec, i, &rr);
}

/* F->lo and F->hi of its range's row F->u, once a range: one walk of
 * the row a word at a time. */
static void mark_extents(const vrt_layout *lay, fset *F)
{
	for (unsigned s = 1; s <= lay->nslots; s++)
		vrt_pas_extent(F->u + lay->slot_off[s], lay->slot_pages[s], &F->lo[s], &F->hi[s]);
}

/* Plans range i on its frame set (free: its previous range finished),
 * gathers and enqueues its H2D, kernel (a fused launch's two) and D2H. */
static cl_int start_range(vrt_launch *L, paged *P, size_t i)
{
	const vrt_range *R = vrt_paged_range_at(P, i);
	vrt_layout *lay = &P->lay;
	size_t rb = lay->row_bytes;
	fset *F = &P->set[i % P->nsets];
	queues *qs = P->qs;
	cl_int err;

	double t0 = vrt_trace_now();
	memcpy(F->u, P->unions + (size_t)(R - P->ranges) * rb, rb);
	mark_extents(lay, F);
	if (vrt_paged_range_boxes(P, R, F->box))
		return CL_OUT_OF_RESOURCES;
	const unsigned char *pages = pages_of(P, F->u, F->box);
	if (!pages)
		return CL_OUT_OF_HOST_MEMORY;
	vrt_deliver_start(L, lay, P->deliver, i, pages);
	/* A whole write left pending for this launch: its pages of the
	 * range reach the host copy before anything reads them (pending.c). */
	vrt_pend_fill_row(L, lay, pages);
	/* The next range's pages of them start their copy now, on a thread,
	 * while this one is planned, sent and launched and the next one's
	 * plan goes on (pending.c): begun after this range's enqueue, the
	 * copies idled for its host work. */
	if (i + 1 < P->nranges && any_pending(L)) {
		const vrt_range *N = vrt_paged_range_at(P, i + 1);
		vrt_box2d nbx[VAST_MAX_SLOTS + 1];
		if (vrt_paged_range_boxes(P, N, nbx) ||
		    !(pages = pages_of(P, P->unions + (size_t)(N - P->ranges) * rb, nbx)))
			return CL_OUT_OF_RESOURCES;
		vrt_pend_prefetch(L, lay, pages);
	}
	/* The plan's table of the range (plan_tables), else built here:
	 * place_frames laid out every range, this one fits. */
	size_t r = (size_t)(R - P->ranges);
	F->plan_r = r;
	if (P->tables.lpts) {
		F->lpt = P->tables.lpts + r * P->tables.lpt_words;
		F->fr = P->tables.frames[r];
	} else {
		if (vrt_lpt_build(lay, F->u, F->box, P->per_buf, F->lpt_own, &F->fr))
			return CL_OUT_OF_RESOURCES;
		F->lpt = F->lpt_own;
	}
	F->lptarg = P->lpt_dev ? P->lpt_dev[r] : F->lptbuf;
	if ((err = vrt_paged_stage_layout(L, P, F)) != CL_SUCCESS)
		return err;
	double t1 = vrt_trace_now();
	vrt_trace_host("plan", L->k->name, t0, t1, (long)i, 0);

	/* Forwarding copies may still read these frames. */
	if (F->reader) {
		err = vrt_real.clEnqueueBarrierWithWaitList(qs->in, 1, &F->reader, NULL);
		vrt_real.clReleaseEvent(F->reader);
		F->reader = NULL;
		if (err)
			return err;
	}
	size_t g0 = R->first_row * P->wpp;
	size_t g1 = (R->last_row + 1) * P->wpp;
	if (g1 > L->groups)
		g1 = L->groups;
	if ((err = vrt_paged_pages_to_fill(L, P, F, r, g0, g1)) != CL_SUCCESS)
		return err;
	record_whole(P, F);
	double tk = vrt_trace_now();
	err = vrt_paged_use_kept(L, P, i, F);
	vrt_trace_host("kept", L->k->name, tk, vrt_trace_now(), (long)i, 0);
	if (err != CL_SUCCESS)
		return err;
	/* Frames in: every touched page of every slot, except read-only
	 * slots already in place from the set's previous range and pages
	 * the range writes whole. */
	F->in_bytes = F->out_bytes = 0;
	double tm = vrt_trace_now();
	/* Slots through the ring last, with the others' straight transfers
	 * held back to go between its chunks (hold_piece). */
	uint64_t sending = 0, ringed = 0;
	for (unsigned s = 1; s <= lay->nslots; s++)
		if (!F->box[s].rows && vrt_paged_sends_in(L, P, F, s)) {
			sending |= (uint64_t)1 << s;
			ringed |= (uint64_t)vrt_paged_in_by_ring(L, P, F, s) << s;
		}
	record_sent(P, F, sending);
	P->hold_back = ringed != 0;
	P->nheld = P->held_next = P->held_sent = 0;
	P->held_bytes = 0;
	for (int pass = 0; pass <= P->hold_back; pass++)
	for (unsigned s = 1; s <= lay->nslots; s++) {
		if (P->hold_back && (int)(ringed >> s & 1) != pass)
			continue;
		if (F->box[s].rows) {
			if ((err = vrt_paged_move_box(L, P, i, F, s, 0)) != CL_SUCCESS)
				return err;
			continue;
		}
		if (!(sending >> s & 1))
			continue;
		if ((F->fr.held == s && (err = vrt_paged_hold_in(P)) != CL_SUCCESS) ||
		    (err = vrt_paged_move_frames(L, P, F, s, 0)) != CL_SUCCESS)
			return err;
	}
	P->hold_back = 0;
	if ((err = vrt_paged_send_held(P, qs->in, F->in, SIZE_MAX)) != CL_SUCCESS)
		return err;
	if (P->held_bytes)
		vrt_log(VRT_LOG_DEBUG, "kernel '%s' range %zu: %llu bytes from pinned memory sent between the ring's chunks",
		        L->k->name, i, P->held_bytes);
	vrt_trace_host("move", L->k->name, tm, vrt_trace_now(), (long)i, F->in_bytes);
	if ((err = vrt_paged_send_lpt_and_fault(P, F)) != CL_SUCCESS)
		return err;
	L->st->h2d += F->in_bytes;
	double t2 = vrt_trace_now();
	vrt_trace_host("gather", L->k->name, t1, t2, (long)i, F->in_bytes);
	/* Flushed only when something went in (5 us of the host's on NVIDIA
	 * otherwise). */
	if ((F->in[0] && (err = vrt_real.clFlush(qs->in))) || (err = vrt_paged_copy_kept(P, F)) ||
	    (err = vrt_paged_forward(L, P, i, F)))
		return err;
	/* The last range's pages are remember()ed with the launch. */
	if (i + 1 < P->nranges)
		vrt_paged_share_reads(L, P, F);

	cl_kernel kr, kr2 = NULL;
	if ((err = vrt_paged_enqueue_kernel(L, P, F, P->kp, P->ks, g0, g1, 0, &kr)) != CL_SUCCESS ||
	    (P->L2 && (err = vrt_paged_enqueue_kernel(P->L2, P, F, P->kp2, P->ks2, g0, g1, 1,
	                                              &kr2)) != CL_SUCCESS))
		return err;
	L->st->straight += kr == P->ks;
	if ((err = vrt_real.clFlush(qs->run)))
		return err;

	/* From here the host copies may change (direct D2H into pinned host
	 * copies): a failure now must refuse the written buffers (launch.c). */
	L->partial = 1;
	if ((err = vrt_paged_record_held(L, P, F, i)) != CL_SUCCESS ||
	    (err = vrt_paged_record_home(L, P, F)) != CL_SUCCESS)
		return err;
	if (P->last_run)
		vrt_real.clReleaseEvent(P->last_run);
	vrt_real.clRetainEvent(F->run);
	P->last_run = F->run;
	/* The frames stay on the device (framepool.c): in a launch whose
	 * ranges all have frame sets of their own, what they write of a lazy
	 * slot stays there, dirty, until the host needs it (remember,
	 * write_home). Not when ranges reuse sets: a later launch would
	 * refill those frames and first have to fetch their dirty pages,
	 * blocking its pipeline (measured on the H100: jacobi2d at twice its
	 * budget 1.20x -> 1.56x its bound, fdtd2d 2.2x -> 2.8x, the same
	 * bytes moved); written home at once, the reads overlap the next
	 * ranges. */
	F->lazy = P->nranges <= P->nsets;
	int back = 0;
	for (unsigned s = 1; s <= lay->nslots; s++)
		back |= (L->slot_mode[s] & VAST_MODE_W) && F->fr.count[s] && !lay->res_buf[s] &&
		        F->fr.held != s &&
		        !(F->lazy && vrt_paged_lazy_slot(L, s) && !F->box[s].rows);
	/* Out: the fault word first, then the frames of the slots the
	 * kernel may write; the first waits for the kernel, the others
	 * follow it (the queue is in order: after_run). The straight
	 * variant never writes the fault word: its ranges read none back
	 * (measured on the H100: the read costs the host 15 us, a third of
	 * a cached launch), and one with nothing else to bring back sends
	 * nothing out. */
	F->checked = kr != P->ks || (kr2 && kr2 != P->ks2);
	if (F->checked) {
		cl_event e;
		if ((err = vrt_real.clEnqueueReadBuffer(qs->out, F->fault, CL_FALSE, 0,
		                                        sizeof *F->fault_word, F->fault_word, 1,
		                                        &F->run, &e)))
			return err;
		vrt_paged_keep(F->out, e);
	}
	for (unsigned s = 1; s <= lay->nslots && back; s++) {
		if (!(L->slot_mode[s] & VAST_MODE_W) || !F->fr.count[s] || lay->res_buf[s] ||
		    F->fr.held == s)
			continue;
		/* A box always goes home: no kept frame remembers it. */
		if (F->box[s].rows)
			err = vrt_paged_move_box(L, P, i, F, s, 1);
		else if (!(F->lazy && vrt_paged_lazy_slot(L, s)))
			err = vrt_paged_move_frames(L, P, F, s, 1);
		if (err != CL_SUCCESS)
			return err;
	}
	L->st->d2h += F->out_bytes;
	F->range = (long)i;
	record_range(L, P, F, i);
	err = F->out[0] ? vrt_real.clFlush(qs->out) : CL_SUCCESS;
	vrt_trace_host("enqueue", L->k->name, t2, vrt_trace_now(), (long)i, 0);
	return err;
}

/* Range j's commands on set F, for tail.c. */
static vrt_tail_range tail_range(const vrt_launch *L, const paged *P, const fset *F, size_t j)
{
	const vrt_range *R = vrt_paged_range_at(P, j);
	size_t g1 = (R->last_row + 1) * P->wpp;
	vrt_tail_range r = {P->qs->in, P->qs->run, P->qs->out, {F->in[0], F->in[1]}, F->run,
	                    {F->out[0], F->out[1]}, F->run0, F->in_bytes, F->out_bytes, (long)j,
	                    R->first_row * P->wpp, g1 > L->groups ? L->groups : g1,
	                    F->checked ? F->fault_word : NULL, vrt_cfg.stats > 1 || L->share};
	return r;
}

/* Waits for range j's D2H, checks its fault word and scatters its staged
 * written slots into the host copies. Ranges finish in order. */
static cl_int finish_range(vrt_launch *L, paged *P, size_t j)
{
	fset *F = &P->set[j % P->nsets];
	const vrt_layout *lay = &P->lay;
	cl_event done = F->out[0] ? vrt_paged_last_of(F->out) : F->run;
	const char *kn = L->k->name;
	double tw = vrt_trace_now();
	cl_int err = vrt_real.clWaitForEvents(1, &done);
	vrt_trace_host("drain", kn, tw, vrt_trace_now(), (long)j, 0);
	if (err)
		return err;
	vrt_tail_range r = tail_range(L, P, F, j);
	if ((err = vrt_tail_check(kn, &r, L->st, L->group_base)) != CL_SUCCESS)
		return err;
	P->devs.set[j % P->nsets].fault_clear = 1;
	double t0 = vrt_trace_now();
	unsigned long long bytes = 0;
	for (unsigned s = 1; s <= lay->nslots; s++) {
		if (!(L->slot_mode[s] & VAST_MODE_W) || !F->fr.count[s] || P->direct[s] ||
		    lay->res_buf[s] || F->fr.held == s || (F->lazy && vrt_paged_lazy_slot(L, s)))
			continue;
		vrt_span *sp;
		size_t nsp = vrt_paged_staged_spans(P, F, F->u, s, &sp);
		if (nsp == (size_t)-1)
			return CL_OUT_OF_HOST_MEMORY;
		size_t n = F->fr.count[s] << lay->page_shift;
		span_job job = {lay, sp, L->slot_mem[s]->host, F->stage + F->stage_off[s]};
		vrt_parallel(nsp, n, vrt_paged_scatter_share, &job);
		bytes += n;
	}
	vrt_trace_host("scatter", kn, t0, vrt_trace_now(), (long)j, bytes);
	/* The program's reads queued behind the launch take the pages now
	 * home that no later range writes (deliver.c). */
	uint64_t went = 0;
	for (unsigned s = 1; vrt_deliver_follows(L) && s <= lay->nslots; s++)
		if (vrt_paged_goes_home_now(L, P, F, s))
			went |= (uint64_t)1 << s;
	const unsigned char *pages = went ? pages_of(P, F->u, F->box) : F->u;
	if (!pages)
		return CL_OUT_OF_HOST_MEMORY;
	if (went)
		vrt_deliver_finish(L, lay, went, j, pages);
	memcpy(F->prev_u, F->u, lay->row_bytes);
	memcpy(F->prev_lo, F->lo, sizeof F->lo);
	memcpy(F->prev_hi, F->hi, sizeof F->hi);
	F->prev_fr = F->fr;
	F->used = 1;
	F->range = -1;
	vrt_paged_drop_events(F);
	P->done = j + 1;
	return CL_SUCCESS;
}

/* The ranges still in flight at the end of the launch may finish after
 * it returns (tail.c) when nothing of theirs is left for the host to
 * do: they send nothing home (their written slots are lazy), the
 * executor allows it, and the launch is a whole one. */
static int may_defer(const vrt_launch *L, const paged *P)
{
	if (!L->may_defer || L->share)
		return 0;
	for (size_t j = P->done; j < P->nranges; j++)
		if (P->set[j % P->nsets].out_bytes)
			return 0;
	return 1;
}

/* Hands the ranges in flight to the launch's tail: their events, and
 * every set's frames marked busy until the launch's last kernel ends, so
 * that the next launch's H2D into them waits (after_busy; its kernels
 * and D2H follow on the same in-order queues). Not only the sets of the
 * ranges in flight: device copies out of any set (forward, copy_kept)
 * run on the kernel queue, before that last kernel. The host memory
 * their H2D read (the LPT, staging) goes with the launch: those commands
 * must be done.
 * Their fault words are taken as clear from now, as if read back so;
 * a range that faulted refuses its launch and every one in flight
 * after it, and drops the kept sets (queue.c, tail.c). */
static cl_int defer_ranges(vrt_launch *L, paged *P)
{
	for (size_t j = P->done; j < P->nranges; j++) {
		fset *F = &P->set[j % P->nsets];
		cl_event in = vrt_paged_last_of(F->in);
		cl_int err = in ? vrt_real.clWaitForEvents(1, &in) : CL_SUCCESS;
		if (err != CL_SUCCESS)
			return err;
	}
	cl_event last = P->set[(P->nranges - 1) % P->nsets].run;
	/* The resident buffers' next commands, on their own queues, follow
	 * the last kernel (the kernel queue is in order: every kernel). */
	for (unsigned i = 0; i < P->nres; i++) {
		cl_int err = vrt_real.clEnqueueBarrierWithWaitList(P->res[i]->dev_queue, 1, &last, NULL);
		if (err != CL_SUCCESS)
			return err;
	}
	for (unsigned s = 0; s < P->nsets; s++) {
		vrt_devset *ds = &P->devs.set[s];
		if (ds->busy)
			vrt_real.clReleaseEvent(ds->busy);
		ds->busy = last;
		vrt_real.clRetainEvent(last);
	}
	for (size_t j = P->done; j < P->nranges; j++) {
		fset *F = &P->set[j % P->nsets];
		vrt_devset *ds = &P->devs.set[j % P->nsets];
		P->tail->r[j % P->nsets] = tail_range(L, P, F, j);
		if (!F->out[0]) {
			if (ds->unread)
				vrt_real.clReleaseEvent(ds->unread);
			ds->unread = F->run;
			vrt_real.clRetainEvent(ds->unread);
		}
		ds->fault_clear = 1; /* sent as 0 before, or read so: a straight kernel never writes it */
		/* the tail owns them now */
		memset(F->in, 0, sizeof F->in);
		memset(F->out, 0, sizeof F->out);
		F->run = F->run0 = NULL;
		F->range = -1;
	}
	P->tail->n = P->nsets;
	P->done = P->nranges;
	L->tail = P->tail;
	P->tail = NULL;
	return CL_SUCCESS;
}

/* Plans the launch and makes its frame sets. A device out of memory
 * (CL_MEM_OBJECT_ALLOCATION_FAILURE, or CL_OUT_OF_RESOURCES) before any
 * range ran costs a quarter of the budget, remembered for the device,
 * and a new plan: the program does not fail because the device holds
 * less than it reports. */
static cl_int plan_and_make_sets(vrt_launch *L, paged *P)
{
	for (;;) {
		cl_int err = vrt_paged_find_or_make_plan(L, P);
		if (err != CL_SUCCESS)
			return err;
		/* The inspector may have placed index buffers on the device;
		 * the frames need that room. They are clean: eviction is free.
		 * The buffers kept whole go (or stay) there. */
		if ((err = vrt_room_for_paging(L, P->res, P->nres, L->budget)) != CL_SUCCESS ||
		    (err = vrt_paged_place_resident(L, P)) != CL_SUCCESS)
			return err;
		size_t bufs = 0;
		for (unsigned b = 0; b < VAST_FRAME_BUFS; b++)
			bufs += P->buf_frames[b] != 0;
		vrt_log(VRT_LOG_INFO, "kernel '%s': %zu ranges, %u frame sets of %zu buffers, %zu groups per PAS row, page %u bytes",
		        L->k->name, P->nranges, P->nsets, bufs, P->wpp, 1u << P->lay.page_shift);
		double t0 = vrt_now_ms();
		vrt_paged_choose_direct(L, P);
		vrt_trace_host("direct", L->k->name, t0, vrt_now_ms(), -1, 0);
		err = vrt_paged_make_sets(L, P);
		if (err == CL_SUCCESS && (err = vrt_paged_plan_tables(L, P)) == CL_SUCCESS) {
			vrt_paged_keep_plan(L, P);
			vrt_paged_tables_on_device(L, P);
		}
		vrt_trace_host("setup", L->k->name, t0, vrt_now_ms(), -1, 0);
		if (err == CL_SUCCESS && !P->device_bytes)
			vrt_log(VRT_LOG_INFO, "kernel '%s': every frame buffer kept from an earlier launch",
			        L->k->name);
		/* With buffers kept whole, vrt_paged_run pages them all instead. */
		if ((err != CL_MEM_OBJECT_ALLOCATION_FAILURE && err != CL_OUT_OF_RESOURCES) || P->nres ||
		    P->hold_bytes)
			return err;
		vrt_paged_drop_sets(P, L, 0);
		/* The device's budget is the frames' and what stayed beside
		 * them: three quarters of it, and the next room_for_paging
		 * decides again what stays. */
		unsigned long long have = L->budget + L->beside, less = have - have / 4;
		vrt_log(VRT_LOG_INFO, "kernel '%s': the device is out of memory under a budget of %llu bytes; planning again with %llu",
		        L->k->name, have, less);
		vrt_budget_shrink(L->dev, less);
		L->budget = less;
		L->beside = 0;
	}
}

/* The planner's input for P's launch (plan/moves.c): the slots' modes,
 * what the kept frames may hold of them, and in state (a row) where each
 * page lies before the first range, as use_kept would find it (a kept
 * frame's or the hold's copy where the pool's location holds the page,
 * dirty where it alone does). */
static void move_input(const vrt_launch *L, const paged *P, vrt_move_input *in,
                       unsigned char *state)
{
	const vrt_layout *lay = &P->lay;
	memset(in, 0, sizeof *in);
	in->lay = lay;
	in->nranges = P->nranges;
	in->nsets = P->nsets;
	in->state = state;
	for (unsigned s = 1; s <= lay->nslots; s++) {
		uint64_t bit = (uint64_t)1 << s;
		in->mode[s] = L->slot_mode[s];
		in->resides |= vrt_paged_may_reside(L, s) ? bit : 0;
		in->lazy |= vrt_paged_lazy_slot(L, s) ? bit : 0;
		in->shared |= !(L->slot_mode[s] & VAST_MODE_W) && (P->shared & bit) ? bit : 0;
	}
	for (unsigned s = 1; (P->devs.res.n || P->devs.held) && s <= lay->nslots; s++) {
		const vrt_mem *m = L->slot_mem[s];
		int l = P->loc[s];
		if (l < 0 || !(in->resides >> s & 1))
			continue;
		/* the directory's answers first, in the slot's place of the
		 * row, each replaced by where the page lies */
		vrt_pool_pages(m, l, 0, lay->slot_pages[s], lay->page_shift, state + lay->slot_off[s]);
		for (size_t p = 0; p < lay->slot_pages[s]; p++) {
			unsigned char *at = state + lay->slot_off[s] + p, pool = *at;
			const vrt_resident *e;
			*at = 0;
			if (!(pool & VRT_DIR_PAGE_HELD))
				continue;
			if (P->devs.hold && vrt_hold_has(&P->devs, m->serial, p))
				*at = VRT_AT_HOLD;
			else if ((e = vrt_res_find(&P->devs.res, m->serial, p)) && e->set < P->nsets &&
			         P->set[e->set].frames[e->buf])
				*at = pool & VRT_DIR_PAGE_SOLE ? VRT_AT_DIRTY : VRT_AT_KEPT;
		}
	}
}

/* Starts the record of the launch's ranges the planner is checked
 * against (VAST_PLAN_CHECK) or dumped with (VAST_PLAN_DUMP). */
static void record_start(const vrt_launch *L, paged *P)
{
	P->rec = NULL;
	if (!vrt_cfg.plan_check && !vrt_cfg.plan_dump)
		return;
	unsigned char *state = vrt_calloc(1, P->lay.row_bytes);
	vrt_move_input in;
	if (!state)
		return;
	move_input(L, P, &in, state);
	P->rec = vrt_planrec_new(&in, L->k->name);
	vrt_free(state);
}

/* Runs every range through the pipeline: range i waits for its set,
 * which range i - nsets held. */
static cl_int run_ranges(vrt_launch *L, paged *P)
{
	cl_int err = CL_SUCCESS;
	/* A long launch's line on a terminal (progress.c); not of a split
	 * launch's shares, which run side by side. */
	vrt_progress pr;
	vrt_progress_begin(&pr, L->k->name, P->nranges, L->share ? NULL : L->st);
	record_start(L, P);
	for (size_t i = 0; i < P->nranges && !err; i++) {
		while (!err && P->done + P->nsets <= i) {
			err = finish_range(L, P, P->done);
			vrt_progress_step(&pr, P->done);
		}
		if (!err)
			err = start_range(L, P, i);
	}
	cl_int checked = vrt_planrec_end(P->rec, !err);
	P->rec = NULL;
	if (!err)
		err = checked;
	if (!err && !L->share) {
		double t0 = vrt_now_ms();
		vrt_paged_remember(L, P, 0);
		vrt_trace_host("remember", L->k->name, t0, vrt_now_ms(), -1, 0);
	}
	while (!err && P->done < P->nranges) {
		if (may_defer(L, P)) {
			err = defer_ranges(L, P);
			break;
		}
		err = finish_range(L, P, P->done);
		vrt_progress_step(&pr, P->done);
	}
	vrt_progress_end(&pr);
	return err;
}

/* One paged launch; `keep`: some buffers may stay whole on the device
 * (keep_resident). L2 (NULL: none): a fused launch's second kernel, mode1
 * the first's own slot modes (vrt_paged_run_fused). */
static cl_int paged_run(vrt_launch *L, int keep, vrt_launch *L2, const unsigned *mode1,
                        struct paged *pre)
{
	vrt_kernel *k = L->k;
	double t0 = vrt_now_ms(), t1 = 0;
	paged *P = vrt_calloc(1, sizeof *P);
	cl_int err;
	if (!P || !(P->tail = vrt_calloc(1, sizeof *P->tail))) {
		vrt_free(P);
		return CL_OUT_OF_HOST_MEMORY;
	}
	P->L2 = L2;
	P->pre = pre;
	for (unsigned s = 0; s <= VAST_MAX_SLOTS; s++)
		P->loc[s] = -1;
	if (L2)
		memcpy(P->mode1, mode1, sizeof P->mode1);

	/* The paged path works from the host copies, and its frames need
	 * the budget: every slot gets one, and every resident buffer comes
	 * home first, but those it keeps whole there. */
	P->full_budget = L->budget;
	memset(L->res_buf, 0, sizeof L->res_buf);
	L->hold_slot = 0;
	L->hold_bytes = 0;
	L->beside = 0;
	int keeps = keep && vrt_paged_keeps_allowed(L);
	if (keeps)
		vrt_paged_keep_resident(L, P);
	vrt_paged_choose_hold(L, P, keeps);
	for (unsigned s = 1; keeps && s <= L->nslots; s++)
		if (L->slot_mem[s]->paged_uses < 2 && vrt_paged_first_slot_of(L, s))
			L->slot_mem[s]->paged_uses++;
	for (unsigned s = 1; s <= L->nslots; s++)
		if ((err = vrt_mem_host_copy(L->slot_mem[s])) != CL_SUCCESS)
			goto out;
	/* A fused pair's plan was made (fused_plan) and kept for the whole
	 * budget: nothing stays beside its frames. */
	if ((err = vrt_room_for_paging(L, P->res, P->nres,
	                               L2 ? L->budget : vrt_paged_frames_least(L))) !=
	    CL_SUCCESS)
		goto out;
	vrt_paged_first_layout(L, P);

	if ((err = vrt_kernel_variant(k, "paged", &P->kp)) != CL_SUCCESS)
		goto out;
	if (vrt_straight_may_run(L) && (err = vrt_kernel_variant(k, "straight", &P->ks)) != CL_SUCCESS)
		goto out;
	if (L2 && ((err = vrt_kernel_variant(L2->k, "paged", &P->kp2)) != CL_SUCCESS ||
	           (vrt_straight_may_run(L2) &&
	            (err = vrt_kernel_variant(L2->k, "straight", &P->ks2)) != CL_SUCCESS)))
		goto out;
	if (!(P->qs = vrt_paged_queues_for(L->ctx, L->dev, &err)))
		goto out;
	vrt_trace_host("prepare", k->name, t0, vrt_now_ms(), -1, 0);
	if ((err = plan_and_make_sets(L, P)) != CL_SUCCESS)
		goto out;
	/* A split launch's shares copy host copies of their own: pending
	 * writes of theirs are copied whole first (pending.c). */
	for (unsigned s = 1; L->share && s <= L->nslots; s++)
		vrt_pend_settle(L->slot_mem[s]);
	if ((err = vrt_paged_boxes_home(L, P)) != CL_SUCCESS)
		goto out;
	/* The slots whose reads queued behind may be filled range by range
	 * (deliver.c): written, paged. */
	for (unsigned s = 1; !L->share && s <= L->nslots; s++)
		if ((L->slot_mode[s] & VAST_MODE_W) && !P->lay.res_buf[s])
			P->deliver |= (uint64_t)1 << s;
	if ((err = vrt_paged_set_launch_args(L, P, P->kp, VAST_HAS_PAGED)) != CL_SUCCESS ||
	    (P->ks &&
	     (err = vrt_paged_set_launch_args(L, P, P->ks, VAST_HAS_STRAIGHT)) != CL_SUCCESS) ||
	    (L2 && (err = vrt_paged_set_launch_args(L2, P, P->kp2, VAST_HAS_PAGED)) != CL_SUCCESS) ||
	    (P->ks2 &&
	     (err = vrt_paged_set_launch_args(L2, P, P->ks2, VAST_HAS_STRAIGHT)) != CL_SUCCESS))
		goto out;
	err = run_ranges(L, P);
	if (err == CL_SUCCESS && L2) {
		L2->st->ranges += P->nranges;
		L2->st->fused++;
	}
	/* Written slots are current on the host, or in the last ranges'
	 * frames (lazy slots, remember), as the directory says (record_home,
	 * record_held, remember), and changed: new versions, so kept plans
	 * that read them are stale (plans.c). A split launch's shares leave
	 * that to it (launch.c). */
	for (unsigned s = 1; !L->share && s <= L->nslots; s++) {
		if ((L->slot_mode[s] & VAST_MODE_W) && L->res_buf[s])
			vrt_mem_dev_written(L->slot_mem[s]);
		else if (L->slot_mode[s] & VAST_MODE_W)
			vrt_mem_changed(L->slot_mem[s]);
	}
	t1 = vrt_now_ms();
	if (err == CL_SUCCESS && !L->share)
		vrt_paged_remember(L, P, 1);
out:
	if (P->qs && err != CL_SUCCESS) {
		/* After a failure commands may still be queued: let them drain
		 * before their buffers go. After success none is: each range's
		 * last D2H was waited for, and it follows its kernel, which
		 * follows the range's H2D and device copies (finish_range). */
		vrt_real.clFinish(P->qs->in);
		vrt_real.clFinish(P->qs->run);
		vrt_real.clFinish(P->qs->out);
	}
	/* Kept only after a launch that went well: after a device error its
	 * buffers may be what failed. */
	vrt_paged_drop_sets(P, L, err == CL_SUCCESS);
	vrt_paged_drop_tables(P);
	if (t1 > 0)
		vrt_trace_host("remember", k->name, t1, vrt_now_ms(), -1, 0);
	vrt_fp_plan_free(P->fp);
	vrt_fp_plan_free(P->fp2);
	if (P->pre)
		vrt_paged_drop_plan(P->pre);
	vrt_free(P->written);
	vrt_free(P->gaps);
	vrt_free(P->whole);
	vrt_free(P->held);
	vrt_free(P->boxrow);
	vrt_free(P->poolrow);
	vrt_free(P->recrows);
	vrt_free(P->copies);
	vrt_free(P->forgot);
	vrt_free(P->forgetrow);
	vrt_free(P->spans);
	vrt_free(P->rects);
	vrt_free(P->tail); /* unless the launch's (defer_ranges) */
	if (P->last_run)
		vrt_real.clReleaseEvent(P->last_run);
	if (!P->cached) {
		vrt_free(P->rows);
		vrt_free(P->ranges);
		vrt_free(P->unions);
	}
	L->budget = P->full_budget;
	L->beside = 0;
	vrt_free(P);
	return err;
}

/* The least launch L must move across the link, on its own: of its
 * buffers' bytes F, those the budget B cannot hold must come in (F - B),
 * and as many of them go back as it writes (at most W): what h2d + d2h
 * compare with (VAST_STATS compulsory=; bench/iterative's bound). A
 * launch after it may find more on the device: over a sequence of
 * launches the sum is a bound the schedule may beat. */
static unsigned long long compulsory(const vrt_launch *L)
{
	unsigned long long f = 0, w = 0;
	for (unsigned s = 1; s <= L->nslots; s++) {
		f += L->slot_mem[s]->size;
		if (L->slot_mode[s] & VAST_MODE_W)
			w += L->slot_mem[s]->size;
	}
	unsigned long long in = f > L->budget ? f - L->budget : 0;
	return in + (w < in ? w : in);
}

/* L keeps no buffer whole and has no hold: how a launch leaves them,
 * and how a fused launch begins. */
static void keep_nothing(vrt_launch *L)
{
	memset(L->res_buf, 0, sizeof L->res_buf);
	L->hold_slot = 0;
	L->hold_bytes = 0;
}

cl_int vrt_paged_run(vrt_launch *L)
{
	if (!L->share)
		L->st->compulsory += compulsory(L);
	vrt_deliver_end(L, 0); /* an earlier try's */
	cl_int err = paged_run(L, 1, NULL, NULL, NULL);
	int kept = L->hold_bytes != 0;
	for (unsigned s = 1; s <= L->nslots; s++)
		kept |= L->res_buf[s];
	/* What the kept buffers left was too little (a work-group's pages
	 * do not fit it, or the device ran out of memory) before any range
	 * changed a byte: page them all. */
	if (err != CL_SUCCESS && kept && !L->partial && !L->no_retry) {
		vrt_log(VRT_LOG_INFO, "kernel '%s': paging every buffer after %s", L->k->name,
		        vrt_cl_error_name(err));
		L->k->keep_refused = (struct vrt_keep_hint){L->groups, L->budget};
		vrt_deliver_end(L, 0);
		err = paged_run(L, 0, NULL, NULL, NULL);
	}
	vrt_deliver_end(L, err == CL_SUCCESS);
	keep_nothing(L);
	return err;
}

cl_int vrt_paged_run_fused(vrt_launch *L, vrt_launch *L2, const unsigned *mode1)
{
	/* Nothing kept whole, no hold: the two kernels' pages share the frames. */
	keep_nothing(L);
	/* A pair like one fused before runs the plan it kept (plans.c), which
	 * passed fused_exact then: the key holds everything that answer
	 * depends on. Otherwise the check plans it. A pair like one refused
	 * before is refused at once: the same answer, from the same key
	 * (fdtd2d's pairs on the H200, never fused, planned 16 ms a step
	 * to be refused). */
	paged *plan = NULL;
	cl_int err = CL_SUCCESS;
	const vrt_plan *kept = L->share ? NULL : vrt_plan_find_fused(L, L2, mode1);
	if (kept && kept->refused) {
		vrt_log(VRT_LOG_DEBUG, "kernel '%s': not fused with '%s': refused before", L->k->name,
		        L2->k->name);
		return VRT_NOT_FUSED;
	}
	if (!kept)
		err = vrt_paged_fused_plan(L, L2, mode1, &plan);
	if (err == VRT_NOT_FUSED && !L->share) {
		vrt_plan no = {.refused = 1};
		vrt_plan_keep_fused(L, L2, mode1, &no); /* out of memory: planned again */
	}
	if (err != CL_SUCCESS)
		return err;
	L->st->compulsory += compulsory(L);
	vrt_deliver_end(L, 0);
	err = paged_run(L, 0, L2, mode1, plan);
	vrt_deliver_end(L, err == CL_SUCCESS);
	return err;
}
