/* SPDX-License-Identifier: MIT */
/*
 * kargs.c - a range's kernel: the arguments every range shares, the LPT
 * and fault word it reads, and its launch, the paged variant or the
 * straight one (one launch per box of groups).
 */
#include <string.h>

#include "paged/paged_int.h"

/* Sends F's LPT and a cleared fault word, unless the device holds them
 * already: the plan's tables are there, every range's (tables_on_device),
 * or the set's last range (of this launch or of an earlier one, its
 * buffers kept: framepool.c) had the same LPT; and the fault word was
 * read back as 0 (the kernels write it only on a fault, which fails the
 * launch and releases the buffers). A launch whose plan is cached sends
 * neither: one command less on the way to its kernel, each range. */
cl_int vrt_paged_send_lpt_and_fault(paged *P, fset *F)
{
	static const cl_uint clear = VAST_FAULT_CLEAR;
	vrt_devset *ds = &P->devs.set[F - P->set];
	size_t lb = vrt_lpt_bytes(&P->lay);
	cl_event e;
	cl_int err;
	if (!P->lpt_dev &&
	    (!ds->lpt_held || ds->lpt_held_bytes != lb || memcmp(ds->lpt_held, F->lpt, lb))) {
		if ((err = vrt_paged_after_busy(P, F)) ||
		    (err = vrt_real.clEnqueueWriteBuffer(P->qs->in, F->lptbuf, CL_FALSE, 0, lb, F->lpt,
		                                         0, NULL, &e)))
			return err;
		vrt_paged_keep(F->in, e);
		F->in_bytes += lb;
		/* Out of memory: unknown, sent again next time. */
		if (ds->lpt_held_bytes != lb) {
			vrt_free(ds->lpt_held);
			ds->lpt_held = vrt_malloc(lb);
			ds->lpt_held_bytes = lb;
		}
		if (ds->lpt_held)
			memcpy(ds->lpt_held, F->lpt, lb);
	}
	if (ds->fault_clear)
		return CL_SUCCESS;
	if ((err = vrt_paged_after_busy(P, F)) ||
	    (err = vrt_real.clEnqueueWriteBuffer(P->qs->in, F->fault, CL_FALSE, 0, sizeof clear,
	                                         &clear, 0, NULL, &e)))
		return err;
	vrt_paged_keep(F->in, e);
	return CL_SUCCESS;
}

/* The straight kernel on groups [g0, g1) of the launch: each buffer
 * parameter's run from its arguments (the frame buffer of its slot's run
 * and the delta to it), then one N-D launch per box of groups
 * (groupbox.c) with the original local size and a global offset, so the
 * kernel's work-item ids are the device's own. The first waits for `in`;
 * the rest follow it on the in-order queue. */
static cl_int launch_straight(vrt_launch *L, paged *P, cl_kernel ks, fset *F, size_t g0,
                              size_t g1, cl_event in, int second)
{
	unsigned sh = P->lay.page_shift;
	size_t nbuf = 0;
	cl_int err;
	for (cl_uint i = 0; i < L->k->nargs; i++) {
		unsigned kind = L->k->info->params[i].kind;
		if (kind != VAST_PARAM_GLOBAL && kind != VAST_PARAM_CONSTANT)
			continue;
		unsigned s = L->arg_slot[i];
		int run = s && F->fr.count[s];
		cl_mem fb = run ? F->frames[F->fr.buf[s]] : NULL;
		cl_ulong delta = run ? ((cl_ulong)s << VAST_VA_SHIFT) +
		                               (cl_ulong)F->fr.lo[s] -
		                               ((cl_ulong)F->fr.first[s] << sh)
		                     : 0;
		vrt_tailargs t = { .sbuf = &fb, .sdelta = &delta, .each_first = nbuf++, .neach = 1 };
		if ((err = vrt_tailargs_set(ks, L->k->nargs, VAST_HAS_STRAIGHT, &t)))
			return err;
	}
	size_t ngrp[3], goff[3], gsize[3];
	for (unsigned d = 0; d < 3; d++)
		ngrp[d] = L->gsize[d] / L->lsize[d];
	vrt_gbox box[5];
	unsigned nb = vrt_group_boxes(g0, g1, ngrp, box);
	if (nb > 1)
		vrt_log(VRT_LOG_DEBUG, "kernel '%s': straight on groups %zu..%zu as %u boxes",
		        L->k->name, g0, g1 - 1, nb);
	for (unsigned b = 0; b < nb; b++) {
		cl_ulong4 origin = { { box[b].origin[0], box[b].origin[1], box[b].origin[2], 0 } };
		for (unsigned d = 0; d < 3; d++) {
			goff[d] = L->goff[d] + box[b].origin[d] * L->lsize[d];
			gsize[d] = box[b].count[d] * L->lsize[d];
		}
		int first = b == 0, last = b + 1 == nb;
		cl_event *ev = last ? &F->run : first && !second ? &F->run0 : NULL;
		vrt_tailargs t = { .origin = &origin };
		if ((err = vrt_tailargs_set(ks, L->k->nargs, VAST_HAS_STRAIGHT, &t)) ||
		    (err = vrt_real.clEnqueueNDRangeKernel(P->qs->run, ks, L->dim, goff, gsize,
		                                           L->lsize, first && in,
		                                           first && in ? &in : NULL, ev)))
			return err;
	}
	return CL_SUCCESS;
}

/* Enqueues range F's kernel of launch Lk on the kernel queue, groups
 * [g0, g1): the straight variant ks where the range allows, else the paged
 * kp; *kr the one enqueued. `second`: the second kernel of a fused launch,
 * after the first on the same in-order queue, with the same frames, LPT
 * and fault word (F->run0 keeps the first's first kernel, F->run becomes
 * its own last). */
cl_int vrt_paged_enqueue_kernel(vrt_launch *Lk, paged *P, fset *F, cl_kernel kp, cl_kernel ks,
                                size_t g0, size_t g1, int second, cl_kernel *kr_out)
{
	const vrt_layout *lay = &P->lay;
	queues *qs = P->qs;
	cl_int err;
	cl_ulong first = Lk->group_base + g0;
	cl_uint n = Lk->k->nargs;
	/* Every slot's pages one run: the straight variant translates each
	 * access with one add and no check. The plan (the inspector's PAS or
	 * the descriptors' boxes) holds every address the range's work-items
	 * reach, so the check could never fail (vrt_straight_may_run says where
	 * that is not known). */
	cl_kernel kr = ks && F->fr.straight ? ks : kp;
	*kr_out = kr;
	/* Arguments are captured at enqueue (OpenCL 1.2 §5.7.2), so one
	 * kernel object serves every range. Buffer 0 takes the accesses of
	 * a fault (the dummy page where the set has none); a buffer no slot
	 * of the range uses is NULL (OpenCL 1.2 §5.7.2: a NULL global
	 * pointer): NVIDIA's enqueue costs more with each buffer bound. */
	unsigned used = 1;
	for (unsigned s = 1; s <= lay->nslots; s++)
		if (F->fr.count[s])
			used |= 1u << F->fr.buf[s];
	cl_mem frames[VAST_FRAME_BUFS];
	for (unsigned b = 0; b < VAST_FRAME_BUFS; b++)
		frames[b] = !(used >> b & 1) ? NULL : F->frames[b] ? F->frames[b] : P->dummy;
	vrt_tailargs t = { .frames = frames, .lpt = &F->lptarg, .fault = &F->fault,
	                   .first_group = &first };
	if ((err = vrt_tailargs_set(kr, n, kr == ks ? VAST_HAS_STRAIGHT : VAST_HAS_PAGED, &t)))
		return err;
	/* Nothing went in (every page kept, the same LPT): the kernel waits
	 * only for the copies before it on its own queue. */
	cl_event in = second ? NULL : vrt_paged_last_of(F->in);
	if (second) {
		if (!F->run0)
			F->run0 = F->run;
		else
			vrt_real.clReleaseEvent(F->run);
		F->run = NULL;
	}
	if (kr == ks) {
		err = launch_straight(Lk, P, ks, F, first, first + (g1 - g0), in, second);
	} else {
		size_t lwg = Lk->lsize[0] * Lk->lsize[1] * Lk->lsize[2];
		size_t global = (g1 - g0) * lwg;
		err = vrt_real.clEnqueueNDRangeKernel(qs->run, kr, 1, NULL, &global, &lwg,
		                                      in != NULL, in ? &in : NULL, &F->run);
	}
	if (err != CL_SUCCESS) {
		vrt_log(VRT_LOG_WARN, "kernel '%s': launching its paged variant failed: %s",
		        Lk->k->name, vrt_cl_error_name(err));
		return err;
	}
	return CL_SUCCESS;
}

/* The straight variant runs with no fault check, so only where the plan
 * holds every page: not where the inspector computed addresses from a
 * buffer the kernel writes (it saw the contents before the launch). The
 * compiler gave such kernels none (lib/rewrite/kernels.c); two parameters
 * bound to one buffer make the same here, per slot. */
int vrt_straight_may_run(const vrt_launch *L)
{
	if (!vrt_cfg.straight || !(L->k->info->variants & VAST_HAS_STRAIGHT))
		return 0;
	for (unsigned s = 1; s <= L->nslots; s++)
		if (L->slot_inspect_reads[s] && (L->slot_mode[s] & VAST_MODE_W))
			return 0;
	return 1;
}

/* The arguments of variant kv that every range shares: the program's
 * own, then the geometry of the tail. */
cl_int vrt_paged_set_launch_args(vrt_launch *L, paged *P, cl_kernel kv, unsigned kind)
{
	cl_int err;
	if ((err = vrt_set_user_args(L, kv)) != CL_SUCCESS)
		return err;
	cl_uint shift = P->lay.page_shift;
	vrt_geometry g;
	vrt_tailargs t = { .page_shift = &shift };
	vrt_tailargs_geometry(L, &g, &t);
	return vrt_tailargs_set(kv, L->k->nargs, kind, &t);
}
