/* SPDX-License-Identifier: MIT */
/*
 * splitres - for test/e2e/splitres.sh: LAUNCHES launches of y = 3a + b
 * over N floats, then y is read. With MODE 1, the host writes 4 KiB of a
 * (new values) after the fifth launch, blocking, and the later launches
 * read them; with MODE 2, a kernel of one work-group (run on one device)
 * reads y from all over it into z before the host reads y, and z is
 * written after y.
 * usage: splitres LAUNCHES MODE OUT
 */
#include "rt_host.h"

#define N (1 << 18)
#define POKE_AT 40000 /* floats: not on a page boundary */
#define POKE_N 1024

int main(int argc, char **argv)
{
	if (argc < 4)
		return 2;
	int launches = atoi(argv[1]), mode = atoi(argv[2]), poke = mode == 1;
	rt_cl c;
	rt_setup(&c, "splitres.cl", NULL);
	cl_int err;
	cl_kernel k = clCreateKernel(c.prog, "axpb", &err);
	CHECK(err);
	static float ha[N], hb[N], hy[N], hp[POKE_N], hz[64];
	for (int i = 0; i < N; i++) {
		ha[i] = (float)(i % 1009);
		hb[i] = (float)((i * 7) % 113);
	}
	for (int i = 0; i < POKE_N; i++)
		hp[i] = (float)(5000 + i);
	cl_mem a = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof ha, ha,
	                          &err);
	CHECK(err);
	cl_mem b = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof hb, hb,
	                          &err);
	CHECK(err);
	cl_mem y = clCreateBuffer(c.ctx, CL_MEM_WRITE_ONLY, sizeof hy, NULL, &err);
	CHECK(err);
	CHECK(clSetKernelArg(k, 0, sizeof a, &a));
	CHECK(clSetKernelArg(k, 1, sizeof b, &b));
	CHECK(clSetKernelArg(k, 2, sizeof y, &y));
	size_t gws = N, lws = 64;
	for (int l = 0; l < launches; l++) {
		if (poke && l == 5)
			CHECK(clEnqueueWriteBuffer(c.q, a, CL_TRUE, POKE_AT * sizeof(float), sizeof hp,
			                           hp, 0, NULL, NULL));
		CHECK(clEnqueueNDRangeKernel(c.q, k, 1, NULL, &gws, &lws, 0, NULL, NULL));
	}
	cl_mem z = NULL;
	if (mode == 2) {
		cl_kernel g = clCreateKernel(c.prog, "gather", &err);
		CHECK(err);
		z = clCreateBuffer(c.ctx, CL_MEM_WRITE_ONLY, sizeof hz, NULL, &err);
		CHECK(err);
		cl_uint stride = N / 64;
		size_t n64 = 64;
		CHECK(clSetKernelArg(g, 0, sizeof y, &y));
		CHECK(clSetKernelArg(g, 1, sizeof z, &z));
		CHECK(clSetKernelArg(g, 2, sizeof stride, &stride));
		CHECK(clEnqueueNDRangeKernel(c.q, g, 1, NULL, &n64, &n64, 0, NULL, NULL));
		CHECK(clReleaseKernel(g));
	}
	CHECK(clEnqueueReadBuffer(c.q, y, CL_TRUE, 0, sizeof hy, hy, 0, NULL, NULL));
	FILE *f = fopen(argv[3], "wb");
	if (!f)
		return 1;
	rt_write(f, hy, sizeof hy);
	if (z) {
		CHECK(clEnqueueReadBuffer(c.q, z, CL_TRUE, 0, sizeof hz, hz, 0, NULL, NULL));
		rt_write(f, hz, sizeof hz);
		CHECK(clReleaseMemObject(z));
	}
	fclose(f);
	CHECK(clReleaseKernel(k));
	CHECK(clReleaseMemObject(a));
	CHECK(clReleaseMemObject(b));
	CHECK(clReleaseMemObject(y));
	rt_teardown(&c);
	return 0;
}
