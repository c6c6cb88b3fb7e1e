/* SPDX-License-Identifier: MIT */
/*
 * bw - host<->device copy bandwidth through OpenCL, the yardstick for the
 * streaming workloads: clEnqueueWrite/ReadBuffer of SIZE bytes (default
 * 1 GiB) from pinned memory (a CL_MEM_ALLOC_HOST_PTR buffer, mapped: the
 * driver's page-locked staging) and from pageable malloc'd memory, in
 * both directions, best of REPS (default 5) after one warm-up copy.
 *
 * Then both directions at once (mode=duplex): a pinned write of SIZE and
 * a pinned read of SIZE/2 on two queues, started together, each timed by
 * its own event: the link's rate each way while the other way is busy,
 * the bound of a launch that streams its inputs in while its outputs
 * come back (the triad: 2 bytes in for 1 out).
 *
 * usage: bw [-q] [SIZE [REPS]]
 * Prints one line per case:
 *   bw: mode=pinned|pageable|duplex dir=h2d|d2h bytes=N seconds=S gbps=G
 * Uses the device vast_example.h picks (VAST_EXAMPLE_DEVICE).
 */
#include "vast_example.h"

static double best_copy(vex_cl *cl, cl_mem dev, void *host, size_t size, int h2d,
                        int reps)
{
	double best = 1e30;
	for (int r = -1; r < reps; r++) {   /* r = -1: warm-up, not timed */
		double t = vex_now();
		if (h2d)
			CHECK(clEnqueueWriteBuffer(cl->queue, dev, CL_TRUE, 0, size, host, 0,
			                           NULL, NULL));
		else
			CHECK(clEnqueueReadBuffer(cl->queue, dev, CL_TRUE, 0, size, host, 0,
			                          NULL, NULL));
		t = vex_now() - t;
		if (r >= 0 && t < best)
			best = t;
	}
	return best;
}

static double event_seconds(cl_event e)
{
	cl_ulong t0, t1;
	CHECK(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
	CHECK(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
	return (double)(t1 - t0) * 1e-9;
}

/* A write of size bytes and a read of size/2 at once, on two queues; the
 * best of reps of each direction's own time. */
static void duplex(vex_cl *cl, cl_mem dev, void *in, void *out, size_t size, int reps,
                   double *h2d, double *d2h)
{
	cl_int err;
	cl_command_queue qi = clCreateCommandQueue(cl->ctx, cl->device, CL_QUEUE_PROFILING_ENABLE, &err);
	CHECK_ERR(err, "clCreateCommandQueue");
	cl_command_queue qo = clCreateCommandQueue(cl->ctx, cl->device, CL_QUEUE_PROFILING_ENABLE, &err);
	CHECK_ERR(err, "clCreateCommandQueue");
	*h2d = *d2h = 1e30;
	for (int r = -1; r < reps; r++) {
		cl_event ei, eo;
		CHECK(clEnqueueWriteBuffer(qi, dev, CL_FALSE, 0, size, in, 0, NULL, &ei));
		CHECK(clEnqueueReadBuffer(qo, dev, CL_FALSE, size / 2, size / 2, out, 0, NULL, &eo));
		CHECK(clFlush(qi));
		CHECK(clFlush(qo));
		CHECK(clFinish(qi));
		CHECK(clFinish(qo));
		double ti = event_seconds(ei), to = event_seconds(eo);
		if (r >= 0 && ti < *h2d)
			*h2d = ti;
		if (r >= 0 && to < *d2h)
			*d2h = to;
		clReleaseEvent(ei);
		clReleaseEvent(eo);
	}
	clReleaseCommandQueue(qi);
	clReleaseCommandQueue(qo);
}

static void report(const char *mode, const char *dir, size_t size, double s)
{
	printf("bw: mode=%s dir=%s bytes=%zu seconds=%.6f gbps=%.2f\n", mode, dir, size, s,
	       (double)size / s * 1e-9);
}

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 2, .sizes = { 1u << 30, 5 } };
	vex_parse_args(&a, argc, argv, "[SIZE [REPS]]");
	size_t size = a.sizes[0];
	int reps = (int)a.sizes[1];
	cl_int err;

	vex_cl cl;
	vex_init(&cl, a.quiet);
	cl_mem dev = vex_buffer(&cl, CL_MEM_READ_WRITE, size, NULL);

	cl_mem pin = vex_buffer(&cl, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, size, NULL);
	void *p = clEnqueueMapBuffer(cl.queue, pin, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
	                             size, 0, NULL, NULL, &err);
	CHECK_ERR(err, "clEnqueueMapBuffer");
	memset(p, 1, size);
	report("pinned", "h2d", size, best_copy(&cl, dev, p, size, 1, reps));
	report("pinned", "d2h", size, best_copy(&cl, dev, p, size, 0, reps));
	{
		cl_mem pin2 = vex_buffer(&cl, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, size / 2, NULL);
		void *q = clEnqueueMapBuffer(cl.queue, pin2, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
		                             size / 2, 0, NULL, NULL, &err);
		CHECK_ERR(err, "clEnqueueMapBuffer");
		memset(q, 2, size / 2);
		double th, td;
		duplex(&cl, dev, p, q, size, reps, &th, &td);
		report("duplex", "h2d", size, th);
		report("duplex", "d2h", size / 2, td);
		CHECK(clEnqueueUnmapMemObject(cl.queue, pin2, q, 0, NULL, NULL));
		CHECK(clFinish(cl.queue));
		clReleaseMemObject(pin2);
	}
	CHECK(clEnqueueUnmapMemObject(cl.queue, pin, p, 0, NULL, NULL));
	CHECK(clFinish(cl.queue));
	clReleaseMemObject(pin);

	char *m = vex_malloc(size);
	memset(m, 1, size);
	report("pageable", "h2d", size, best_copy(&cl, dev, m, size, 1, reps));
	report("pageable", "d2h", size, best_copy(&cl, dev, m, size, 0, reps));
	free(m);

	clReleaseMemObject(dev);
	vex_release(&cl);
	return 0;
}
