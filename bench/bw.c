/* SPDX-License-Identifier: MIT */
/*
 * bw - host<->device copy bandwidth through OpenCL, the yardstick for the
 * streaming workloads: clEnqueueWrite/ReadBuffer of SIZE bytes (default
 * 1 GiB) from pinned memory (a CL_MEM_ALLOC_HOST_PTR buffer, mapped: the
 * driver's page-locked staging) and from pageable malloc'd memory, in
 * both directions, best of REPS (default 5) after one warm-up copy.
 *
 * usage: bw [-q] [SIZE [REPS]]
 * Prints one line per case:
 *   bw: mode=pinned|pageable dir=h2d|d2h bytes=N seconds=S gbps=G
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
