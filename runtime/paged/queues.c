/* SPDX-License-Identifier: MIT */
/*
 * queues.c - the paged path's own three queues on a device of a context
 * (H2D, kernels, D2H), made once and kept: a launch's ranges enqueue on
 * them, joined by events (paged.c).
 */
#include "paged/paged_int.h"

static queues *all_queues;

static queues *make_queues(cl_context ctx, cl_device_id dev, cl_int *err)
{
	queues *q;
	for (q = all_queues; q; q = q->next)
		if (q->ctx == ctx && q->dev == dev)
			return q;
	if (!(q = vrt_calloc(1, sizeof *q))) {
		*err = CL_OUT_OF_HOST_MEMORY;
		return NULL;
	}
	cl_command_queue_properties pr = CL_QUEUE_PROFILING_ENABLE;
	if (!(q->in = vrt_queue_create(ctx, dev, pr, err)) ||
	    !(q->run = vrt_queue_create(ctx, dev, pr, err)) ||
	    !(q->out = vrt_queue_create(ctx, dev, pr, err))) {
		if (q->in)
			vrt_real.clReleaseCommandQueue(q->in);
		if (q->run)
			vrt_real.clReleaseCommandQueue(q->run);
		vrt_free(q);
		return NULL;
	}
	vrt_trace_queue(q->in, "queue H2D");
	vrt_trace_queue(q->run, "queue kernels");
	vrt_trace_queue(q->out, "queue D2H");
	clRetainContext(ctx);
	q->ctx = ctx;
	q->dev = dev;
	q->next = all_queues;
	all_queues = q;
	return q;
}

/* The shares of a split launch (multi.c) run paged launches on several
 * threads at once, the runtime lock held by their caller: the list has
 * a lock of its own. */
queues *vrt_paged_queues_for(cl_context ctx, cl_device_id dev, cl_int *err)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	pthread_mutex_lock(&lock);
	queues *q = make_queues(ctx, dev, err);
	pthread_mutex_unlock(&lock);
	return q;
}
