/* SPDX-License-Identifier: MIT */
/*
 * keeps.c - what a paged launch keeps on the device beside its frames,
 * chosen before it plans: buffers kept whole (keep_resident), and the
 * first pages of one more buffer in the hold (choose_hold); and whether
 * it may keep any.
 */
#include <string.h>

#include "paged/paged_int.h"

/* Slot s is read only and each work-group reads at least half of its
 * pages (the B of a matrix multiply: a group's column strip crosses
 * every row of it), so every range, however the launch is cut, would
 * send most of it again: mm2's C, sent by each of 96 ranges beside a
 * buffer kept whole that left it no room, moved 14 times the bytes the
 * launch had to. The first, middle and last groups stand for the rest,
 * at the pages the plan starts from (first_layout); 1 yes, 0 no or not
 * known (no usable descriptor, out of memory). */
static int read_by_every_range(const vrt_launch *L, vrt_fp_plan *fp, unsigned s, unsigned sh)
{
	if (!fp || L->slot_mode[s] != VAST_MODE_R || L->groups < 2)
		return 0;
	vrt_layout lay = { .page_shift = sh };
	size_t n = (L->slot_mem[s]->size + ((size_t)1 << sh) - 1) >> sh;
	lay.slot_pages[s] = n;
	/* vrt_pas_count reads whole words: the row padded to 8, with zeros. */
	size_t n8 = (n + 7) & ~(size_t)7;
	unsigned char *pages = vrt_malloc(n8);
	if (!pages)
		return 0;
	size_t sample[3] = { 0, L->groups / 2, L->groups - 1 };
	int every = 1;
	for (unsigned i = 0; i < 3 && every; i++) {
		memset(pages, 0, n8);
		every = vrt_fp_slot_pages(fp, &lay, s, sample[i], sample[i] + 1, pages) == 1 &&
		        2 * vrt_pas_count(pages, n8) >= n;
	}
	vrt_free(pages);
	return every;
}

/* The buffers a paged launch keeps whole on the device rather than
 * paging them (data one kernel produces and the next consumes stays on
 * the device when it fits): those already there, then those an
 * earlier paged launch used (an iterative program's: fdtd2d's hz, which
 * all three of its kernels use), as long as they take at most 3/4 of the
 * budget; the frames get the rest. Before the latter, a buffer the launch
 * only reads, through addresses that are data (spmv's x[col[i]],
 * vrt_fp_slot_indirect): whole on the device it needs no inspector, and
 * each range would otherwise bring most of its pages again; then one it
 * only reads that every range would send again (read_by_every_range):
 * whole, it is sent once for the launch, and stays for the next while
 * it fits (the first pass), where a buffer an earlier launch used would
 * save at most one transfer of itself. Any other
 * buffer neither on the device nor used by an earlier paged launch pages,
 * so a program of one paged launch over buffers it wrote from the host
 * pages as before. Each is bound
 * whole as a frame buffer of its own (lpt.c), from the top index down;
 * its pages are in no range's rows, never sent nor written back: the
 * native path's device copy (mem.c) is the current one. */
void vrt_paged_keep_resident(vrt_launch *L, paged *P)
{
	unsigned long long room = L->budget / 4 * 3, used = 0, most = vrt_max_alloc(L->dev);
	unsigned sh = vrt_paged_choose_shift(L->budget / vrt_cfg.pipeline);
	vrt_fp_plan *fp = NULL;
	int oom = 0;
	for (int pass = 0; pass < 4; pass++) {
		if (pass == 2 && !(fp = vrt_fp_plan_new(L, &oom)))
			continue;
		for (unsigned s = 1; s <= L->nslots && P->nres + 1 < VAST_FRAME_BUFS; s++) {
			vrt_mem *m = L->slot_mem[s];
			if (L->res_buf[s] || m->parent || m->nsubs || used + m->size > room)
				continue;
			/* Not one no device buffer can hold: placing it would fail,
			 * and the launch would then keep nothing whole. */
			if (pass > 0 && most && m->size > most)
				continue;
			int want = pass == 0 ? m->dev && vrt_mem_dev_valid(m)
			           : pass == 1 ? L->slot_mode[s] == VAST_MODE_R && vrt_fp_slot_indirect(L, s)
			           : pass == 2 ? read_by_every_range(L, fp, s, sh)
			           : m->paged_uses > 0;
			if (!want)
				continue;
			L->res_buf[s] = (unsigned char)(VAST_FRAME_BUFS - 1 - P->nres);
			P->res[P->nres++] = m;
			used += m->size;
		}
	}
	vrt_fp_plan_free(fp);
	if (!P->nres)
		return;
	L->budget -= used;
	vrt_log(VRT_LOG_INFO, "kernel '%s': %u buffers (%llu bytes) kept whole on the device, %llu bytes of budget left to page the rest",
	        L->k->name, P->nres, used, L->budget);
}

/* A launch may keep buffers on the device (keep_resident, choose_hold):
 * VAST_MODE=paged pages every buffer, as it says; a launch like one
 * whose ranges did not fit what kept buffers left keeps none. */
int vrt_paged_keeps_allowed(const vrt_launch *L)
{
	const struct vrt_keep_hint *h = &L->k->keep_refused;
	return !L->share && vrt_cfg.resident && vrt_cfg.mode != VRT_RUN_PAGED &&
	       !(h->groups == L->groups && h->budget == L->budget);
}

/* Slot s may be the hold's: its pages may reside (may_reside: not kept
 * whole, in no sub-buffer family), its host copy is ours (not
 * CL_MEM_USE_HOST_PTR: lazy_slot), and no other slot names its buffer. */
static int may_hold(const vrt_launch *L, unsigned s)
{
	if (!vrt_paged_may_reside(L, s) || (L->slot_mem[s]->flags & CL_MEM_USE_HOST_PTR))
		return 0;
	for (unsigned t = 1; t <= L->nslots; t++)
		if (t != s && L->slot_mem[t] == L->slot_mem[s])
			return 0;
	return 1;
}

/* No slot before s names s's buffer. */
int vrt_paged_first_slot_of(const vrt_launch *L, unsigned s)
{
	for (unsigned t = 1; t < s; t++)
		if (L->slot_mem[t] == L->slot_mem[s])
			return 0;
	return 1;
}

/* Releases d's hold, the pages it holds newer than the host written
 * home first (those that cannot, their buffer refused: write_home), and
 * the pool's location forgets them. */
void vrt_paged_drop_hold(vrt_devsets *d, cl_context ctx, cl_device_id dev)
{
	if (!d->hold)
		return;
	vrt_paged_newer_home(d, ctx, dev, NULL, VRT_POOL_HOLD);
	vrt_pool_forget_hold(d);
	vrt_hold_free(d);
	vrt_real.clReleaseMemObject(d->hold);
	d->hold = NULL;
	d->hold_bytes = 0;
}

/* The least room of the budget the frames keep beside the hold and the
 * other buffers' device copies (vrt_room_for_paging): an eighth, and at
 * least what keeps a set at 64 pages of the default size (choose_shift):
 * smaller pages make more ranges, each sending an LPT of the launch's
 * every page. */
unsigned long long vrt_paged_frames_least(const vrt_launch *L)
{
	unsigned sh = vrt_cfg.page_shift ? vrt_cfg.page_shift : 16;
	unsigned long long frames = L->budget / 8, least = (unsigned long long)vrt_cfg.pipeline << (sh + 6);
	return frames > least ? frames : least;
}

/* The hold (a device page cache; docs/runtime.md): the frames are
 * refilled range after range, so what they keep for the next launch is
 * at most its last ranges' pages, and a kernel that does not use a
 * buffer (fdtd2d's ey kernel and ex) overwrites all of them. The hold
 * keeps the first pages of one more buffer beside those kept whole, in
 * a device buffer of the pool's that no range refills: a range whose
 * pages of that buffer all lie there is bound to it (lpt.c), sends only
 * those it lacks and writes none home; the others take them
 * device-side (use_kept). Its buffer: the pool's hold's, which stays
 * while it fits and its buffer lives, whatever the launch uses; or else
 * the first of the launch that two earlier paged launches used and that
 * may be held. Its size: what the buffers kept whole left, less the
 * frames' share, as much as the buffer has. Under this fixed choice
 * nothing the hold keeps is evicted, as MIN would do for a cycle of
 * kernels that each use their buffers once: fdtd2d at twice its budget
 * moves 6 - 3h of its arrays' size a step for a hold of h of one of
 * them (the per-launch bound is 4.5). Its bytes come off the budget. */
void vrt_paged_choose_hold(vrt_launch *L, paged *P, int allowed)
{
	/* The shares of a split launch run on threads: the pool is the
	 * executor's alone (make_sets). */
	if (L->share)
		return;
	vrt_devsets *d = vrt_framepool_peek(L->ctx, L->dev);
	unsigned sh = vrt_cfg.page_shift ? vrt_cfg.page_shift : 16;
	unsigned long long frames = vrt_paged_frames_least(L), least = (unsigned long long)vrt_cfg.pipeline << (sh + 6);
	unsigned long long room = L->budget > frames ? L->budget - frames : 0;
	/* a frame buffer index of its own, below those kept whole */
	allowed &= vrt_cfg.hold && P->nres + 2 < VAST_FRAME_BUFS;
	if (d && d->hold) {
		const vrt_mem *m = vrt_mem_by_serial(d->hold_serial);
		unsigned s = 0;
		for (unsigned t = 1; m && t <= L->nslots; t++)
			if (L->slot_mem[t] == m)
				s = t;
		if (!allowed || !m || d->hold_bytes > room || (s && !may_hold(L, s))) {
			vrt_log(VRT_LOG_DEBUG, "kernel '%s': the hold goes", L->k->name);
			vrt_paged_drop_hold(d, L->ctx, L->dev);
		} else {
			L->hold_slot = s;
			L->hold_bytes = d->hold_bytes;
		}
	}
	/* A new hold only where the frames of the paged launch before are
	 * still there (a native launch between paged ones takes the pool's
	 * room, mem.c, and would take a hold with it every time), and of at
	 * least what the frames keep. */
	for (unsigned s = 1; allowed && d && room >= least && !L->hold_bytes && s <= L->nslots;
	     s++) {
		vrt_mem *m = L->slot_mem[s];
		if (m->paged_uses < 2 || !may_hold(L, s))
			continue;
		L->hold_slot = s;
		L->hold_bytes = m->size < room ? m->size : room;
		vrt_log(VRT_LOG_INFO, "kernel '%s': the hold keeps %llu bytes of slot %u on the device",
		        L->k->name, L->hold_bytes, s);
	}
	L->budget -= L->hold_bytes;
	P->hold_bytes = L->hold_bytes;
}

/* The resident slots' device copies, current, with nothing else in
 * flight on them (their queue finished: the paged path's kernels run on
 * queues of its own). */
cl_int vrt_paged_place_resident(vrt_launch *L, paged *P)
{
	cl_int err = CL_SUCCESS;
	for (unsigned i = 0; i < P->nres && !err; i++)
		err = vrt_room_to_device(P->res[i], L->q, P->full_budget, P->res, P->nres);
	for (unsigned i = 0; i < P->nres && !err; i++)
		err = vrt_real.clFinish(P->res[i]->dev_queue);
	return err;
}
