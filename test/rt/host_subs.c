/* SPDX-License-Identifier: MIT */
/*
 * host_subs.c - many sub-buffers of one buffer, each with a device copy:
 * more members than a family's directory has locations for
 * (VRT_DIR_MAX_LOCS, runtime/mem/directory.h), so placing the last ones
 * sends others' copies home first.
 *
 * A, B and C hold N floats each, cut into SUBS sub-buffers apiece. Each
 * piece of C gets A + B (vadd on the three pieces), then the pieces of A
 * are overwritten from the host one after another, and the parents run
 * A = C + B (whole: paged under a small budget). Writes A and C to
 * argv[1] (a plain run must match byte for byte) and exits 1 on a wrong
 * element.
 * Usage: host_subs OUT vadd.cl
 */
#include "rt_host.h"

#define SUBS 64
#define CHUNK 4096u /* floats: 16 KiB, aligned for any device */
#define N (SUBS * CHUNK)

static void vadd(rt_cl *c, cl_kernel k, cl_mem a, cl_mem b, cl_mem out, cl_uint n)
{
	size_t global = n;
	CHECK(clSetKernelArg(k, 0, sizeof a, &a));
	CHECK(clSetKernelArg(k, 1, sizeof b, &b));
	CHECK(clSetKernelArg(k, 2, sizeof out, &out));
	CHECK(clSetKernelArg(k, 3, sizeof n, &n));
	CHECK(clEnqueueNDRangeKernel(c->q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
}

static void pieces(cl_mem parent, cl_mem *sub)
{
	cl_int err;
	for (unsigned i = 0; i < SUBS; i++) {
		cl_buffer_region r = {i * CHUNK * sizeof(float), CHUNK * sizeof(float)};
		sub[i] = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r,
		                           &err);
		CHECK(err);
	}
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s OUT vadd.cl\n", argv[0]);
		return 2;
	}
	rt_cl c;
	rt_setup(&c, argv[2], "-D UNUSED=1"); /* the stub's options */
	cl_int err;
	cl_kernel k = clCreateKernel(c.prog, "vadd", &err);
	CHECK(err);
	static float a[N], b[N], out[N], want_c[N], want_a[N];
	for (unsigned i = 0; i < N; i++) {
		a[i] = (float)(i % 977);
		b[i] = (float)(i % 13) * 0.5f;
	}
	cl_mem A = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
	CHECK(err);
	cl_mem B = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof b, b, &err);
	CHECK(err);
	cl_mem C = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE, sizeof a, NULL, &err);
	CHECK(err);
	cl_mem as[SUBS], bs[SUBS], cs[SUBS];
	pieces(A, as);
	pieces(B, bs);
	pieces(C, cs);
	for (unsigned i = 0; i < SUBS; i++)
		vadd(&c, k, as[i], bs[i], cs[i], CHUNK);
	for (unsigned i = 0; i < N; i++)
		want_c[i] = a[i] + b[i];
	/* A's pieces from the host, while their device copies may be current. */
	for (unsigned i = 0; i < SUBS; i++) {
		float v[CHUNK];
		for (unsigned j = 0; j < CHUNK; j++)
			v[j] = a[i * CHUNK + j] = (float)(i + j % 7);
		CHECK(clEnqueueWriteBuffer(c.q, as[i], CL_TRUE, 0, sizeof v, v, 0, NULL, NULL));
	}
	vadd(&c, k, C, B, A, N);
	for (unsigned i = 0; i < N; i++)
		want_a[i] = want_c[i] + b[i];
	FILE *f = fopen(argv[1], "wb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	int bad = 0;
	CHECK(clEnqueueReadBuffer(c.q, A, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
	bad |= memcmp(out, want_a, sizeof out) != 0;
	rt_write(f, out, sizeof out);
	CHECK(clEnqueueReadBuffer(c.q, C, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
	bad |= memcmp(out, want_c, sizeof out) != 0;
	rt_write(f, out, sizeof out);
	fclose(f);
	for (unsigned i = 0; i < SUBS; i++) {
		CHECK(clReleaseMemObject(as[i]));
		CHECK(clReleaseMemObject(bs[i]));
		CHECK(clReleaseMemObject(cs[i]));
	}
	CHECK(clReleaseMemObject(A));
	CHECK(clReleaseMemObject(B));
	CHECK(clReleaseMemObject(C));
	CHECK(clReleaseKernel(k));
	rt_teardown(&c);
	if (bad)
		fprintf(stderr, "host_subs: wrong elements\n");
	return bad;
}
