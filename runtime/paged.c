/* SPDX-License-Identifier: MIT */
/*
 * paged.c - the paged path of a launch (DESIGN §3, VAST §4).
 *
 *   inspect -> PAS rows -> reduction (Algorithm 1) -> per range:
 *   LPT, gather frames, transfer, vast_paged_K, fault check, read back
 *   the written slots' frames, scatter into the host copies.
 *
 * Ranges run in order, so a page written by several ranges is forwarded
 * through the host copy (the later range's frame is filled after the
 * earlier range was scattered). Frames of a slot are one contiguous span
 * of the frame buffer, so each slot moves with one transfer, staged
 * through one pinned buffer (CL_MEM_ALLOC_HOST_PTR, mapped once). A
 * read-only slot whose pages and frames did not change since the
 * previous range is not sent again. A fault in any range means the
 * inspector missed a page: the launch fails rather than give a wrong
 * result.
 */
#include <string.h>

#include "vrt.h"

/* Default page: 64 KiB, where copies reach a useful fraction of the link
 * (DESIGN §3: 17.6 GB/s vs 1.5 GB/s at 4 KiB) while runs of pages still
 * coalesce into larger spans. Small budgets get smaller pages (at least
 * 64 frames, at least 4 KiB) so a work-group's pages fit; so does a
 * VAST_PAGE_SIZE too large for the budget (a page larger than the budget
 * would refuse every launch), with one warning. */
static unsigned choose_shift(unsigned long long budget)
{
	static int warned;
	unsigned sh = vrt_cfg.page_shift ? vrt_cfg.page_shift : 16;
	unsigned floor = sh < 12 ? sh : 12;
	while (sh > floor && (budget >> sh) < 64)
		sh--;
	if (vrt_cfg.page_shift && sh != vrt_cfg.page_shift && !warned) {
		warned = 1;
		vrt_log(VRT_LOG_WARN, "VAST_PAGE_SIZE of %llu bytes leaves fewer than 64 pages in a budget of %llu bytes; using %llu-byte pages",
		        1ull << vrt_cfg.page_shift, budget, 1ull << sh);
	}
	return sh;
}

typedef struct paged {
	vrt_layout lay;
	size_t wpp, nrows;
	unsigned char *rows, *u, *prev_u;
	vrt_range *ranges;
	size_t nranges;
	uint32_t *lpt;
	size_t slot_first[VAST_MAX_SLOTS + 1], slot_frames[VAST_MAX_SLOTS + 1];
	size_t prev_first[VAST_MAX_SLOTS + 1];
	cl_mem frames, lptbuf, fault;
} paged;

static cl_int inspect_and_reduce(vrt_launch *L, paged *P)
{
	vrt_kernel *k = L->k;
	size_t G = L->groups;
	P->wpp = G > 512 ? (G + 511) / 512 : 1;
	for (;;) {
		P->nrows = (G + P->wpp - 1) / P->wpp;
		vrt_free(P->rows);
		P->rows = vrt_malloc(P->nrows * P->lay.row_bytes);
		if (!P->rows)
			return CL_OUT_OF_HOST_MEMORY;
		double t0 = vrt_now_ms();
		cl_int err = vrt_inspect_run(L, &P->lay, P->wpp, P->rows, P->nrows);
		L->st->inspect_ms += vrt_now_ms() - t0;
		if (err != CL_SUCCESS)
			return err;
		vrt_pas_normalize(P->rows, P->nrows * P->lay.row_bytes);
		size_t bad = 0;
		int r = vrt_pas_reduce(&P->lay, P->rows, P->nrows, L->budget, &P->ranges,
		                       &P->nranges, &bad);
		if (r == -2)
			return CL_OUT_OF_HOST_MEMORY;
		if (r == 0)
			return CL_SUCCESS;
		if (P->wpp == 1) {
			size_t lwg = L->lsize[0] * L->lsize[1] * L->lsize[2];
			if (L->local_free && lwg > 1)
				return CL_MEM_OBJECT_ALLOCATION_FAILURE; /* launch.c retries */
			size_t pages = vrt_pas_count(P->rows + bad * P->lay.row_bytes, P->lay.row_bytes);
			vrt_log(VRT_LOG_WARN, "kernel '%s': work-group %zu alone needs %llu bytes of device memory, more than the budget of %llu",
			        k->name, bad, vrt_range_footprint(&P->lay, pages), L->budget);
			return CL_MEM_OBJECT_ALLOCATION_FAILURE;
		}
		/* A row does not fit: inspect again with finer rows. */
		P->wpp = P->wpp / 4 ? P->wpp / 4 : 1;
		vrt_log(VRT_LOG_DEBUG, "kernel '%s': re-inspecting with %zu groups per PAS row",
		        k->name, P->wpp);
	}
}

static cl_int set(cl_kernel k, cl_uint i, size_t n, const void *v)
{
	cl_int err = vrt_real.clSetKernelArg(k, i, n, v);
	if (err != CL_SUCCESS)
		vrt_log(VRT_LOG_WARN, "paged kernel argument %u: %s", i, vrt_cl_error_name(err));
	return err;
}

/* Pinned host copies move span by span, straight between the host copy
 * and the frames, when the spans are large enough for a copy to reach the
 * link's speed (DESIGN §3: 1 MiB pieces 48 GB/s, 64 KiB 17.6 GB/s);
 * everything else is gathered into the pinned staging buffer and moves
 * in one piece. */
#define VRT_DIRECT_SPAN (256u << 10)

static int direct(const vrt_mem *m, const vrt_span *sp, size_t nsp, unsigned sh)
{
	size_t pages = 0;
	for (size_t i = 0; i < nsp; i++)
		pages += sp[i].npages;
	return m->pin.buf && nsp && (pages << sh) / nsp >= VRT_DIRECT_SPAN;
}

/* The staging area for one slot's frames; span frames are made relative
 * to the slot's first frame, where the staging area starts. */
static unsigned char *stage_slot(vrt_launch *L, paged *P, unsigned s, vrt_span *sp, size_t nsp)
{
	for (size_t i = 0; i < nsp; i++)
		sp[i].frame -= P->slot_first[s];
	return vrt_staging(L->ctx, P->slot_frames[s] << P->lay.page_shift);
}

typedef struct span_job {
	const vrt_layout *lay;
	const vrt_span *sp;
	unsigned char *host, *stage;
} span_job;

static void gather_share(void *ctx, size_t begin, size_t end)
{
	span_job *j = ctx;
	for (size_t i = begin; i < end; i++)
		vrt_gather(j->lay, &j->sp[i], j->host, j->stage);
}

static void scatter_share(void *ctx, size_t begin, size_t end)
{
	span_job *j = ctx;
	for (size_t i = begin; i < end; i++)
		vrt_scatter(j->lay, &j->sp[i], j->host, j->stage);
}

/* Moves slot s's frames between its host copy and the device: in (host to
 * frames, before the kernel) or out (frames to host, after it). */
static cl_int move_frames(vrt_launch *L, paged *P, unsigned s, int out)
{
	vrt_layout *lay = &P->lay;
	unsigned sh = lay->page_shift;
	vrt_mem *m = L->slot_mem[s];
	vrt_span *sp;
	cl_int err = CL_SUCCESS;
	size_t nsp = vrt_spans(lay, P->u, P->lpt, s, &sp);
	if (nsp == (size_t)-1)
		return CL_OUT_OF_HOST_MEMORY;
	unsigned long long *count = out ? &L->st->d2h : &L->st->h2d;
	if (direct(m, sp, nsp, sh)) {
		/* Only the buffer's valid bytes: the frames past its end hold
		 * nothing of the program's. */
		for (size_t i = 0; i < nsp && !err; i++) {
			size_t n = vrt_span_valid(lay, &sp[i]);
			unsigned char *h = m->host + (sp[i].page << sh);
			size_t f = sp[i].frame << sh;
			err = out ? vrt_real.clEnqueueReadBuffer(L->q, P->frames, CL_FALSE, f, n, h, 0, NULL, NULL)
			          : vrt_real.clEnqueueWriteBuffer(L->q, P->frames, CL_FALSE, f, n, h, 0, NULL, NULL);
			*count += n;
		}
		vrt_free(sp);
		return err;
	}
	unsigned char *stage = stage_slot(L, P, s, sp, nsp);
	if (!stage) {
		vrt_free(sp);
		return CL_OUT_OF_HOST_MEMORY;
	}
	span_job j = {lay, sp, m->host, stage};
	size_t off = P->slot_first[s] << sh, n = P->slot_frames[s] << sh;
	/* Blocking: the staging area is reused by the next slot. */
	if (out) {
		err = vrt_real.clEnqueueReadBuffer(L->q, P->frames, CL_TRUE, off, n, stage, 0, NULL, NULL);
		if (!err)
			vrt_parallel(nsp, n, scatter_share, &j);
	} else {
		vrt_parallel(nsp, n, gather_share, &j);
		err = vrt_real.clEnqueueWriteBuffer(L->q, P->frames, CL_TRUE, off, n, stage, 0, NULL, NULL);
	}
	*count += n;
	vrt_free(sp);
	return err;
}

static cl_int run_range(vrt_launch *L, paged *P, cl_kernel kp, size_t ri)
{
	const vrt_range *R = &P->ranges[ri];
	vrt_layout *lay = &P->lay;
	size_t rb = lay->row_bytes;
	cl_int err;

	memset(P->u, 0, rb);
	for (size_t r = R->first_row; r <= R->last_row; r++)
		vrt_pas_or(P->u, P->rows + r * rb, rb);
	vrt_lpt_build(lay, P->u, P->lpt, P->slot_first, P->slot_frames);

	/* Frames in: every touched page of every slot, except read-only
	 * slots already in place from the previous range. */
	for (unsigned s = 1; s <= lay->nslots; s++) {
		if (!P->slot_frames[s])
			continue;
		if (ri > 0 && !(L->slot_mode[s] & VAST_MODE_W) &&
		    P->prev_first[s] == P->slot_first[s] &&
		    !memcmp(P->u + lay->slot_off[s], P->prev_u + lay->slot_off[s], lay->slot_pages[s]))
			continue;
		if ((err = move_frames(L, P, s, 0)) != CL_SUCCESS)
			return err;
	}
	cl_uint zero = 0;
	if ((err = vrt_real.clEnqueueWriteBuffer(L->q, P->lptbuf, CL_FALSE, 0, vrt_lpt_bytes(lay),
	                                         P->lpt, 0, NULL, NULL)) ||
	    (err = vrt_real.clEnqueueWriteBuffer(L->q, P->fault, CL_FALSE, 0, sizeof zero, &zero,
	                                         0, NULL, NULL)))
		return err;
	L->st->h2d += vrt_lpt_bytes(lay);
	/* The queue may be out of order: the frames must be in before the
	 * kernel starts, and the kernel done before its fault is read. */
	if ((err = vrt_real.clFinish(L->q)))
		return err;

	size_t g0 = R->first_row * P->wpp;
	size_t g1 = (R->last_row + 1) * P->wpp;
	if (g1 > L->groups)
		g1 = L->groups;
	cl_ulong first = g0;
	if ((err = set(kp, L->k->nargs + 7, sizeof first, &first)))
		return err;
	size_t lwg = L->lsize[0] * L->lsize[1] * L->lsize[2];
	size_t global = (g1 - g0) * lwg;
	double t0 = vrt_now_ms();
	err = vrt_real.clEnqueueNDRangeKernel(L->q, kp, 1, NULL, &global, &lwg, 0, NULL, NULL);
	if (err != CL_SUCCESS) {
		vrt_log(VRT_LOG_WARN, "kernel '%s': launching its paged variant failed: %s",
		        L->k->name, vrt_cl_error_name(err));
		return err;
	}
	if ((err = vrt_real.clFinish(L->q)))
		return err;
	L->st->kernel_ms += vrt_now_ms() - t0;
	cl_uint f = 0;
	if ((err = vrt_real.clEnqueueReadBuffer(L->q, P->fault, CL_TRUE, 0, sizeof f, &f, 0, NULL, NULL)))
		return err;
	if (f) {
		vrt_log(VRT_LOG_WARN, "kernel '%s': range %zu (work-groups %zu..%zu) touched a page its inspector did not mark; refusing the result",
		        L->k->name, ri, g0, g1 - 1);
		return CL_INVALID_OPERATION;
	}

	/* Frames out: the slots the kernel may write, then scatter. */
	for (unsigned s = 1; s <= lay->nslots; s++) {
		if (!(L->slot_mode[s] & VAST_MODE_W) || !P->slot_frames[s])
			continue;
		if ((err = move_frames(L, P, s, 1)) != CL_SUCCESS)
			return err;
	}
	if ((err = vrt_real.clFinish(L->q)))
		return err;
	memcpy(P->prev_u, P->u, rb);
	memcpy(P->prev_first, P->slot_first, sizeof P->prev_first);
	L->st->ranges++;
	return CL_SUCCESS;
}

cl_int vrt_paged_run(vrt_launch *L)
{
	vrt_kernel *k = L->k;
	paged *P = vrt_calloc(1, sizeof *P);
	cl_kernel kp;
	cl_int err;
	if (!P)
		return CL_OUT_OF_HOST_MEMORY;

	/* The paged path works from the host copies, and its frames need
	 * the whole budget: bring every resident buffer home first. */
	if ((err = vrt_mem_evict_all(L->ctx)) != CL_SUCCESS)
		goto out;
	cl_ulong maxalloc = 0;
	vrt_real.clGetDeviceInfo(L->dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof maxalloc, &maxalloc, NULL);
	if (maxalloc && L->budget > maxalloc) {
		/* One frame buffer for now: the budget is capped at the largest
		 * allocation the device allows. */
		L->budget = maxalloc;
	}
	P->lay.nslots = L->nslots;
	P->lay.page_shift = choose_shift(L->budget);
	for (unsigned s = 1; s <= L->nslots; s++)
		P->lay.slot_size[s] = L->slot_mem[s]->size;
	vrt_layout_init(&P->lay);

	if ((err = inspect_and_reduce(L, P)) != CL_SUCCESS)
		goto out;
	/* The inspector may have placed index buffers on the device; the
	 * frames need that room. They are clean: eviction is free. */
	if ((err = vrt_mem_evict_all(L->ctx)) != CL_SUCCESS)
		goto out;
	if ((err = vrt_kernel_variant(k, "paged", &kp)) != CL_SUCCESS)
		goto out;

	size_t maxframes = 1;
	for (size_t i = 0; i < P->nranges; i++)
		if (P->ranges[i].pages + 1 > maxframes)
			maxframes = P->ranges[i].pages + 1;
	vrt_log(VRT_LOG_INFO, "kernel '%s': %zu ranges, %zu groups per PAS row, page %u bytes, %zu frames",
	        k->name, P->nranges, P->wpp, 1u << P->lay.page_shift, maxframes);

	size_t fbytes = maxframes << P->lay.page_shift;
	P->u = vrt_calloc(1, P->lay.row_bytes);
	P->prev_u = vrt_calloc(1, P->lay.row_bytes);
	P->lpt = vrt_malloc(vrt_lpt_bytes(&P->lay));
	if (!P->u || !P->prev_u || !P->lpt) {
		err = CL_OUT_OF_HOST_MEMORY;
		goto out;
	}
	if (!(P->frames = vrt_real.clCreateBuffer(L->ctx, CL_MEM_READ_WRITE, fbytes, NULL, &err)) ||
	    !(P->lptbuf = vrt_real.clCreateBuffer(L->ctx, CL_MEM_READ_ONLY, vrt_lpt_bytes(&P->lay), NULL, &err)) ||
	    !(P->fault = vrt_real.clCreateBuffer(L->ctx, CL_MEM_READ_WRITE, sizeof(cl_uint), NULL, &err)))
		goto out;

	if ((err = vrt_set_user_args(L, kp)) != CL_SUCCESS)
		goto out;
	cl_uint n = k->nargs, shift = P->lay.page_shift;
	cl_ulong4 gs = { { L->gsize[0], L->gsize[1], L->gsize[2], L->dim } };
	cl_ulong4 ls = { { L->lsize[0], L->lsize[1], L->lsize[2], 0 } };
	cl_ulong4 go = { { L->goff[0], L->goff[1], L->goff[2], 0 } };
	if ((err = set(kp, n, sizeof P->frames, &P->frames)) ||
	    (err = set(kp, n + 1, sizeof P->lptbuf, &P->lptbuf)) ||
	    (err = set(kp, n + 2, sizeof P->fault, &P->fault)) ||
	    (err = set(kp, n + 3, sizeof shift, &shift)) || (err = set(kp, n + 4, sizeof gs, &gs)) ||
	    (err = set(kp, n + 5, sizeof ls, &ls)) || (err = set(kp, n + 6, sizeof go, &go)))
		goto out;

	for (size_t i = 0; i < P->nranges && err == CL_SUCCESS; i++)
		err = run_range(L, P, kp, i);
	/* Written slots are current on the host only (the device copies
	 * were evicted above). */
out:
	if (P->frames)
		vrt_real.clFinish(L->q);
	if (P->frames)
		vrt_real.clReleaseMemObject(P->frames);
	if (P->lptbuf)
		vrt_real.clReleaseMemObject(P->lptbuf);
	if (P->fault)
		vrt_real.clReleaseMemObject(P->fault);
	vrt_free(P->rows);
	vrt_free(P->u);
	vrt_free(P->prev_u);
	vrt_free(P->lpt);
	vrt_free(P->ranges);
	vrt_free(P);
	return err;
}
