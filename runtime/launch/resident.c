/* SPDX-License-Identifier: MIT */
/*
 * resident.c - the windows of a split launch run on copies kept on their
 * devices (docs/multi.md, "Resident shares").
 *
 *   plan (pure): each window's pages of each buffer, read or written and
 *   may-write, from the footprint descriptors, at RES_SHIFT, and the
 *   pages two or more windows may write (devmerge.c) ->
 *   refuse what does not fit a device ->
 *   each share's replicas placed, the bytes they lack brought from the
 *   nearest copy (mem/replica.c, mem.c: the memory directory) ->
 *   the shared pages' bytes kept on their destinations (devmerge.c) ->
 *   the straight variant over each window on them, a thread per device ->
 *   the shared pages merged on their destinations (devmerge.c) ->
 *   each window's may-write pages recorded as the newest there, a shared
 *   page on its destination only.
 *
 * Nothing is written home before the launch, nothing after: the host or
 * another device gets the bytes when it needs them (mem.c's mover). A
 * may-write page is recorded whole, which claims its bytes the kernel
 * did not write too: they were brought before the kernel, so they are
 * the current ones, and the bytes other windows wrote in it were merged
 * into it.
 *
 * The straight kernel's tail: each buffer parameter's run is its slot's
 * replica (sbuf) with delta (slot << VAST_VA_SHIFT) + lo, so virtual byte
 * v of the slot lies at sbuf + (v - delta); for a program whose straight
 * kernels translate through the run table (a __constant parameter,
 * docs/generated-kernels.md) an LPT of a header and that table, slot s's
 * run in frame buffer s - 1, so at most VAST_FRAME_BUFS slots.
 *
 * Threads: the caller holds the runtime lock; the threads only enqueue
 * their kernels through vrt_real.* and wait.
 */
#include <string.h>

#include "launch/launch.h"

#define RES_SHIFT VRT_RESIDENT_SHIFT

typedef struct res_slot {
	unsigned char *acc, *wr; /* pages read or written; may-write (NULL: none) */
	size_t lo, hi;           /* bytes its replica needs: the pages of acc */
	size_t room_lo, room_hi; /* a new replica's: [lo, hi) and a margin */
	vrt_replica *rep;
} res_slot;

typedef struct res_share {
	vrt_launch W;            /* L over its window */
	vrt_kernel k;            /* device j > 0: the kernel on its own program */
	cl_kernel ks;
	cl_context ctx;
	cl_command_queue q;
	cl_device_id dev;
	res_slot slot[VAST_MAX_SLOTS + 1];
	cl_mem lpt, fault;
	cl_int err;
	double ms;
	pthread_t tid;
	int threaded;
} res_share;

static size_t npages_of(size_t size)
{
	return size ? ((size - 1) >> RES_SHIFT) + 1 : 0;
}

/* Why L's buffers may not have replicas, or NULL: they must be outside
 * families (a member's bytes are kept coherent through the host copy),
 * not the program's memory lent to the driver, reached only where the
 * host evaluates the addresses. */
static const char *buffers_refusal(const vrt_launch *L)
{
	if (L->nslots > VAST_FRAME_BUFS)
		return "more buffers than a straight kernel has frames";
	for (unsigned s = 1; s <= L->nslots; s++) {
		const vrt_mem *m = L->slot_mem[s];
		if (m->parent || m->nsubs)
			return "a buffer of a sub-buffer family";
		if (m->pin.buf && !m->own_host)
			return "a CL_MEM_USE_HOST_PTR buffer whose memory the driver pinned";
		if (!m->dir)
			return "a buffer that cannot be kept on the devices";
		if (vrt_fp_slot_indirect(L, s) && (L->slot_mode[s] & VAST_MODE_W))
			return "a buffer written at addresses the descriptors do not give";
	}
	return NULL;
}

/* A stencil's launches alternate: a buffer written in one window is read
 * in the next with a halo past it. A new replica has room a
 * ROOM_FRACTION of its window past it each way (none: wide = 0), so the
 * next launch's window fits it rather than making a larger one beside
 * it (both at once may not fit the budget: every launch would then send
 * its buffers home and bring them again). */
#define ROOM_FRACTION 64

static void room(res_slot *rs, size_t size, int wide)
{
	size_t m = wide ? ((rs->hi - rs->lo) / ROOM_FRACTION + (1u << RES_SHIFT) - 1) >> RES_SHIFT
	                      << RES_SHIFT
	                : 0;
	rs->room_lo = rs->lo > m ? rs->lo - m : 0;
	rs->room_hi = size - rs->hi > m ? rs->hi + m : size;
}

/* Share j's pages (decided purely): 1 when every slot's are known, 0
 * when not, -1 out of memory. */
static int plan_share(const vrt_launch *L, res_share *sh)
{
	int oom = 0, ok = 1;
	vrt_fp_plan *P = vrt_fp_plan_new(&sh->W, &oom);
	if (!P)
		return oom ? -1 : 0;
	vrt_layout lay;
	vrt_slots_layout(L, RES_SHIFT, &lay);
	for (unsigned s = 1; s <= L->nslots && ok == 1; s++) {
		res_slot *rs = &sh->slot[s];
		size_t np = lay.slot_pages[s];
		if (!(rs->acc = vrt_calloc(np ? np : 1, 1))) {
			ok = -1;
			break;
		}
		/* A buffer read at addresses from data (spmv's vector): all of
		 * it, on every device (buffers_refusal refuses one written). */
		if (vrt_fp_slot_indirect(L, s)) {
			memset(rs->acc, 1, np);
			ok = 1;
		} else {
			ok = vrt_fp_slot_pages(P, &lay, s, 0, sh->W.groups, rs->acc);
		}
		if (ok == 1 && (L->slot_mode[s] & VAST_MODE_W)) {
			if (!(rs->wr = vrt_malloc(np ? np : 1)))
				ok = -1;
			else
				ok = vrt_fp_may_write(P, s, RES_SHIFT, np, rs->wr);
			for (size_t p = 0; ok == 1 && p < np; p++)
				rs->acc[p] |= rs->wr[p];
		}
		size_t first = np, last = 0;
		for (size_t p = 0; ok == 1 && p < np; p++)
			if (rs->acc[p]) {
				first = first < p ? first : p;
				last = p;
			}
		if (first < np) {
			rs->lo = first << RES_SHIFT;
			rs->hi = (last + 1) << RES_SHIFT;
			if (rs->hi > lay.slot_size[s])
				rs->hi = lay.slot_size[s];
			room(rs, lay.slot_size[s], 1);
		}
	}
	vrt_fp_plan_free(P);
	return ok;
}

/* Whether the replica old on sh's device is kept for slot window rs:
 * it covers the window in sh's context (vrt_mem_replica_place). */
static int kept(const vrt_replica *old, const res_share *sh, const res_slot *rs)
{
	return old->ctx == sh->ctx && old->lo <= rs->lo && rs->hi <= old->hi;
}

/* The bytes share sh asks m's replica on its device to hold for window
 * rs: the window itself where the replica there keeps it (no larger one
 * for the room), else the window with its room. */
static void wanted(const res_share *sh, const vrt_mem *m, const res_slot *rs, size_t *lo,
                   size_t *hi)
{
	const vrt_replica *old = vrt_replica_on(m, sh->dev);
	int keep = old && kept(old, sh, rs);
	*lo = keep ? rs->lo : rs->room_lo;
	*hi = keep ? rs->hi : rs->room_hi;
}

/* Bytes share sh's replicas take on its device once placed: of each
 * slot, the replica it has there where that covers the window (or the
 * window needs none of it), else one of both (a replica only grows,
 * vrt_mem_replica_place) and, while that one fills, the old one beside
 * it. */
static size_t share_bytes(const vrt_launch *L, const res_share *sh)
{
	size_t n = 0, beside = 0;
	for (unsigned s = 1; s <= L->nslots; s++) {
		const res_slot *rs = &sh->slot[s];
		const vrt_replica *old = vrt_replica_on(L->slot_mem[s], sh->dev);
		size_t lo = rs->lo, hi = rs->hi;
		if (old && (hi <= lo || kept(old, sh, rs))) {
			n += old->hi - old->lo;
			continue;
		}
		if (hi <= lo)
			continue;
		wanted(sh, L->slot_mem[s], rs, &lo, &hi);
		if (old) {
			lo = old->lo < lo ? old->lo : lo;
			hi = old->hi > hi ? old->hi : hi;
			if (old->hi - old->lo > beside)
				beside = old->hi - old->lo;
		}
		n += hi - lo;
	}
	return n + beside;
}

/* What the budget of dev counts: the replicas there and, on the launch's
 * own device, the device copies and the frames kept for paged launches. */
static size_t device_bytes(cl_device_id dev, int own)
{
	size_t used = vrt_mem_replica_bytes(NULL, dev, NULL, 0);
	return own ? used + vrt_mem_resident_bytes() + vrt_framepool_bytes() : used;
}

/* Writes home and frees the replicas the launch's buffers have on dev:
 * placed again, they hold the windows alone. */
static cl_int evict_own(const vrt_launch *L, cl_device_id dev)
{
	cl_int err = CL_SUCCESS;
	for (unsigned s = 1; s <= L->nslots && err == CL_SUCCESS; s++) {
		vrt_replica *r = vrt_replica_on(L->slot_mem[s], dev);
		if (r)
			err = vrt_mem_replica_evict(L->slot_mem[s], r);
	}
	return err;
}

/* Room on share j's device for its replicas and `scratch` bytes more:
 * what else takes the budget there goes as the policy chooses
 * (mem/room.c): other buffers' replicas and, on the launch's own device,
 * other buffers' device copies and the frames kept for paged launches;
 * then new replicas of exactly the windows, without room; then the
 * launch's buffers' own replicas there, which windows moved past would
 * grow. 0: no room. */
static int make_room(vrt_launch *L, res_share *sh, int own, size_t scratch, cl_int *err)
{
	vrt_mem *const *slots = (vrt_mem *const *)L->slot_mem + 1;
	unsigned long long budget = vrt_budget(sh->dev, L->footprint);
	vrt_room ask = {.dev = sh->dev, .own = own, .keep = slots, .nkeep = L->nslots,
	                .keep_replicas = 1};
	for (int pass = 0; pass < 4; pass++) {
		size_t used = vrt_mem_replica_bytes(NULL, sh->dev, slots, L->nslots);
		if (own)
			used += vrt_mem_resident_bytes() + vrt_framepool_bytes();
		size_t want = share_bytes(L, sh) + scratch;
		if (used + want <= budget)
			return 1;
		if (pass == 0) {
			/* Short of room after all: the passes below may find it. */
			*err = vrt_room_free(&ask, used + want - budget);
			if (*err == CL_MEM_OBJECT_ALLOCATION_FAILURE)
				*err = CL_SUCCESS;
		} else if (pass == 1) {
			/* New replicas of exactly the windows, no room. */
			for (unsigned s = 1; s <= L->nslots; s++)
				room(&sh->slot[s], L->slot_mem[s]->size, 0);
		} else if (pass == 2) {
			*err = evict_own(L, sh->dev);
		}
		if (*err != CL_SUCCESS)
			return 0;
	}
	return 0;
}

/* The next run of marked pages of a slot of `size` bytes from page *p
 * on: its bytes [*off, *off + *n), the last page's cut at size; *p moves
 * past it. 0: none left. */
static int next_run(const unsigned char *pages, size_t size, size_t *p, size_t *off, size_t *n)
{
	size_t np = npages_of(size), q;
	while (*p < np && !pages[*p])
		++*p;
	if (*p >= np)
		return 0;
	for (q = *p; q < np && pages[q]; q++)
		;
	size_t end = q << RES_SHIFT;
	*off = *p << RES_SHIFT;
	*n = (end < size ? end : size) - *off;
	*p = q;
	return 1;
}

/* The ranges every share's replicas want (vrt_mem_bring_from_host). */
typedef struct wants {
	vrt_bring *b;
	size_t n, cap;
} wants;

static cl_int add_want(wants *w, vrt_mem *m, vrt_replica *r, const unsigned char *pages)
{
	for (size_t p = 0, off, n; next_run(pages, m->size, &p, &off, &n);) {
		if (VRT_GROW(&w->b, &w->cap, w->n + 1))
			return CL_OUT_OF_HOST_MEMORY;
		w->b[w->n++] = (vrt_bring){ m, r, off, n };
	}
	return CL_SUCCESS;
}

static cl_int bring_from_host(const vrt_launch *L, res_share *sh, unsigned n,
                              const size_t *counts)
{
	wants w = { 0 };
	cl_int err = CL_SUCCESS;
	for (unsigned j = 0; j < n && err == CL_SUCCESS; j++)
		for (unsigned s = 1; counts[j] && s <= L->nslots && err == CL_SUCCESS; s++)
			if (sh[j].slot[s].rep)
				err = add_want(&w, L->slot_mem[s], sh[j].slot[s].rep, sh[j].slot[s].acc);
	if (err == CL_SUCCESS && w.n)
		err = vrt_mem_bring_from_host(w.b, w.n);
	vrt_free(w.b);
	return err;
}

/* The LPT the straight kernels of a program with a __constant parameter
 * read runs from: a header, the run table (slot s: its replica's window,
 * which may begin before the share's, in frame buffer s - 1) and an
 * empty box table; no page tables. */
static cl_int make_lpt(const vrt_launch *L, res_share *sh)
{
	unsigned n = L->nslots;
	size_t runs = (VAST_LPT_HEADER(n) + VAST_LPT_ENTRY_WORDS - 1) / VAST_LPT_ENTRY_WORDS *
	              VAST_LPT_ENTRY_WORDS;
	size_t words = runs + 2 * (size_t)n * VAST_LPT_ENTRY_WORDS;
	uint32_t *t = vrt_calloc(words, sizeof *t);
	if (!t)
		return CL_OUT_OF_HOST_MEMORY;
	t[VAST_LPT_NSLOTS] = n;
	t[VAST_LPT_RUNS(n)] = (uint32_t)runs;
	for (unsigned s = 1; s <= n; s++) {
		t[VAST_LPT_TABLE(s)] = (uint32_t)words;
		const vrt_replica *r = sh->slot[s].rep;
		uint64_t e[4] = { r ? r->lo : 0, r ? r->hi - r->lo : 0, 0, s - 1 };
		memcpy(t + runs + (size_t)(s - 1) * VAST_LPT_ENTRY_WORDS, e, sizeof e);
	}
	cl_int err;
	sh->lpt = vrt_real.clCreateBuffer(sh->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
	                                  words * sizeof *t, t, &err);
	vrt_free(t);
	if (!sh->lpt)
		return err;
	cl_uint zero = VAST_FAULT_CLEAR;
	sh->fault = vrt_real.clCreateBuffer(sh->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
	                                    sizeof zero, &zero, &err);
	return sh->fault ? CL_SUCCESS : err;
}

/* The straight kernel's arguments for share sh: the program's, the
 * geometry, the LPT and frames, each buffer parameter's run. */
static cl_int set_args(res_share *sh)
{
	vrt_launch *W = &sh->W;
	cl_int err;
	if ((err = vrt_set_user_args(W, sh->ks)) != CL_SUCCESS)
		return err;
	cl_mem frames[VAST_FRAME_BUFS];
	for (unsigned b = 0; b < VAST_FRAME_BUFS; b++) {
		const res_slot *rs = b + 1 <= W->nslots ? &sh->slot[b + 1] : NULL;
		frames[b] = rs && rs->rep ? rs->rep->buf : sh->fault;
	}
	cl_uint shift = RES_SHIFT;
	cl_ulong first = W->group_base;
	vrt_geometry g;
	vrt_tailargs t = { .frames = frames, .lpt = &sh->lpt, .fault = &sh->fault,
	                   .page_shift = &shift, .first_group = &first };
	vrt_tailargs_geometry(W, &g, &t);
	if ((err = vrt_tailargs_set(sh->ks, W->k->nargs, VAST_HAS_STRAIGHT, &t)) != CL_SUCCESS)
		return err;
	size_t nbuf = 0;
	for (cl_uint i = 0; i < W->k->nargs; i++) {
		unsigned kind = W->k->info->params[i].kind;
		if (kind != VAST_PARAM_GLOBAL && kind != VAST_PARAM_CONSTANT)
			continue;
		unsigned s = W->arg_slot[i];
		const vrt_replica *r = s ? sh->slot[s].rep : NULL;
		cl_mem buf = r ? r->buf : NULL;
		cl_ulong delta = r ? ((cl_ulong)s << VAST_VA_SHIFT) + r->lo : 0;
		vrt_tailargs e = { .sbuf = &buf, .sdelta = &delta, .each_first = nbuf++, .neach = 1 };
		if ((err = vrt_tailargs_set(sh->ks, W->k->nargs, VAST_HAS_STRAIGHT, &e)) != CL_SUCCESS)
			return err;
	}
	return CL_SUCCESS;
}

/* The window's groups as N-D boxes (groupbox.c) with the original local
 * size and a global offset, so the work-items' ids are the device's own,
 * as paged/kargs.c's launch_straight runs them; waited for. */
static void *run_share(void *p)
{
	res_share *sh = p;
	vrt_launch *W = &sh->W;
	double t0 = vrt_now_ms();
	size_t ngrp[3], goff[3], gsize[3];
	for (unsigned d = 0; d < 3; d++)
		ngrp[d] = W->gsize[d] / W->lsize[d];
	vrt_gbox box[5];
	unsigned nb = vrt_group_boxes(W->group_base, W->group_base + W->groups, ngrp, box);
	cl_int err = CL_SUCCESS;
	for (unsigned b = 0; b < nb && err == CL_SUCCESS; b++) {
		cl_ulong4 origin = { { box[b].origin[0], box[b].origin[1], box[b].origin[2], 0 } };
		for (unsigned d = 0; d < 3; d++) {
			goff[d] = W->goff[d] + box[b].origin[d] * W->lsize[d];
			gsize[d] = box[b].count[d] * W->lsize[d];
		}
		vrt_tailargs t = { .origin = &origin };
		if ((err = vrt_tailargs_set(sh->ks, W->k->nargs, VAST_HAS_STRAIGHT, &t)) == CL_SUCCESS)
			err = vrt_real.clEnqueueNDRangeKernel(sh->q, sh->ks, W->dim, goff, gsize,
			                                      W->lsize, 0, NULL, NULL);
	}
	if (err == CL_SUCCESS)
		err = vrt_real.clFinish(sh->q);
	sh->err = err;
	sh->ms = vrt_now_ms() - t0;
	return NULL;
}

static void drop_share(res_share *sh, int own)
{
	for (unsigned s = 0; s <= VAST_MAX_SLOTS; s++) {
		vrt_free(sh->slot[s].acc);
		vrt_free(sh->slot[s].wr);
	}
	if (!own && sh->k.straight)
		vrt_real.clReleaseKernel(sh->k.straight);
	if (sh->lpt)
		vrt_real.clReleaseMemObject(sh->lpt);
	if (sh->fault)
		vrt_real.clReleaseMemObject(sh->fault);
}

/* Out of the way of a launch that cannot run so: nothing of the
 * program's has changed. */
#define NOT_HERE(why)                                                                    \
	do {                                                                             \
		note->why_not = why;                                                     \
		vrt_log(VRT_LOG_DEBUG, "kernel '%s': split with private copies: %s",       \
		        L->k->name, why);                                                \
		goto out;                                                                \
	} while (0)

int vrt_resident_run(vrt_launch *L, const cl_device_id *devs, unsigned n, const size_t *start,
                     const size_t *counts, double *ms, vrt_resident_note *note, cl_int *err)
{
	int ran = 0, planned;
	*err = CL_SUCCESS;
	memset(note, 0, sizeof *note);
	vrt_devmerge *M = NULL;
	res_share *sh = vrt_calloc(n, sizeof *sh);
	if (!sh) {
		*err = CL_OUT_OF_HOST_MEMORY;
		return 1;
	}
	/* "Pages every buffer" keeps none whole on a device (paged/keeps.c's
	 * keeps_allowed): the shares are paged launches. */
	if (vrt_cfg.mode == VRT_RUN_PAGED)
		NOT_HERE("VAST_MODE=paged");
	/* The descriptors plan the windows here, with no inspector to
	 * check them against. */
	if (vrt_cfg.footprints == VRT_FP_CHECK)
		NOT_HERE("VAST_FOOTPRINTS=check");
	if (!vrt_straight_may_run(L))
		NOT_HERE("no straight variant");
	const char *why = buffers_refusal(L);
	if (why)
		NOT_HERE(why);
	double t0 = vrt_now_ms();
	for (unsigned j = 0; j < n; j++) {
		sh[j].W = *L;
		sh[j].W.group_base = start[j];
		sh[j].W.groups = counts[j];
		sh[j].W.share = 1;
		sh[j].dev = devs[j];
		if (!counts[j])
			continue;
		if ((planned = plan_share(L, &sh[j])) < 0) {
			*err = CL_OUT_OF_HOST_MEMORY;
			ran = 1;
			goto out;
		}
		if (!planned)
			NOT_HERE("a window's pages are not known from descriptors");
	}
	/* The pages two or more windows may write: merged on a device. */
	if (!(M = vrt_devmerge_new(L, n))) {
		*err = CL_OUT_OF_HOST_MEMORY;
		ran = 1;
		goto out;
	}
	for (unsigned j = 0; j < n; j++)
		for (unsigned s = 1; counts[j] && s <= L->nslots; s++)
			vrt_devmerge_writes(M, j, s, sh[j].slot[s].wr);
	/* Each window planned from the descriptors, as a paged share's
	 * would be (VAST_TRACE, VAST_STATS fp_plans). */
	vrt_trace_host("footprints", L->k->name, t0, vrt_now_ms(), -1, 0);
	/* Each device's program, queue and straight kernel. */
	for (unsigned j = 0; j < n; j++) {
		if (!counts[j])
			continue;
		if (j == 0) {
			sh[j].ctx = L->ctx;
			sh[j].q = L->q;
			if (vrt_kernel_variant(L->k, "straight", &sh[j].ks) != CL_SUCCESS)
				NOT_HERE("no straight kernel");
			if (vrt_devmerge_share(M, j, sh[j].ctx, sh[j].q, devs[j]) != CL_SUCCESS)
				NOT_HERE("no merge kernel on a device");
			continue;
		}
		cl_program prog;
		if (vrt_device_program(L->k->prog, devs[j], &sh[j].ctx, &prog, &sh[j].q) !=
		    CL_SUCCESS)
			NOT_HERE("no program on a device");
		sh[j].k = *L->k;
		sh[j].k.real_prog = prog;
		sh[j].k.inspect = sh[j].k.paged = sh[j].k.straight = NULL;
		sh[j].W.k = &sh[j].k;
		sh[j].W.ctx = sh[j].ctx;
		sh[j].W.q = sh[j].q;
		sh[j].W.dev = devs[j];
		if (vrt_kernel_variant(&sh[j].k, "straight", &sh[j].ks) != CL_SUCCESS)
			NOT_HERE("no straight kernel");
		if (vrt_devmerge_share(M, j, sh[j].ctx, sh[j].q, devs[j]) != CL_SUCCESS)
			NOT_HERE("no merge kernel on a device");
	}
	for (unsigned j = 0; j < n; j++)
		if (counts[j] && !make_room(L, &sh[j], j == 0, vrt_devmerge_scratch(M, j), err)) {
			if (*err != CL_SUCCESS) {
				ran = 1;
				goto out;
			}
			NOT_HERE("a window does not fit its device");
		}
	/* From here the program's bytes move: what follows runs here. */
	ran = 1;
	for (unsigned s = 1; s <= L->nslots && *err == CL_SUCCESS; s++)
		*err = vrt_mem_settle(L->slot_mem[s]);
	for (unsigned j = 0; j < n && *err == CL_SUCCESS; j++)
		for (unsigned s = 1; counts[j] && s <= L->nslots && *err == CL_SUCCESS; s++) {
			res_slot *rs = &sh[j].slot[s];
			size_t lo, hi;
			wanted(&sh[j], L->slot_mem[s], rs, &lo, &hi);
			if (rs->hi > rs->lo)
				*err = vrt_mem_replica_place(L->slot_mem[s], sh[j].ctx, sh[j].q, devs[j], lo,
				                             hi, &rs->rep);
		}
	/* What comes from the host copy, to every device at once; then the
	 * rest from the nearest copies, device by device. */
	if (*err == CL_SUCCESS)
		*err = bring_from_host(L, sh, n, counts);
	for (unsigned j = 0; j < n && *err == CL_SUCCESS; j++) {
		for (unsigned s = 1; counts[j] && s <= L->nslots && *err == CL_SUCCESS; s++) {
			res_slot *rs = &sh[j].slot[s];
			vrt_mem *m = L->slot_mem[s];
			if (rs->hi <= rs->lo)
				continue;
			for (size_t p = 0, off, len; *err == CL_SUCCESS &&
			                             next_run(rs->acc, m->size, &p, &off, &len);)
				*err = vrt_mem_replica_bring(m, rs->rep, off, len);
			vrt_devmerge_replica(M, j, s, rs->rep);
		}
		if (counts[j] && *err == CL_SUCCESS && (*err = make_lpt(L, &sh[j])) == CL_SUCCESS)
			*err = set_args(&sh[j]);
	}
	if (*err == CL_SUCCESS)
		*err = vrt_devmerge_keep(M);
	if (*err == CL_MEM_OBJECT_ALLOCATION_FAILURE || *err == CL_OUT_OF_RESOURCES) {
		/* No kernel ran, and the bytes are where the directory says:
		 * the launch may still run another way. */
		vrt_log(VRT_LOG_INFO, "kernel '%s': no room for a window on its device (%s); split with private copies",
		        L->k->name, vrt_cl_error_name(*err));
		note->why_not = "a window does not fit its device (no room left)";
		*err = CL_SUCCESS;
		ran = 0;
	}
	if (*err != CL_SUCCESS || !ran)
		goto out;
	for (unsigned j = 0; j < n; j++)
		if (counts[j])
			vrt_log(VRT_LOG_DEBUG, "kernel '%s': device '%s' holds %zu bytes of it and other buffers, budget %llu",
			        L->k->name, vrt_device_name(devs[j]), device_bytes(devs[j], j == 0),
			        vrt_budget(devs[j], L->footprint));
	for (unsigned j = 0; j < n; j++)
		if (counts[j])
			sh[j].threaded = pthread_create(&sh[j].tid, NULL, run_share, &sh[j]) == 0;
	for (unsigned j = 0; j < n; j++) {
		if (!counts[j])
			continue;
		if (sh[j].threaded)
			pthread_join(sh[j].tid, NULL);
		else
			run_share(&sh[j]);
	}
	/* The pages several windows may write, merged on their
	 * destinations once every window ran. */
	int failed = 0;
	for (unsigned j = 0; j < n; j++)
		failed |= counts[j] && sh[j].err != CL_SUCCESS;
	note->merged_pages = vrt_devmerge_pages(M);
	if (!failed && note->merged_pages) {
		double m0 = vrt_now_ms();
		*err = vrt_devmerge_run(M, &note->merged_bytes);
		vrt_trace_host("merge", L->k->name, m0, vrt_now_ms(), -1, note->merged_bytes);
		if (*err != CL_SUCCESS)
			vrt_log(VRT_LOG_WARN, "kernel '%s': merging the pages its windows share failed: %s",
			        L->k->name, vrt_cl_error_name(*err));
	}
	/* What each window may have written is the newest there, a failed
	 * one's too (launch.c refuses the buffers then): no other copy of it
	 * is current any more. A page several may write is the newest on
	 * its destination, where they were merged. */
	for (unsigned j = 0; j < n; j++) {
		if (!counts[j])
			continue;
		ms[j] = sh[j].ms;
		if (sh[j].err != CL_SUCCESS && *err == CL_SUCCESS) {
			vrt_log(VRT_LOG_WARN, "kernel '%s': its share on device '%s' failed: %s",
			        L->k->name, vrt_device_name(devs[j]), vrt_cl_error_name(sh[j].err));
			*err = sh[j].err;
		}
		L->st->ranges++;
		L->st->straight++;
		L->st->fp_plans++;
		L->st->kernel_ms += sh[j].ms;
		for (unsigned s = 1; s <= L->nslots; s++) {
			res_slot *rs = &sh[j].slot[s];
			vrt_mem *m = L->slot_mem[s];
			vrt_devmerge_claims(M, j, s, rs->wr);
			int lost = 0;
			for (size_t p = 0, off, len; rs->wr && rs->rep && !lost &&
			                             next_run(rs->wr, m->size, &p, &off, &len);)
				lost = vrt_mem_replica_wrote(m, rs->rep, off, len) != 0;
			if (lost) {
				/* The directory has no room to say where the bytes
				 * are: the buffer is refused rather than read stale. */
				vrt_mem_fail(m, L->k->name);
				if (*err == CL_SUCCESS)
					*err = CL_OUT_OF_HOST_MEMORY;
			}
		}
	}
out:
	vrt_devmerge_free(M);
	for (unsigned j = 0; j < n; j++)
		drop_share(&sh[j], j == 0);
	vrt_free(sh);
	return ran;
}
