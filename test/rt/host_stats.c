/* SPDX-License-Identifier: MIT */
/*
 * host_stats.c - programs for the runtime's statistics, trace and
 * progress line (stats.sh):
 *   queue N   enqueues N launches of vadd without waiting, then reads c
 *             back (a blocking read): every launch but the first waits in
 *             the queue behind the others;
 *   loop      launches vadd and waits for it, for ever, saying "ready" on
 *             stdout after the first (a run to kill);
 *   graceful  the same, with a SIGTERM handler of its own, installed
 *             before its first OpenCL call, that makes it stop, read c
 *             back and exit 0;
 *   big       one launch of vadd on 16 MiB buffers (paged in many ranges
 *             at a small budget: the progress line).
 * Usage: host_stats vadd.cl MODE [N]
 */
#include <signal.h>

#include "rt_host.h"

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	const char *mode = argv[2];
	int graceful = !strcmp(mode, "graceful");
	if (graceful)
		signal(SIGTERM, on_term);
	rt_cl c;
	rt_setup(&c, argv[1], "-D UNUSED=1");
	cl_uint n = !strcmp(mode, "big") ? 1u << 22 : 1u << 14;
	size_t bytes = n * sizeof(float);
	float *ha = malloc(bytes), *hc = malloc(bytes);
	if (!ha || !hc)
		return 1;
	for (cl_uint i = 0; i < n; i++)
		ha[i] = (float)i;
	cl_int err;
	cl_mem a = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, ha, &err);
	CHECK(err);
	cl_mem b = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, ha, &err);
	CHECK(err);
	cl_mem cc = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
	CHECK(err);
	cl_kernel k = clCreateKernel(c.prog, "vadd", &err);
	CHECK(err);
	CHECK(clSetKernelArg(k, 0, sizeof a, &a));
	CHECK(clSetKernelArg(k, 1, sizeof b, &b));
	CHECK(clSetKernelArg(k, 2, sizeof cc, &cc));
	CHECK(clSetKernelArg(k, 3, sizeof n, &n));
	size_t g = n, l = 64;
	if (!strcmp(mode, "queue")) {
		long launches = argc > 3 ? atol(argv[3]) : 2000;
		for (long i = 0; i < launches; i++)
			CHECK(clEnqueueNDRangeKernel(c.q, k, 1, NULL, &g, &l, 0, NULL, NULL));
	} else if (!strcmp(mode, "loop") || graceful) {
		for (int first = 1; !stop; first = 0) {
			CHECK(clEnqueueNDRangeKernel(c.q, k, 1, NULL, &g, &l, 0, NULL, NULL));
			CHECK(clFinish(c.q));
			if (first) {
				puts("ready");
				fflush(stdout);
			}
		}
	} else if (!strcmp(mode, "big")) {
		CHECK(clEnqueueNDRangeKernel(c.q, k, 1, NULL, &g, &l, 0, NULL, NULL));
	} else {
		return 2;
	}
	CHECK(clEnqueueReadBuffer(c.q, cc, CL_TRUE, 0, bytes, hc, 0, NULL, NULL));
	for (cl_uint i = 0; i < n; i++)
		if (hc[i] != 2.0f * (float)i) {
			fprintf(stderr, "c[%u] = %g, want %g\n", i, hc[i], 2.0 * i);
			return 1;
		}
	CHECK(clReleaseKernel(k));
	CHECK(clReleaseMemObject(a));
	CHECK(clReleaseMemObject(b));
	CHECK(clReleaseMemObject(cc));
	rt_teardown(&c);
	free(ha);
	free(hc);
	return 0;
}
