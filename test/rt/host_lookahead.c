/* SPDX-License-Identifier: MIT */
/*
 * host_lookahead.c - a native launch evicts the device copy the launches
 * queued behind it need last (runtime/mem/evict.c, issue 10 "look-ahead
 * eviction"). Three launches of vadd over buffers of N floats, queued
 * before the first may start (it waits for a user event):
 *   1. O1 = A + B     A, B, O1 on the device
 *   2. O2 = C + D     C and D need room: the third launch uses A again
 *   3. O3 = A + O2
 * Under a budget of four buffers (VAST_DEVICE_MEM=4N floats and a
 * little), placing D evicts one of A, B, O1: the least recently used
 * would be A (launch 1 placed it first), which launch 3 would send
 * again; B and O1 are used by none of the queued launches. Writes O1, O2, O3 to argv[1] (a plain run must
 * match byte for byte) and exits 1 on a wrong element.
 * Usage: host_lookahead OUT vadd.cl
 */
#include "rt_host.h"

#define N (1u << 18) /* 1 MiB a buffer */

static cl_mem filled(rt_cl *c, float *host, float base)
{
	cl_int err;
	for (unsigned i = 0; i < N; i++)
		host[i] = base + (float)(i % 1000);
	cl_mem m = clCreateBuffer(c->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
	                          N * sizeof(float), host, &err);
	CHECK(err);
	return m;
}

static void vadd(rt_cl *c, cl_kernel k, cl_mem a, cl_mem b, cl_mem out, cl_event *gate)
{
	cl_uint n = N;
	size_t global = N;
	CHECK(clSetKernelArg(k, 0, sizeof a, &a));
	CHECK(clSetKernelArg(k, 1, sizeof b, &b));
	CHECK(clSetKernelArg(k, 2, sizeof out, &out));
	CHECK(clSetKernelArg(k, 3, sizeof n, &n));
	CHECK(clEnqueueNDRangeKernel(c->q, k, 1, NULL, &global, NULL, gate ? 1 : 0, gate, NULL));
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: host_lookahead OUT vadd.cl\n");
		return 2;
	}
	rt_cl c;
	rt_setup(&c, argv[2], NULL);
	cl_int err;
	cl_kernel k = clCreateKernel(c.prog, "vadd", &err);
	CHECK(err);
	float *h = malloc(4 * N * sizeof *h), *out = malloc(3 * N * sizeof *out);
	if (!h || !out)
		return 1;
	cl_mem A = filled(&c, h, 1), B = filled(&c, h + N, 2000), C = filled(&c, h + 2 * N, 4000),
	       D = filled(&c, h + 3 * N, 8000), O[3];
	for (int i = 0; i < 3; i++) {
		O[i] = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE, N * sizeof(float), NULL, &err);
		CHECK(err);
	}
	cl_event gate = clCreateUserEvent(c.ctx, &err);
	CHECK(err);
	vadd(&c, k, A, B, O[0], &gate);
	vadd(&c, k, C, D, O[1], NULL);
	vadd(&c, k, A, O[1], O[2], NULL);
	CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
	for (int i = 0; i < 3; i++)
		CHECK(clEnqueueReadBuffer(c.q, O[i], CL_TRUE, 0, N * sizeof(float), out + i * N, 0,
		                          NULL, NULL));
	int bad = 0;
	for (unsigned i = 0; i < N && !bad; i++) {
		float a = h[i], b = h[N + i], cc = h[2 * N + i], d = h[3 * N + i];
		bad = out[i] != a + b || out[N + i] != cc + d || out[2 * N + i] != a + (cc + d);
		if (bad)
			fprintf(stderr, "element %u wrong\n", i);
	}
	FILE *f = fopen(argv[1], "wb");
	if (!f || fwrite(out, sizeof *out, 3 * N, f) != 3 * N)
		return 1;
	fclose(f);
	CHECK(clReleaseEvent(gate));
	cl_mem all[] = {A, B, C, D, O[0], O[1], O[2]};
	for (int i = 0; i < 7; i++)
		CHECK(clReleaseMemObject(all[i]));
	CHECK(clReleaseKernel(k));
	rt_teardown(&c);
	free(h);
	free(out);
	return bad;
}
