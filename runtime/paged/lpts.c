/* SPDX-License-Identifier: MIT */
/*
 * lpts.c - every range's look-ahead page table of a plan on the device
 * at once.
 *
 * A range's kernel reads its LPT (docs/generated-kernels.md) from the
 * buffer bound as its vast_lpt argument. Sent range by range, each range
 * paid a write, and a compare to skip the unchanged ones, on the host's
 * way to its kernel. A kept plan's tables never change (plans.c,
 * plancache.c: plan_tables), so they go to the device once, each in a buffer
 * of its own made from it (CL_MEM_COPY_HOST_PTR: no command, nothing to
 * order against the queues), and range r binds its table's buffer.
 *
 * Made when a plan asks a second time, not the first (its tables exist
 * from its second launch: plancache.c plan_tables). On NVIDIA's driver a
 * kernel's first use of such a buffer made its enqueue wait for the
 * commands before it on the other queues to end: matrixmul at a quarter
 * of 4 GiB on the H200 (one launch, 14 ranges) took 0.40 s with the
 * tables in sub-buffers of one buffer or in a buffer each alike, against
 * 0.354 s with each range's table sent as it starts. Made from the third
 * launch, the
 * cost falls once on an iterative program's plan, not on every launch
 * of one launched once or twice, which sends its tables range by range
 * as before. More plans taking turns than the pool keeps never ask twice
 * within the ring of those that asked: they never make tables, rather
 * than make them again every launch.
 *
 * A pool keeps the tables of VRT_DEVLPTS_KEPT plans (an iterative
 * program alternates a few: a ping-pong stencil two, fdtd2d three), the
 * least recently used released first. A buffer is never written after it
 * is made, so a kernel still in flight that reads one it releases is
 * safe: the kernel holds it until it ends (OpenCL 1.2 §5.4.1). A plan
 * that is not kept (a split launch's share, a fused launch) is launched
 * once: its ranges send their own. Lock held (or, for a share, d is the
 * share's alone).
 */
#include <string.h>

#include "paged/paged.h"

/* Makes t: n tables of `words` words at `tables`, a buffer each. 0, or
 * -1 (t left empty). */
static int make(vrt_devlpts *t, cl_context ctx, const uint32_t *tables, size_t n, size_t words)
{
	cl_int err;
	size_t lb = words * sizeof(uint32_t);
	memset(t, 0, sizeof *t);
	if (!(t->range = vrt_calloc(n, sizeof *t->range)))
		goto fail;
	t->n = n;
	t->bytes = n * lb;
	for (size_t r = 0; r < n; r++) {
		/* The driver copies the table at creation: the host's stays
		 * with the plan. */
		t->range[r] = vrt_real.clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, lb,
		                                      (void *)(tables + r * words), &err);
		if (!t->range[r])
			goto fail;
	}
	return 0;
fail:
	vrt_log(VRT_LOG_DEBUG, "%zu LPTs of %zu bytes not made on the device at once: sent range by range",
	        n, lb);
	vrt_devlpts_release(t);
	return -1;
}

/* Whether plan asked before (among the last ones that asked); records
 * it when not. */
static int asked_before(vrt_devsets *d, unsigned long long plan)
{
	unsigned n = sizeof d->lpts_asked / sizeof *d->lpts_asked;
	for (unsigned i = 0; i < n; i++)
		if (d->lpts_asked[i] == plan)
			return 1;
	d->lpts_asked[d->lpts_asked_next++ % n] = plan;
	return 0;
}

const cl_mem *vrt_lpts_on_device(vrt_devsets *d, cl_context ctx,
                                 unsigned long long plan,
                                 const uint32_t *tables, size_t n, size_t words,
                                 unsigned long long max_bytes)
{
	vrt_devlpts *t = NULL;
	for (unsigned i = 0; plan && i < VRT_DEVLPTS_KEPT; i++) {
		vrt_devlpts *e = &d->lpts[i];
		if (e->plan == plan) {
			e->used = ++d->lpts_clock;
			return e->range;
		}
		if (!t || e->used < t->used)
			t = e;
	}
	size_t lb = words * sizeof(uint32_t);
	if (!n || !lb || n * lb / n != lb || n * lb > max_bytes)
		return NULL;
	/* A plan not kept is launched once: its tables range by range. */
	if (!plan)
		return NULL;
	if (!asked_before(d, plan))
		return NULL;
	vrt_devlpts_release(t);
	if (make(t, ctx, tables, n, words))
		return NULL;
	t->plan = plan;
	t->used = ++d->lpts_clock;
	return t->range;
}
