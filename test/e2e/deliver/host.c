/* SPDX-License-Identifier: MIT */
/*
 * deliver - for test/e2e/deliver.sh: reads queued behind a paged launch,
 * which the launch fills range by range (runtime/paged/deliver.c), in the ways
 * a program may queue them. in holds N floats; mirror writes out and
 * out2, both from in reversed: range i writes what the last range reads.
 *   fresh     non-blocking reads of out and out2 into fresh arrays, and
 *             of the middle half of out2 into a third
 *   inplace   in written from a without blocking, out read back into a
 *             (the write's source, still read by later ranges), out2
 *             into a fresh array
 *   usehost   in a CL_MEM_USE_HOST_PTR buffer over a, out read into a
 *   overlap   out, then out2, read into the same array (out2 must win)
 *   blocking  a blocking read of out right behind the launch
 *   planes    in written, the kernel planes (each range's bytes one
 *             strided box of every plane), out read into a fresh array
 *   random:S  1-6 reads (seed S) of random parts of in, out and out2 (more
 *             often) into random places of a (the write's source) and a
 *             second array (more often), overlapping one another or not;
 *             OUT receives both arrays
 * usage: deliver MODE OUT
 */
#include "rt_host.h"

#define N (1u << 22)
#define BYTES (N * sizeof(float))

static float *fresh(void)
{
	float *p = malloc(BYTES);
	if (!p)
		exit(1);
	return p;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	const char *mode = argv[1];
	rt_cl c;
	rt_setup(&c, "deliver.cl", NULL);
	cl_int err;
	cl_kernel k = clCreateKernel(c.prog, "mirror", &err);
	CHECK(err);
	float *a = fresh();
	for (unsigned i = 0; i < N; i++)
		a[i] = (float)((i * 37u) % 1009u);
	int use = !strcmp(mode, "usehost");
	cl_mem in = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | (use ? CL_MEM_USE_HOST_PTR : 0), BYTES,
	                           use ? a : NULL, &err);
	CHECK(err);
	cl_mem out = clCreateBuffer(c.ctx, CL_MEM_WRITE_ONLY, BYTES, NULL, &err);
	CHECK(err);
	cl_mem out2 = clCreateBuffer(c.ctx, CL_MEM_WRITE_ONLY, BYTES, NULL, &err);
	CHECK(err);
	cl_uint n = N;
	CHECK(clSetKernelArg(k, 0, sizeof in, &in));
	CHECK(clSetKernelArg(k, 1, sizeof out, &out));
	CHECK(clSetKernelArg(k, 2, sizeof out2, &out2));
	CHECK(clSetKernelArg(k, 3, sizeof n, &n));
	size_t gws = N, lws = 64;
	/* random's second array, made before the launch so that its reads
	 * are queued while it runs */
	float *spare = NULL;
	if (!strncmp(mode, "random:", 7))
		memset(spare = fresh(), 0x5a, BYTES);
	/* Everything is queued before the queue moves: a first read waits
	 * for this event, set once the reads after the launch are queued
	 * (else a launch may end before the program queued them). */
	cl_event go = clCreateUserEvent(c.ctx, &err);
	CHECK(err);
	float first;
	CHECK(clEnqueueReadBuffer(c.q, out2, CL_FALSE, 0, sizeof first, &first, 1, &go, NULL));
	if (!use)
		CHECK(clEnqueueWriteBuffer(c.q, in, CL_FALSE, 0, BYTES, a, 0, NULL, NULL));
	if (!strcmp(mode, "planes")) {
		/* 256 x 128 x 128 floats: N */
		cl_uint nx = 256, ny = 128, nz = N / (256 * 128);
		cl_kernel kp = clCreateKernel(c.prog, "planes", &err);
		CHECK(err);
		CHECK(clSetKernelArg(kp, 0, sizeof in, &in));
		CHECK(clSetKernelArg(kp, 1, sizeof out, &out));
		CHECK(clSetKernelArg(kp, 2, sizeof nx, &nx));
		CHECK(clSetKernelArg(kp, 3, sizeof ny, &ny));
		CHECK(clSetKernelArg(kp, 4, sizeof nz, &nz));
		size_t g2[2] = {nx, ny}, l2[2] = {64, 1};
		CHECK(clEnqueueNDRangeKernel(c.q, kp, 2, NULL, g2, l2, 0, NULL, NULL));
		CHECK(clReleaseKernel(kp));
	} else {
		CHECK(clEnqueueNDRangeKernel(c.q, k, 1, NULL, &gws, &lws, 0, NULL, NULL));
	}
	float *r[3] = {NULL, NULL, NULL};
	size_t rn[3] = {BYTES, BYTES, BYTES / 2};
	if (!strcmp(mode, "fresh")) {
		r[0] = fresh(), r[1] = fresh(), r[2] = fresh();
		CHECK(clEnqueueReadBuffer(c.q, out, CL_FALSE, 0, BYTES, r[0], 0, NULL, NULL));
		CHECK(clEnqueueReadBuffer(c.q, out2, CL_FALSE, 0, BYTES, r[1], 0, NULL, NULL));
		CHECK(clEnqueueReadBuffer(c.q, out2, CL_FALSE, BYTES / 4, BYTES / 2, r[2], 0, NULL,
		                          NULL));
	} else if (!strcmp(mode, "inplace")) {
		r[0] = a, r[1] = fresh();
		CHECK(clEnqueueReadBuffer(c.q, out, CL_FALSE, 0, BYTES, a, 0, NULL, NULL));
		CHECK(clEnqueueReadBuffer(c.q, out2, CL_FALSE, 0, BYTES, r[1], 0, NULL, NULL));
	} else if (use) {
		r[0] = a;
		CHECK(clEnqueueReadBuffer(c.q, out, CL_FALSE, 0, BYTES, a, 0, NULL, NULL));
	} else if (!strcmp(mode, "overlap")) {
		r[0] = fresh();
		CHECK(clEnqueueReadBuffer(c.q, out, CL_FALSE, 0, BYTES, r[0], 0, NULL, NULL));
		CHECK(clEnqueueReadBuffer(c.q, out2, CL_FALSE, 0, BYTES, r[0], 0, NULL, NULL));
	} else if (!strcmp(mode, "planes")) {
		r[0] = fresh();
		CHECK(clEnqueueReadBuffer(c.q, out, CL_FALSE, 0, BYTES, r[0], 0, NULL, NULL));
	} else if (!strcmp(mode, "blocking")) {
		r[0] = fresh();
		CHECK(clSetUserEventStatus(go, CL_COMPLETE));
		CHECK(clEnqueueReadBuffer(c.q, out, CL_TRUE, 0, BYTES, r[0], 0, NULL, NULL));
	} else if (!strncmp(mode, "random:", 7)) {
		unsigned long long x = strtoull(mode + 7, NULL, 10) * 2654435761u + 1;
#define NEXT(n) ((x = x * 6364136223846793005ull + 1442695040888963407ull), (x >> 33) % (n))
		r[0] = a, r[1] = spare;
		cl_mem bufs[3] = {in, out, out2};
		for (unsigned k = 1 + (unsigned)NEXT(6); k; k--) {
			size_t n = 4 * (1 + NEXT(N)), off = 4 * NEXT(N - n / 4 + 1);
			float *to = r[NEXT(4) ? 1 : 0];
			size_t at = 4 * NEXT(N - n / 4 + 1);
			cl_mem from = bufs[NEXT(4) ? 1 + NEXT(2) : 0];
			CHECK(clEnqueueReadBuffer(c.q, from, CL_FALSE, off, n,
			                          (unsigned char *)to + at, 0, NULL, NULL));
		}
#undef NEXT
	} else {
		return 2;
	}
	if (strcmp(mode, "blocking"))
		CHECK(clSetUserEventStatus(go, CL_COMPLETE));
	CHECK(clFinish(c.q));
	CHECK(clReleaseEvent(go));
	FILE *f = fopen(argv[2], "wb");
	if (!f)
		return 1;
	for (int i = 0; i < 3; i++)
		if (r[i])
			rt_write(f, r[i], rn[i]);
	fclose(f);
	for (int i = 0; i < 3; i++)
		if (r[i] != a)
			free(r[i]);
	free(a);
	CHECK(clReleaseKernel(k));
	CHECK(clReleaseMemObject(in));
	CHECK(clReleaseMemObject(out));
	CHECK(clReleaseMemObject(out2));
	rt_teardown(&c);
	return 0;
}
