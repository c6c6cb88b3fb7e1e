/* SPDX-License-Identifier: MIT */
/*
 * launch.c - clEnqueueNDRangeKernel: native or paged.
 *
 * A launch's slots are the distinct buffers among its buffer arguments
 * (two arguments bound to one cl_mem share a slot, whose mode is the
 * union of theirs). When they fit the budget, or the kernel cannot be
 * virtualized, the original kernel runs natively on device copies kept
 * resident across launches (mem.c). Otherwise paged.c runs it range by
 * range. VAST_MODE=paged takes the paged path even when it fits, to test
 * it; VAST_MODE=native never gets here (every entry point forwards).
 * The enqueue checks its arguments and captures the launch (argument
 * values as they are then, OpenCL 1.2 §5.8); queue.c runs it later, in
 * queue order, on the executor's own queue.
 */
#include <string.h>

#include "launch/launch.h"

/* Slots, modes and footprint of the launch. */
static cl_int collect_slots(vrt_launch *L)
{
	vrt_kernel *k = L->k;
	if (k->nargs > VRT_MAX_ARGS)
		return CL_OUT_OF_RESOURCES;
	for (cl_uint i = 0; i < k->nargs; i++) {
		L->arg_slot[i] = 0;
		vrt_mem *m = L->args[i].mem;
		if (!m || !vrt_arg_is_buffer(L, i))
			continue;
		unsigned s;
		for (s = 1; s <= L->nslots; s++)
			if (L->slot_mem[s] == m)
				break;
		if (s > L->nslots) {
			s = ++L->nslots;
			L->slot_mem[s] = m;
			L->slot_mode[s] = 0;
			L->slot_inspect_reads[s] = 0;
			L->footprint += m->size;
		}
		L->arg_slot[i] = s;
		cl_int err = vrt_mem_check(m);
		if (err != CL_SUCCESS)
			return err;
		/* The stub's modes are facts of an analysis that succeeded; of
		 * a kernel vastcc could not virtualize they may be partial
		 * (parameters past VAST_MAX_SLOTS are not analysed). */
		if (k->info && k->info->virtualizable) {
			L->slot_mode[s] |= k->info->params[i].mode;
			L->slot_inspect_reads[s] |= k->info->params[i].inspect_reads;
		} else if (!(m->flags & CL_MEM_READ_ONLY)) {
			/* Unknown modes: anything not read-only may be written. */
			L->slot_mode[s] |= VAST_MODE_RW;
		} else {
			L->slot_mode[s] |= VAST_MODE_R;
		}
	}
	/* OpenCL 1.2 §5.2.1: reading and writing a buffer and its
	 * sub-buffer (or overlapping sub-buffers) in one command is
	 * undefined; each would get its own copy here, so refuse. */
	for (unsigned a = 1; a <= L->nslots; a++)
		for (unsigned b = a + 1; b <= L->nslots; b++)
			if (((L->slot_mode[a] | L->slot_mode[b]) & VAST_MODE_W) &&
			    vrt_mem_overlap(L->slot_mem[a], L->slot_mem[b])) {
				vrt_log(VRT_LOG_WARN, "kernel '%s': two buffer arguments overlap (a buffer and its sub-buffer) and one is written; not supported",
				        k->name);
				return CL_INVALID_OPERATION;
			}
	return CL_SUCCESS;
}

static cl_int run_native(vrt_launch *L)
{
	vrt_kernel *k = L->k;
	cl_int err;
	vrt_mem *keep[VRT_MAX_ARGS];
	for (unsigned s = 1; s <= L->nslots; s++)
		keep[s - 1] = L->slot_mem[s];
	for (unsigned s = 1; s <= L->nslots; s++) {
		err = vrt_room_to_device(L->slot_mem[s], L->q, L->budget, keep, L->nslots);
		if (err != CL_SUCCESS) {
			vrt_log(VRT_LOG_WARN, "kernel '%s': cannot place its buffers on the device: %s",
			        k->name, vrt_cl_error_name(err));
			return err;
		}
	}
	/* Every argument as at the enqueue: the program may have set others
	 * on the kernel since (OpenCL 1.2 §5.7.2). */
	for (cl_uint i = 0; i < k->nargs; i++) {
		vrt_arg *a = &L->args[i];
		err = a->mem ? vrt_real.clSetKernelArg(k->real, i, sizeof(cl_mem), &a->mem->dev)
		             : vrt_real.clSetKernelArg(k->real, i, a->size, a->bytes);
		if (err != CL_SUCCESS)
			return err;
	}
	vrt_tail *t = vrt_calloc(1, sizeof *t);
	if (!t)
		return CL_OUT_OF_HOST_MEMORY;
	vrt_tail_range *r = &t->r[0];
	t->n = 1;
	r->qrun = L->q;
	r->range = -1;
	r->timed = vrt_cfg.stats > 1;
	err = vrt_real.clEnqueueNDRangeKernel(L->q, k->real, L->dim, L->goff, L->gsize,
	                                      L->local_free ? NULL : L->lsize, 0, NULL, &r->run);
	if (err != CL_SUCCESS) {
		vrt_free(t);
		return err;
	}
	/* The device copies are the current ones from here; a kernel that
	 * fails refuses them (fail_written). */
	L->partial = 1;
	for (unsigned s = 1; s <= L->nslots; s++)
		if (L->slot_mode[s] & VAST_MODE_W)
			vrt_mem_dev_written(L->slot_mem[s]);
	L->st->native++;
	/* The executor waits for the kernel after the next command's enqueue
	 * (queue.c), so the two kernels run back to back. */
	if (L->may_defer && !L->share) {
		L->tail = t;
		return vrt_real.clFlush(L->q);
	}
	if ((err = vrt_tail_finish(t, k->name, L->st, 0)) == CL_SUCCESS)
		L->partial = 0; /* the kernel completed */
	return err;
}

/* Programs built for OpenCL C 2.0 or later may leave the last
 * work-group of a dimension partial (OpenCL 2.0 §3.2), unless built with
 * -cl-uniform-work-group-size; OpenCL 1.2 ones may not. Programs that are
 * not ours (their options unknown) are left to the driver. */
static int nonuniform_allowed(const vrt_kernel *k)
{
	if (!k->prog)
		return 1;
	const char *o = k->prog->options;
	return o && (strstr(o, "-cl-std=CL2") || strstr(o, "-cl-std=CL3")) &&
	       !strstr(o, "-cl-uniform-work-group-size");
}

/* The local size the program passed (or NULL) against the kernel and the
 * device, with the errors of clEnqueueNDRangeKernel in OpenCL 1.2 §5.8,
 * checked here because the paged path launches other kernels with other
 * sizes and would not get them from the driver. *maxwg: the largest
 * work-group the kernel allows (CL_KERNEL_WORK_GROUP_SIZE), the bound of
 * a size the runtime chooses itself. */
static cl_int check_local(vrt_launch *L, const size_t *lsize, size_t *maxwg)
{
	vrt_kernel *k = L->k;
	if (k->wg.dev != L->dev) {
		/* Fixed for the kernel and device: queried once. At every
		 * enqueue, these queries, the queue's and a first hold of the
		 * lock took 32 us of an enqueue's 58 on the H100 (the driver
		 * busy with the executor's commands). */
		size_t reqd[3] = { 0, 0, 0 }, items[16] = { 0 }, max = 0;
		cl_int err;
		if ((err = vrt_real.clGetKernelWorkGroupInfo(k->real, L->dev,
		                                             CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
		                                             sizeof reqd, reqd, NULL)) ||
		    (err = vrt_real.clGetKernelWorkGroupInfo(k->real, L->dev, CL_KERNEL_WORK_GROUP_SIZE,
		                                             sizeof max, &max, NULL)) ||
		    (err = vrt_real.clGetDeviceInfo(L->dev, CL_DEVICE_MAX_WORK_ITEM_SIZES,
		                                    sizeof items, items, NULL)))
			return err;
		k->wg.dev = L->dev;
		k->wg.max = max;
		for (cl_uint d = 0; d < 3; d++) {
			k->wg.reqd[d] = reqd[d];
			k->wg.items[d] = items[d] ? items[d] : 1;
		}
	}
	const size_t *reqd = k->wg.reqd;
	*maxwg = k->wg.max;
	for (cl_uint d = 0; d < 3; d++)
		L->max_item[d] = k->wg.items[d];
	int required = reqd[0] || reqd[1] || reqd[2];
	if (!lsize) {
		/* "local_work_size is NULL and the __attribute__((reqd_work_
		 * group_size)) qualifier is used to declare the work-group size" */
		if (required)
			vrt_log(VRT_LOG_INFO, "kernel '%s' requires work-groups of %zux%zux%zu and was launched without a local size",
			        k->name, reqd[0], reqd[1], reqd[2]);
		return required ? CL_INVALID_WORK_GROUP_SIZE : CL_SUCCESS;
	}
	size_t wg = 1;
	for (cl_uint d = 0; d < 3; d++) {
		if (L->lsize[d] == 0 || (required && L->lsize[d] != reqd[d]) ||
		    (L->gsize[d] % L->lsize[d] && !nonuniform_allowed(k)))
			return CL_INVALID_WORK_GROUP_SIZE;
		if (L->lsize[d] > L->max_item[d])
			return CL_INVALID_WORK_ITEM_SIZE;
		wg *= L->lsize[d];
	}
	return wg > *maxwg ? CL_INVALID_WORK_GROUP_SIZE : CL_SUCCESS;
}

/* A local size dividing the global size when the program passed NULL
 * (the paged kernel needs one to rebuild group ids), at most maxwg
 * work-items and the device's limit per dimension; then the group
 * counts. */
static void choose_local(vrt_launch *L, size_t maxwg)
{
	size_t limit[3] = { 256, 16, 4 };
	if (L->dim > 1)
		limit[0] = 16;
	size_t prod = 1;
	for (cl_uint d = 0; d < 3; d++) {
		size_t best = 1;
		size_t lim = limit[d] < maxwg / prod ? limit[d] : maxwg / prod;
		if (lim > L->max_item[d])
			lim = L->max_item[d];
		for (size_t c = 1; c <= lim && c <= L->gsize[d]; c++)
			if (L->gsize[d] % c == 0)
				best = c;
		L->lsize[d] = best;
		prod *= best;
	}
	L->groups = 1;
	for (cl_uint d = 0; d < 3; d++) {
		L->ngroups[d] = L->gsize[d] / L->lsize[d];
		L->groups *= L->ngroups[d];
	}
}

/* The paged path; when one work-group does not fit the budget and the
 * launch may take smaller ones (vrt_local_may_shrink), halve them until
 * one fits: down to one work-item, which the refusal then names. */
static cl_int run_paged(vrt_launch *L)
{
	for (;;) {
		cl_int err = vrt_paged_run(L);
		size_t wg = L->lsize[0] * L->lsize[1] * L->lsize[2];
		if (err != CL_MEM_OBJECT_ALLOCATION_FAILURE || !vrt_local_may_shrink(L) || wg == 1 ||
		    L->partial || L->no_retry)
			return err;
		choose_local(L, wg / 2);
		vrt_log(L->local_free ? VRT_LOG_DEBUG : VRT_LOG_INFO,
		        "kernel '%s': one work-group of %zu work-items does not fit; retrying with work-groups of %zux%zux%zu%s",
		        L->k->name, wg, L->lsize[0], L->lsize[1], L->lsize[2],
		        L->local_free ? "" : " (its work-items are independent)");
	}
}

/* The launch failed after its enqueue returned: its kernel may have
 * changed some bytes of the buffers it writes (a paged launch after its
 * first range went back, a native one after it was enqueued), or not
 * run at all where the program expects its results. They are refused
 * from now on (vrt_mem_fail), so the program never reads a mix of old
 * and new bytes, nor stale ones, without being told. */
static void fail_written(vrt_launch *L, cl_int err)
{
	vrt_log(VRT_LOG_WARN, "kernel '%s' failed (%s); the buffers it writes may hold part of its results and are refused until rewritten",
	        L->k->name, vrt_cl_error_name(err));
	for (unsigned s = 1; s <= L->nslots; s++)
		if (L->slot_mode[s] & VAST_MODE_W)
			vrt_mem_fail(L->slot_mem[s], L->k->name);
}

/* A launch captured at its enqueue. */
typedef struct launch_cmd {
	vrt_cmd cmd;
	vrt_launch *L;
	int paged;  /* takes the paged path */
	double await_t0; /* when the executor began waiting for its tail */
} launch_cmd;

/* plan()'s answer for a launch that needs its program's analysis, still
 * running (program.c): waited for, then planned again. Never a cl_int
 * error (those are negative). */
#define ANALYSIS_PENDING 2

/* Slots, footprint and path, decided at the enqueue from the captured
 * arguments (lock held): a launch that can run on neither path is
 * refused there, as OpenCL 1.2 §5.8 has clEnqueueNDRangeKernel report
 * CL_MEM_OBJECT_ALLOCATION_FAILURE. One that fits runs natively while
 * vastcc's analysis of its program runs, and waits for it
 * (ANALYSIS_PENDING) only where paging, or a split over VAST_DEVICES,
 * may need it. */
static cl_int plan(launch_cmd *c)
{
	vrt_launch *L = c->L;
	vrt_kernel *k = L->k;
	cl_int err = collect_slots(L);
	if (err != CL_SUCCESS) {
		if (err == CL_OUT_OF_RESOURCES)
			vrt_log(VRT_LOG_WARN, "kernel '%s': more than %d arguments", k->name, VRT_MAX_ARGS);
		return err;
	}
	int uniform = 1;
	for (cl_uint d = 0; d < 3; d++)
		if (L->lsize[d] == 0 || L->gsize[d] % L->lsize[d])
			uniform = 0;
	L->budget = vrt_budget(L->dev, L->footprint);
	const vast_kernel_info *ki = k->info;
	int can_page = ki && ki->virtualizable &&
	               (ki->variants & (VAST_HAS_INSPECT | VAST_HAS_PAGED)) ==
	               (VAST_HAS_INSPECT | VAST_HAS_PAGED) && uniform &&
	               L->nslots <= VAST_MAX_SLOTS && !vrt_variants_failed(k->prog);
	L->can_page = can_page;
	/* Natively, each buffer is one device buffer: none may pass the
	 * device's largest allocation (the H100's 19.8 GiB of 79). */
	unsigned long long maxalloc = vrt_max_alloc(L->dev), largest = 0;
	for (unsigned s = 1; s <= L->nslots; s++)
		if (L->slot_mem[s]->size > largest)
			largest = L->slot_mem[s]->size;
	int one_fits = !maxalloc || largest <= maxalloc;
	int fits = L->footprint <= L->budget && one_fits;
	c->paged = can_page && (vrt_cfg.mode == VRT_RUN_PAGED || !fits);
	cl_device_id others[VRT_MAX_DEVICES];
	int analysing = !ki && vrt_program_analysing(k->prog);
	if (analysing && (vrt_cfg.mode == VRT_RUN_PAGED || !fits || vrt_devices_others(L->dev, others)))
		return ANALYSIS_PENDING;
	/* The variants' program is built the first time a launch may page:
	 * one that does, or one whose buffers take half the budget (the next
	 * may pass it), in the background from here (variants.c), or once
	 * the program's analysis is taken into it. */
	if ((can_page || analysing) && (c->paged || L->footprint > L->budget / 2 || !one_fits))
		vrt_program_may_page(k->prog, c->paged ? "a launch pages"
		                                       : "a launch's buffers take half the budget");
	if (fits || c->paged)
		return CL_SUCCESS;
	const char *why = !ki ? "its program was not compiled by vastcc"
	                  : !ki->virtualizable ? (ki->reason ? ki->reason : "not virtualizable")
	                  : vrt_variants_failed(k->prog) ? "the variants vastcc generated do not build"
	                  : !uniform ? "its global size is not a multiple of its local size"
	                  : L->nslots > VAST_MAX_SLOTS ? "it has more distinct buffer arguments than a launch can page"
	                  : "vastcc generated no paged variant";
	if (one_fits)
		vrt_log(VRT_LOG_WARN, "kernel '%s' needs %llu bytes of buffers, more than the budget of %llu, and cannot be paged: %s%s%s",
		        k->name, L->footprint, L->budget, why,
		        ki && ki->location ? " at " : "", ki && ki->location ? ki->location : "");
	else
		vrt_log(VRT_LOG_WARN, "kernel '%s' has a buffer of %llu bytes, more than the device's largest allocation of %llu, and cannot be paged: %s%s%s",
		        k->name, largest, maxalloc, why,
		        ki && ki->location ? " at " : "", ki && ki->location ? ki->location : "");
	return CL_MEM_OBJECT_ALLOCATION_FAILURE;
}

static cl_int run_launch(vrt_cmd *cmd, cl_command_queue q);

static int first_behind(void *ctx, const vrt_cmd *n)
{
	*(const vrt_cmd **)ctx = n;
	return 0;
}

/* The launch queued right behind c (the command running) that may run
 * fused with it: paged too, on the same geometry, with no wait list and
 * nothing of the program's own between them, another kernel object
 * (their variants' arguments differ), local sizes the program chose (a
 * launch that picks its own may halve them, run_paged), on one device
 * (VAST_DEVICES splits launches instead), neither holding an event of
 * the program's (its status and profiling times measure its command
 * alone). NULL: none. Only a launch already queued when c starts is
 * seen: a program that enqueues its kernels back to back, non-blocking,
 * has them queued. */
static launch_cmd *fusable_next(const launch_cmd *c)
{
	const vrt_cmd *n = NULL;
	cl_device_id others[VRT_MAX_DEVICES];
	if (!vrt_cfg.fuse || vrt_devices_others(c->L->dev, others))
		return NULL;
	vrt_queue_behind(first_behind, &n);
	if (!n || n->run != run_launch || n->nwait || n->pre || n->absorbed || n->ev ||
	    c->cmd.ev)
		return NULL;
	launch_cmd *d = (launch_cmd *)n;
	const vrt_launch *A = c->L, *B = d->L;
	if (!d->paged || B->k == A->k || A->local_free || B->local_free || A->dim != B->dim ||
	    A->dev != B->dev)
		return NULL;
	for (unsigned i = 0; i < 3; i++)
		if (A->gsize[i] != B->gsize[i] || A->lsize[i] != B->lsize[i] ||
		    A->goff[i] != B->goff[i])
			return NULL;
	return d;
}

/* Runs c's launch and d's, queued right behind it, range by range
 * together (paged.c, vrt_paged_run_fused), so that what c's kernel
 * writes for d's never goes home and comes back between them
 * (mersennetwister's numbers, then Box-Muller on them: three times its
 * data over the link at a quarter of it, once fused). 1 when they ran:
 * *err is the pair's result, d's run returns it too (absorbed); 0 when
 * they may not be fused, nothing run. Lock held. */
static int run_fused(launch_cmd *c, launch_cmd *d, cl_int *err)
{
	vrt_launch *A = c->L, *B = d->L;
	vrt_launch F1 = *A, F2 = *B;
	unsigned mode1[VAST_MAX_SLOTS + 1] = {0}, to[VRT_MAX_ARGS + 1] = {0};
	for (unsigned s = 1; s <= A->nslots; s++)
		mode1[s] = A->slot_mode[s];
	/* B's buffers into A's slots, those A lacks after them. */
	for (unsigned t = 1; t <= B->nslots; t++) {
		vrt_mem *m = B->slot_mem[t];
		unsigned s;
		for (s = 1; s <= F1.nslots && F1.slot_mem[s] != m; s++)
			;
		if (s > F1.nslots) {
			if (F1.nslots == VAST_MAX_SLOTS || vrt_mem_check(m) != CL_SUCCESS)
				return 0;
			s = ++F1.nslots;
			F1.slot_mem[s] = m;
			F1.slot_mode[s] = 0;
			F1.slot_inspect_reads[s] = 0;
			F1.footprint += m->size;
		}
		to[t] = s;
	}
	for (cl_uint i = 0; i < B->k->nargs; i++)
		F2.arg_slot[i] = to[B->arg_slot[i]];
	memset(F2.slot_mode, 0, sizeof F2.slot_mode);
	memset(F2.slot_inspect_reads, 0, sizeof F2.slot_inspect_reads);
	for (unsigned t = 1; t <= B->nslots; t++) {
		F2.slot_mode[to[t]] |= B->slot_mode[t];
		F2.slot_inspect_reads[to[t]] |= B->slot_inspect_reads[t];
	}
	/* Only a pair where the second reads what the first writes, of a
	 * buffer larger than the budget, gains: unfused, all but what the
	 * frames keep goes home and comes back. Two kernels that share only
	 * what they read (fdtd2d's ey and ex, both reading hz) or a buffer
	 * the budget holds find it in the kept frames, the hold or kept
	 * whole, which a fused launch goes without (fdtd2d's ex and hz fused
	 * at half its data on PoCL: 42.1 MB moved against 31.8). */
	F1.budget = F2.budget = vrt_budget(A->dev, F1.footprint);
	int feeds = 0;
	for (unsigned s = 1; s <= F1.nslots; s++) {
		feeds |= (mode1[s] & VAST_MODE_W) && (F2.slot_mode[s] & VAST_MODE_R) &&
		         F1.slot_mem[s]->size > F1.budget;
		F1.slot_mode[s] |= F2.slot_mode[s];
		F1.slot_inspect_reads[s] |= F2.slot_inspect_reads[s];
	}
	if (!feeds)
		return 0;
	/* Buffers of one sub-buffer family alias each other's bytes. */
	for (unsigned a = 1; a <= F1.nslots; a++)
		for (unsigned b = a + 1; b <= F1.nslots; b++)
			if (vrt_mem_overlap(F1.slot_mem[a], F1.slot_mem[b]))
				return 0;
	F2.nslots = F1.nslots;
	memcpy(F2.slot_mem, F1.slot_mem, sizeof F2.slot_mem);
	F1.may_defer = 0;
	F1.tail = NULL;
	d->cmd.absorbed = 1;
	cl_int e = vrt_paged_run_fused(&F1, &F2, mode1);
	if (e == VRT_NOT_FUSED) {
		d->cmd.absorbed = 0;
		return 0;
	}
	vrt_log(VRT_LOG_INFO, "kernel '%s' and kernel '%s' after it: run range by range together",
	        A->k->name, B->k->name);
	A->partial = F1.partial;
	d->cmd.absorbed_err = *err = e;
	return 1;
}

/* The launch, on the executor (lock held); its device work on q. */
static cl_int run_launch(vrt_cmd *cmd, cl_command_queue q)
{
	launch_cmd *c = (launch_cmd *)cmd;
	vrt_launch *L = c->L;
	/* Run with the launch before it (run_fused): its time is that one's. */
	if (cmd->absorbed) {
		L->st->paged++;
		return cmd->absorbed_err;
	}
	/* VAST_STATS total_ms: the time the launch ran, from here, and its
	 * tail's wait (finish_launch), never the time it waited in the queue
	 * behind others: those overlap, and their sum passed the run's. */
	double t0 = vrt_now_ms();
	/* Its buffers sent whole (kept on the device, or run natively) are
	 * its bytes: the program may have enqueued other kernels since. */
	vrt_stats_running(L->st);
	L->q = q;
	L->may_defer = cmd->may_defer;
	cl_int err = CL_SUCCESS;
	/* A command before it may have failed on one of its buffers. */
	for (unsigned s = 1; s <= L->nslots && err == CL_SUCCESS; s++)
		err = vrt_mem_check(L->slot_mem[s]);
	/* Only the paged path on this device copies pending writes range by
	 * range (pending.c): any other gets them whole now. */
	if (!c->paged)
		vrt_pend_settle_all();
	int split = 0;
	if (err == CL_SUCCESS && (split = vrt_multi_run(L, &err))) {
		/* split over the devices of VAST_DEVICES (multi.c) */
		L->st->split++;
	} else if (err == CL_SUCCESS && c->paged) {
		L->st->paged++;
		vrt_log(VRT_LOG_INFO, "kernel '%s': %llu bytes of buffers, budget %llu: paged",
		        L->k->name, L->footprint, L->budget);
		launch_cmd *d = fusable_next(c);
		/* moves its written buffers' versions on itself */
		if (!d || !run_fused(c, d, &err))
			err = run_paged(L);
	} else if (err == CL_SUCCESS) {
		err = run_native(L);
	}
	/* A split launch changed its written buffers: kept plans that read
	 * them are stale (plans.c). Where their bytes now are it recorded
	 * in the directory itself (multi.c, resident.c), as a paged launch
	 * does as it goes (paged/writeback.c, record_home). */
	for (unsigned s = 1; split && s <= L->nslots; s++)
		if (L->slot_mode[s] & VAST_MODE_W)
			vrt_mem_changed(L->slot_mem[s]);
	cmd->deferred = L->tail != NULL;
	L->st->total_ms += vrt_now_ms() - t0;
	return err;
}

/* The launch will page m on its own device, with no wait list: it may
 * copy a whole write of m queued just before it itself, range by range
 * (pending.c); what its inspector reads, if one runs, it copies whole
 * first (inspect.c). */
static int takes_pending(const vrt_cmd *cmd, const vrt_mem *m)
{
	const launch_cmd *c = (const launch_cmd *)cmd;
	const vrt_launch *L = c->L;
	cl_device_id others[VRT_MAX_DEVICES];
	if (!c->paged || cmd->nwait || vrt_devices_others(L->dev, others))
		return 0;
	for (unsigned s = 1; s <= L->nslots; s++)
		if (L->slot_mem[s] == m)
			return 1;
	return 0;
}

/* The launch reads or writes m's bytes: m, or a buffer of its family
 * that shares bytes with it, is an argument (evict.c's look-ahead). */
static int uses(const vrt_cmd *cmd, const vrt_mem *m)
{
	const vrt_launch *L = ((const launch_cmd *)cmd)->L;
	for (unsigned s = 1; s <= L->nslots; s++)
		if (vrt_mem_overlap(L->slot_mem[s], m))
			return 1;
	return 0;
}

/* The launch pages on dev of ctx (as planned at its enqueue), taking the
 * frame pool kept there: the pool's look-ahead (mem/room.c). A share of
 * a split launch takes none. */
static int pages_on(const vrt_cmd *cmd, cl_context ctx, cl_device_id dev)
{
	const launch_cmd *c = (const launch_cmd *)cmd;
	return c->paged && c->L->ctx == ctx && c->L->dev == dev;
}

/* Its device work's end, waited for without the lock (queue.c). */
static void await_launch(vrt_cmd *cmd)
{
	launch_cmd *c = (launch_cmd *)cmd;
	c->await_t0 = vrt_now_ms();
	vrt_tail_wait(c->L->tail);
}

/* What the launch left in flight (run_launch), after the next command. */
static cl_int finish_launch(vrt_cmd *cmd)
{
	launch_cmd *c = (launch_cmd *)cmd;
	vrt_launch *L = c->L;
	/* From the wait for its device work (await_launch), which is the
	 * launch's running: the executor ran the next command meanwhile,
	 * which counts its own time. */
	double t0 = c->await_t0 ? c->await_t0 : vrt_now_ms();
	cl_int err = vrt_tail_finish(L->tail, L->k->name, L->st, L->group_base);
	L->tail = NULL;
	L->st->total_ms += vrt_now_ms() - t0;
	L->st->overlapped += cmd->overlapped;
	return err;
}

static void fail_launch(vrt_cmd *c, cl_int err)
{
	fail_written(((launch_cmd *)c)->L, err);
}

static void drop_launch(vrt_cmd *c)
{
	vrt_launch *L = ((launch_cmd *)c)->L;
	for (cl_uint i = 0; L->args && i < L->k->nargs; i++) {
		vrt_free(L->args[i].bytes);
		if (L->args[i].mem)
			vrt_mem_unhold(L->args[i].mem);
	}
	vrt_free(L->args);
	vrt_kernel_release(L->k);
	vrt_free(L);
}

/* The arguments of k as they are now, buffers held (lock held). */
static cl_int capture_args(vrt_launch *L)
{
	vrt_kernel *k = L->k;
	L->args = vrt_calloc(k->nargs ? k->nargs : 1, sizeof *L->args);
	if (!L->args)
		return CL_OUT_OF_HOST_MEMORY;
	for (cl_uint i = 0; i < k->nargs; i++) {
		vrt_arg *a = &L->args[i];
		*a = k->args[i];
		if (a->bytes) {
			a->bytes = vrt_malloc(a->size);
			if (!a->bytes) {
				a->mem = NULL;
				return CL_OUT_OF_HOST_MEMORY;
			}
			memcpy(a->bytes, k->args[i].bytes, a->size);
		}
		if (a->mem)
			vrt_mem_hold(a->mem);
	}
	return CL_SUCCESS;
}

/* The front half of clEnqueueNDRangeKernel: the errors of OpenCL 1.2
 * §5.8 that depend only on the arguments, then the launch captured and
 * submitted. */
static cl_int launch(cl_command_queue q, vrt_kernel *k, cl_uint dim, const size_t *goff,
                     const size_t *gsize, const size_t *lsize, cl_uint nw,
                     const cl_event *w, cl_event *ev, cl_command_type type)
{
	double c0 = vrt_now_ms();
	int coming = 0; /* the queue was told this launch is coming */
	if (dim < 1 || dim > 3)
		return CL_INVALID_WORK_DIMENSION;
	if (!gsize)
		return CL_INVALID_GLOBAL_WORK_SIZE;
	cl_context ctx;
	cl_device_id dev;
	cl_int err = vrt_queue_info(q, &ctx, &dev);
	if (err == CL_SUCCESS)
		err = vrt_check_wait_list(nw, w);
	if (err != CL_SUCCESS)
		return err;
	launch_cmd *c = vrt_calloc(1, sizeof *c);
	vrt_launch *L = vrt_calloc(1, sizeof *L);
	if (!c || !L) {
		vrt_free(c);
		vrt_free(L);
		return CL_OUT_OF_HOST_MEMORY;
	}
	L->k = k;
	L->dim = dim;
	L->ctx = ctx;
	L->dev = dev;
	for (cl_uint d = 0; d < 3; d++) {
		L->gsize[d] = d < dim ? gsize[d] : 1;
		L->goff[d] = d < dim && goff ? goff[d] : 0;
		L->lsize[d] = d < dim && lsize ? lsize[d] : 1;
		if (L->gsize[d] == 0) {
			err = CL_INVALID_GLOBAL_WORK_SIZE;
			goto fail;
		}
	}
	c->L = L;
	c->cmd.run = run_launch;
	c->cmd.fail = fail_launch;
	c->cmd.drop = drop_launch;
	c->cmd.finish = finish_launch;
	c->cmd.await = await_launch;
	c->cmd.overlaps = 1;
	c->cmd.takes_pending = takes_pending;
	c->cmd.uses = uses;
	c->cmd.pages_on = pages_on;
	/* One hold of the lock an enqueue: the executor holds it for a whole
	 * launch, so each hold may wait for one. */
	vrt_lock();
	for (cl_uint i = 0; i < k->nargs && err == CL_SUCCESS; i++)
		if (!k->args[i].set)
			err = CL_INVALID_KERNEL_ARGS;
	size_t maxwg;
	if (err == CL_SUCCESS && (err = check_local(L, lsize, &maxwg)) == CL_SUCCESS && !lsize) {
		choose_local(L, maxwg < 256 ? maxwg : 256);
		L->local_free = 1;
	}
	if (err != CL_SUCCESS) {
		vrt_unlock();
		goto fail;
	}
	L->groups = 1;
	for (cl_uint d = 0; d < 3; d++) {
		L->ngroups[d] = L->lsize[d] ? L->gsize[d] / L->lsize[d] : 0;
		L->groups *= L->ngroups[d];
	}
	k->refs++; /* released by drop_launch */
	err = capture_args(L);
	if (err == CL_SUCCESS) {
		L->st = vrt_stats_for(k->name);
		if (!L->st)
			err = CL_OUT_OF_HOST_MEMORY;
		else
			L->st->launches++;
	}
	if (err == CL_SUCCESS) {
		vrt_program_analysis_poll(k->prog);
		vrt_kernel_take_info(k);
		err = plan(c);
	}
	while (err == ANALYSIS_PENDING) {
		/* It may page: vastcc's analysis of its program is waited for
		 * here, the lock free, then it is planned again with it. */
		if (!coming)
			vrt_queue_coming(q, 1);
		coming = 1;
		vrt_unlock();
		vrt_program_analysis_wait(k->prog);
		vrt_lock();
		vrt_kernel_take_info(k);
		L->nslots = 0;
		L->footprint = 0;
		err = plan(c);
	}
	if (err == CL_SUCCESS && c->paged && !vrt_variants_ready(k->prog)) {
		/* It needs its program's variants (variants.c): waited for here,
		 * the lock free for the commands before it, so that a build that
		 * fails is this launch's to tell. Then planned again: natively
		 * when it fits, else refused as a program vastcc did not
		 * compile would be. */
		if (!coming)
			vrt_queue_coming(q, 1);
		coming = 1;
		vrt_unlock();
		cl_int built = vrt_variants_wait(k->prog);
		vrt_lock();
		if (built != CL_SUCCESS) {
			L->nslots = 0;
			L->footprint = 0;
			err = plan(c);
		}
	}
	if (err != CL_SUCCESS)
		drop_launch(&c->cmd);
	vrt_unlock();
	if (err != CL_SUCCESS) {
		if (coming)
			vrt_queue_coming(q, -1);
		vrt_free(c);
		return err;
	}
	/* k may go with the command once submitted: its name is copied. */
	char *kn = vrt_cfg.trace ? vrt_strdup(k->name) : NULL;
	err = vrt_submit(&c->cmd, q, type, CL_FALSE, nw, w, ev);
	if (coming)
		vrt_queue_coming(q, -1);
	if (kn)
		vrt_trace_host("submit", kn, c0, vrt_now_ms(), -1, 0);
	vrt_free(kn);
	return err;
fail:
	vrt_free(c);
	vrt_free(L);
	return err;
}

cl_int vrt_api_clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel kernel,
	cl_uint dim, const size_t *goff, const size_t *gsize, const size_t *lsize,
	cl_uint nw, const cl_event *w, cl_event *ev)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_kernel *k = vrt_kernel_of(kernel);
	if (!k)
		return vrt_object_ours(kernel) ? CL_INVALID_KERNEL
		       : vrt_forwarded(q, vrt_real.clEnqueueNDRangeKernel(q, kernel, dim, goff, gsize,
		                                                          lsize, nw, w, ev));
	return launch(q, k, dim, goff, gsize, lsize, nw, w, ev, CL_COMMAND_NDRANGE_KERNEL);
}

cl_int vrt_api_clEnqueueTask(cl_command_queue q, cl_kernel kernel,
	cl_uint nw, const cl_event *w, cl_event *ev)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_kernel *k = vrt_kernel_of(kernel);
	if (!k)
		return vrt_object_ours(kernel) ? CL_INVALID_KERNEL
		       : vrt_forwarded(q, vrt_real.clEnqueueTask(q, kernel, nw, w, ev));
	size_t one = 1;
	return launch(q, k, 1, NULL, &one, &one, nw, w, ev, CL_COMMAND_TASK);
}
