/* SPDX-License-Identifier: MIT */
/*
 * spread - for test/e2e/spread.sh: a and b (N floats each, made empty)
 * written whole by the host, LAUNCHES launches of y = 3a + b, then y is
 * read whole. With MODE 1, a kernel of one work-group (run on one
 * device) reads y from all over it into z before the host reads y; with
 * MODE 2, the host writes 4 KiB of a (new values, blocking) after the
 * first launch and reads 4 KiB of y across the middle before the last.
 * usage: spread N LAUNCHES MODE OUT
 */
#include "rt_host.h"

#define POKE_N 1024

int main(int argc, char **argv)
{
	if (argc < 5)
		return 2;
	size_t n = (size_t)atol(argv[1]);
	int launches = atoi(argv[2]), mode = atoi(argv[3]);
	if (n < 4 * POKE_N || n % 64)
		return 2;
	rt_cl c;
	rt_setup(&c, "spread.cl", NULL);
	cl_int err;
	cl_kernel k = clCreateKernel(c.prog, "axpb", &err);
	CHECK(err);
	float *ha = malloc(n * sizeof *ha), *hb = malloc(n * sizeof *hb);
	float *hy = malloc(n * sizeof *hy), hp[POKE_N], hmid[POKE_N], hz[64];
	if (!ha || !hb || !hy)
		return 1;
	for (size_t i = 0; i < n; i++) {
		ha[i] = (float)(i % 1009);
		hb[i] = (float)((i * 7) % 113);
	}
	for (int i = 0; i < POKE_N; i++)
		hp[i] = (float)(5000 + i);
	size_t bytes = n * sizeof(float);
	cl_mem a = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY, bytes, NULL, &err);
	CHECK(err);
	cl_mem b = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY, bytes, NULL, &err);
	CHECK(err);
	cl_mem y = clCreateBuffer(c.ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
	CHECK(err);
	CHECK(clEnqueueWriteBuffer(c.q, a, CL_TRUE, 0, bytes, ha, 0, NULL, NULL));
	CHECK(clEnqueueWriteBuffer(c.q, b, CL_TRUE, 0, bytes, hb, 0, NULL, NULL));
	CHECK(clSetKernelArg(k, 0, sizeof a, &a));
	CHECK(clSetKernelArg(k, 1, sizeof b, &b));
	CHECK(clSetKernelArg(k, 2, sizeof y, &y));
	size_t gws = n, lws = 64;
	/* Across the middle, off any page boundary. */
	size_t mid = n / 2 - POKE_N / 2 + 3;
	for (int l = 0; l < launches; l++) {
		if (mode == 2 && l == 1)
			CHECK(clEnqueueWriteBuffer(c.q, a, CL_TRUE, mid * sizeof(float), sizeof hp, hp,
			                           0, NULL, NULL));
		if (mode == 2 && l == launches - 1)
			CHECK(clEnqueueReadBuffer(c.q, y, CL_TRUE, mid * sizeof(float), sizeof hmid,
			                          hmid, 0, NULL, NULL));
		CHECK(clEnqueueNDRangeKernel(c.q, k, 1, NULL, &gws, &lws, 0, NULL, NULL));
	}
	cl_mem z = NULL;
	if (mode == 1) {
		cl_kernel g = clCreateKernel(c.prog, "gather", &err);
		CHECK(err);
		z = clCreateBuffer(c.ctx, CL_MEM_WRITE_ONLY, sizeof hz, NULL, &err);
		CHECK(err);
		cl_uint stride = (cl_uint)(n / 64);
		size_t n64 = 64;
		CHECK(clSetKernelArg(g, 0, sizeof y, &y));
		CHECK(clSetKernelArg(g, 1, sizeof z, &z));
		CHECK(clSetKernelArg(g, 2, sizeof stride, &stride));
		CHECK(clEnqueueNDRangeKernel(c.q, g, 1, NULL, &n64, &n64, 0, NULL, NULL));
		CHECK(clReleaseKernel(g));
	}
	CHECK(clEnqueueReadBuffer(c.q, y, CL_TRUE, 0, bytes, hy, 0, NULL, NULL));
	FILE *f = fopen(argv[4], "wb");
	if (!f)
		return 1;
	rt_write(f, hy, bytes);
	if (mode == 2)
		rt_write(f, hmid, sizeof hmid);
	if (z) {
		CHECK(clEnqueueReadBuffer(c.q, z, CL_TRUE, 0, sizeof hz, hz, 0, NULL, NULL));
		rt_write(f, hz, sizeof hz);
		CHECK(clReleaseMemObject(z));
	}
	fclose(f);
	free(ha);
	free(hb);
	free(hy);
	CHECK(clReleaseKernel(k));
	CHECK(clReleaseMemObject(a));
	CHECK(clReleaseMemObject(b));
	CHECK(clReleaseMemObject(y));
	rt_teardown(&c);
	return 0;
}
