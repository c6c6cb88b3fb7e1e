/* SPDX-License-Identifier: MIT */
/*
 * writeback.c - where a range's written pages go: home as it finishes,
 * or left dirty in the last ranges' frames where they may reside (lazy);
 * and pages kept on the device written home when the host needs them
 * (the directory, mem/poolloc.c, says which are newer there).
 */
#include "paged/paged_int.h"

/* The kept frames (residency.c) may hold slot s's pages: reuse is on,
 * the launch keeps its frame sets (a share of a split launch does not),
 * and the buffer is in no sub-buffer family, whose members alias each
 * other's bytes (conservative: no reuse there). */
int vrt_paged_may_reside(const vrt_launch *L, unsigned s)
{
	const vrt_mem *m = L->slot_mem[s];
	return vrt_cfg.resident && !L->share && !m->parent && !m->nsubs && !L->res_buf[s];
}

/* Slot s, written, may leave its pages in the last ranges' frames dirty
 * rather than write them home now: they may reside, and the host copy
 * is ours. A CL_MEM_USE_HOST_PTR buffer's host copy is the program's
 * memory, which it may read after clFinish with no command of ours in
 * between (OpenCL 1.2 §5.2.1 leaves it undefined, but programs do): it
 * goes home eagerly. */
int vrt_paged_lazy_slot(const vrt_launch *L, unsigned s)
{
	return (L->slot_mode[s] & VAST_MODE_W) && vrt_paged_may_reside(L, s) &&
	       !(L->slot_mem[s]->flags & CL_MEM_USE_HOST_PTR);
}

/* Whether range F's written pages of slot s go home when it finishes
 * (not kept whole, held or left dirty in the frames; a box always does). */
int vrt_paged_goes_home_now(const vrt_launch *L, const paged *P, const fset *F, unsigned s)
{
	return (L->slot_mode[s] & VAST_MODE_W) && F->fr.count[s] && !P->lay.res_buf[s] &&
	       F->fr.held != s && (F->box[s].rows || !(F->lazy && vrt_paged_lazy_slot(L, s)));
}

/* Enqueues on q the copy of pages page..page+n-1 of m (clipped to its
 * size) from frames frame.. of fb into the host copy; adds the bytes. */
cl_int vrt_paged_read_home(cl_command_queue q, cl_mem fb, size_t frame, vrt_mem *m, size_t page,
                           size_t n, unsigned sh, unsigned long long *bytes)
{
	size_t at = page << sh, len = n << sh;
	if (at >= m->size)
		return CL_SUCCESS;
	if (len > m->size - at)
		len = m->size - at;
	*bytes += len;
	return vrt_real.clEnqueueReadBuffer(q, fb, CL_FALSE, frame << sh, len, m->host + at, 0,
	                                    NULL, NULL);
}

/* Before reading frames on the D2H queue q: kernels left in flight with
 * no D2H after them (defer_ranges) wrote them on another queue. */
cl_int vrt_paged_after_kernels(vrt_devsets *d, cl_command_queue q)
{
	cl_int err = CL_SUCCESS;
	for (unsigned i = 0; i < VRT_MAX_SETS && !err; i++) {
		vrt_devset *ds = &d->set[i];
		if (!ds->unread)
			continue;
		err = vrt_real.clEnqueueBarrierWithWaitList(q, 1, &ds->unread, NULL);
		vrt_real.clReleaseEvent(ds->unread);
		ds->unread = NULL;
	}
	return err;
}

/* Writes home (blocking) the pages of runs: the host holds them too
 * from then on (poolloc.c). */
cl_int vrt_paged_write_runs_home(vrt_devsets *d, cl_command_queue q, const vrt_res_run *runs,
                                 size_t n)
{
	unsigned long long bytes = 0;
	cl_int err = vrt_paged_after_kernels(d, q);
	for (size_t i = 0; i < n && !err; i++) {
		vrt_mem *m = vrt_mem_by_serial(runs[i].serial);
		int hold = runs[i].set == VRT_HOLD_SET;
		err = vrt_paged_read_home(q,
		                          hold ? d->hold : d->set[runs[i].set].frames[runs[i].buf],
		                          runs[i].frame, m, runs[i].page, runs[i].n,
		                          hold ? d->hold_shift : d->res.page_shift, &bytes);
	}
	if (!err)
		err = vrt_real.clFinish(q);
	vrt_kstats *st = vrt_stats_for(NULL);
	if (st && !err)
		st->d2h += bytes;
	if (!err)
		vrt_pool_homed(d, runs, n);
	return err;
}

/* Writes home (blocking) the pages d holds newer than every other copy
 * (the directory says which: poolloc.c), of the family of `only` (NULL:
 * of every buffer), in `where`: its hold, its frame sets or both
 * (VRT_POOL_HOLD, VRT_POOL_FRAMES; VRT_POOL_MOVE: every page held that
 * the host lacks). Where they cannot go, their buffer
 * is refused, never read with stale pages (vrt_mem_check), and d's
 * copies of it dropped. */
cl_int vrt_paged_newer_home(vrt_devsets *d, cl_context ctx, cl_device_id dev, const vrt_mem *only,
                            int where)
{
	vrt_res_run *runs;
	size_t n = vrt_pool_newer_runs(d, only, where, NULL, NULL, &runs);
	if (!n)
		return CL_SUCCESS;
	if (n == (size_t)-1)
		return CL_OUT_OF_HOST_MEMORY;
	cl_int err;
	queues *qs = vrt_paged_queues_for(ctx, dev, &err);
	if (qs)
		err = vrt_paged_write_runs_home(d, qs->out, runs, n);
	vrt_log(VRT_LOG_DEBUG, "%zu runs of pages kept on the device of %s written home", n,
	        only ? "a buffer" : "every buffer");
	for (size_t i = 0; i < n && err; i++) {
		vrt_mem *m = vrt_mem_by_serial(runs[i].serial);
		if (!m || vrt_pool_find(d, m) < 0)
			continue;
		if (!m->failed[0]) {
			vrt_log(VRT_LOG_WARN, "writing pages kept on the device home failed: %s",
			        vrt_cl_error_name(err));
			vrt_mem_fail(m, "(pages kept on the device)");
		}
		vrt_pool_drop_loc(d, m);
	}
	vrt_free(runs);
	return err;
}

/* The sets' home (framepool.c): the pages d holds newer than every
 * other copy (move: every one the host lacks), hold and frames. */
cl_int vrt_paged_write_home(vrt_devsets *d, cl_context ctx, cl_device_id dev,
                            const vrt_mem *only, int move)
{
	return vrt_paged_newer_home(d, ctx, dev, only,
	                            VRT_POOL_HOLD | VRT_POOL_FRAMES | (move ? VRT_POOL_MOVE : 0));
}

/* F's range writes home, as it finishes, the pages it touches of the
 * slots that go home at once (goes_home_now): the host copy holds their
 * newest bytes, and every other copy of them (a frame pool's) is stale.
 * Recorded as the range is enqueued, in the order the ranges run, as
 * the hold's pages are (record_held), so that the directory ends with
 * what the last range to touch a page left. Not for a share of a split
 * launch (its private views have no directory), nor for a buffer no
 * other location is registered for (nothing to make stale). Out of
 * memory, the buffer is refused. */
cl_int vrt_paged_record_home(vrt_launch *L, paged *P, const fset *F)
{
	const vrt_layout *lay = &P->lay;
	for (unsigned s = 1; !L->share && s <= lay->nslots; s++) {
		vrt_mem *m = L->slot_mem[s];
		if (!m->dir || !(m->dir->used & ~VRT_LOC(VRT_DIR_HOST)) ||
		    !vrt_paged_goes_home_now(L, P, F, s))
			continue;
		const unsigned char *u = F->u + lay->slot_off[s];
		size_t hi = F->hi[s], b;
		for (size_t a = vrt_pas_next_run(u, F->lo[s], hi, &b); a < hi;
		     a = vrt_pas_next_run(u, b, hi, &b))
			if (vrt_pool_wrote(m, VRT_DIR_HOST, a, b - a, lay->page_shift)) {
				vrt_mem_fail(m, L->k->name);
				return CL_OUT_OF_HOST_MEMORY;
			}
	}
	return CL_SUCCESS;
}

/* A boxed slot goes in straight from its host copy (move_box), with no
 * page of it taken from the kept frames: pages an earlier launch left
 * there dirty go home first, from this launch's sets and any other
 * pool's. It leaves none there itself: its boxes go home at once. */
cl_int vrt_paged_boxes_home(vrt_launch *L, paged *P)
{
	cl_int err = CL_SUCCESS;
	for (unsigned s = 1; s <= L->nslots && !err; s++) {
		vrt_mem *m = L->slot_mem[s];
		if (L->share || !vrt_fp_boxed(P->fp, s))
			continue;
		if (vrt_pool_any_newer(&P->devs, m))
			err = vrt_paged_write_home(&P->devs, L->ctx, L->dev, m, 0);
		if (!err && vrt_framepool_newer(m))
			err = vrt_framepool_write_home(m);
	}
	return err;
}
