/* SPDX-License-Identifier: MIT */
/*
 * tail.c - the end of a launch, seen after the next one was enqueued.
 *
 * A launch that leaves the host nothing to do after its kernel (a
 * native one; a paged one whose last ranges send nothing home) returns
 * with those commands in flight, recorded here. The executor (queue.c)
 * completes it after it enqueued the next launch, so the device runs
 * the next kernel while the host waits for this one, instead of idling
 * between a launch's end and the next one's start. Completing checks
 * what the launch would have checked before returning: the commands'
 * status, and each paged range's fault word.
 */
#include "paged/paged.h"

static cl_event last_of(const cl_event ev[2])
{
	return ev[1] ? ev[1] : ev[0];
}

cl_int vrt_tail_check(const char *kernel, const vrt_tail_range *r, vrt_kstats *st,
                      size_t group_base)
{
	vrt_trace_device("H2D", kernel, r->qin, r->in[0], r->in[1], r->range, r->in_bytes);
	cl_event first = r->run0 ? r->run0 : r->run;
	vrt_trace_device("kernel", kernel, r->qrun, first, r->run0 ? r->run : NULL, r->range, 0);
	vrt_trace_device("D2H", kernel, r->qout, r->out[0], r->out[1], r->range, r->out_bytes);
	/* The last kernel's end does not say how the ones before it ended. */
	cl_int status = CL_COMPLETE;
	if (r->run0 &&
	    (vrt_real.clGetEventInfo(r->run0, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
	                             &status, NULL) != CL_SUCCESS || status < 0)) {
		vrt_log(VRT_LOG_WARN, "kernel '%s': range %ld failed on the device", kernel, r->range);
		return status < 0 ? status : CL_INVALID_OPERATION;
	}
	cl_ulong k0 = 0, k1 = 0;
	if (r->timed &&
	    vrt_real.clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof k0, &k0,
	                                     NULL) == CL_SUCCESS &&
	    vrt_real.clGetEventProfilingInfo(r->run, CL_PROFILING_COMMAND_END, sizeof k1, &k1,
	                                     NULL) == CL_SUCCESS)
		st->kernel_ms += k1 > k0 ? (double)(k1 - k0) / 1e6 : 0;
	if (r->range < 0)
		return CL_SUCCESS;
	/* VAST_FAIL_RANGE (a testing knob): this range faulted. The shares
	 * of a split launch check theirs on several threads. */
	static unsigned long long paged;
	if ((r->fault && *r->fault) ||
	    (vrt_cfg.fail_range &&
	     __atomic_add_fetch(&paged, 1, __ATOMIC_RELAXED) == vrt_cfg.fail_range)) {
		vrt_log(VRT_LOG_WARN, "kernel '%s': range %ld (work-groups %zu..%zu) touched a page its inspector did not mark; refusing the result",
		        kernel, r->range, group_base + r->g0, group_base + r->g1 - 1);
		return CL_INVALID_OPERATION;
	}
	st->ranges++;
	return CL_SUCCESS;
}

static void release(vrt_tail_range *r)
{
	cl_event *all[] = {&r->in[0], &r->in[1], &r->run0, &r->run, &r->out[0], &r->out[1]};
	for (size_t i = 0; i < sizeof all / sizeof *all; i++)
		if (*all[i]) {
			vrt_real.clReleaseEvent(*all[i]);
			*all[i] = NULL;
		}
}

static cl_event end_of(const vrt_tail_range *r)
{
	return r->out[0] ? last_of(r->out) : r->run;
}

void vrt_tail_wait(const vrt_tail *t)
{
	for (unsigned i = 0; t && i < t->n; i++) {
		cl_event end = end_of(&t->r[i]);
		if (end)
			vrt_real.clWaitForEvents(1, &end); /* its status: vrt_tail_finish */
	}
}

cl_int vrt_tail_finish(vrt_tail *t, const char *kernel, vrt_kstats *st, size_t group_base)
{
	cl_int err = CL_SUCCESS;
	for (unsigned i = 0; t && i < t->n; i++) {
		vrt_tail_range *r = &t->r[i];
		if (!r->run)
			continue;
		cl_event end = end_of(r);
		cl_int e = vrt_real.clWaitForEvents(1, &end);
		double t0 = vrt_now_ms();
		if (e == CL_SUCCESS)
			e = vrt_tail_check(kernel, r, st, group_base);
		/* A paged range's fault check is its scatter, as in paged.c. */
		if (r->range >= 0)
			vrt_trace_host("scatter", kernel, t0, vrt_now_ms(), r->range, 0);
		if (!err)
			err = e;
		release(r);
	}
	vrt_free(t);
	/* The kept frame sets were recorded with a clear fault word when
	 * their ranges were deferred (paged.c), and a launch that failed
	 * keeps none (sets.c, drop_sets): let them go. */
	if (err != CL_SUCCESS)
		vrt_framepool_release();
	return err;
}
