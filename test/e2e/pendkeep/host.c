/* SPDX-License-Identifier: MIT */
/*
 * pendkeep - for test/e2e/pendkeep.sh: STEPS rounds of a non-blocking
 * whole write of x (new values each round, no event), then accum
 * (y = y / 2 + x); then y is read. Under a budget that pages the launches
 * and keeps x whole on the device from the second on, the write before
 * each is left pending for it (runtime/exec/pending.c) and must reach the
 * device copy before the kernel reads it.
 * usage: pendkeep STEPS OUT
 */
#include "rt_host.h"

#define N (1 << 18)

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	int steps = atoi(argv[1]);
	rt_cl c;
	rt_setup(&c, "pendkeep.cl", NULL);
	cl_int err;
	cl_kernel k = clCreateKernel(c.prog, "accum", &err);
	CHECK(err);
	static float hx[8][N], hy[N];
	if (steps < 1 || steps > 8)
		return 2;
	cl_mem x = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY, sizeof hy, NULL, &err);
	CHECK(err);
	cl_mem y = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof hy, hy,
	                          &err);
	CHECK(err);
	CHECK(clSetKernelArg(k, 0, sizeof x, &x));
	CHECK(clSetKernelArg(k, 1, sizeof y, &y));
	size_t gws = N, lws = 64;
	for (int s = 0; s < steps; s++) {
		/* an array a round: a non-blocking write's memory is the
		 * runtime's until the write completes (OpenCL 1.2 §5.2.2) */
		float *h = hx[s];
		for (int i = 0; i < N; i++)
			h[i] = (float)((i * 7 + s * 13) % 101);
		CHECK(clEnqueueWriteBuffer(c.q, x, CL_FALSE, 0, sizeof hy, h, 0, NULL, NULL));
		CHECK(clEnqueueNDRangeKernel(c.q, k, 1, NULL, &gws, &lws, 0, NULL, NULL));
	}
	CHECK(clEnqueueReadBuffer(c.q, y, CL_TRUE, 0, sizeof hy, hy, 0, NULL, NULL));
	FILE *f = fopen(argv[2], "wb");
	if (!f)
		return 1;
	rt_write(f, hy, sizeof hy);
	fclose(f);
	CHECK(clReleaseKernel(k));
	CHECK(clReleaseMemObject(x));
	CHECK(clReleaseMemObject(y));
	rt_teardown(&c);
	return 0;
}
