/* SPDX-License-Identifier: MIT */
/*
 * host_kept.c - what makes a kept page stale between two paged launches
 * is the memory directory's answer, byte by byte: c = a + b, then one of
 * (argv[3]) nothing, a write of 100 bytes of a, a map of 100 bytes of a
 * for writing, a fill of 64 bytes of a, a copy of 100 bytes of b into
 * a, then c = a + b again, c read and
 * checked against the sums computed here. Only the page those bytes lie
 * in is stale: the second launch sends it again, and takes every other
 * page of a and b from the frames the first left on the device
 * (kept.sh compares VAST_STATS h2d of each against "none").
 * Usage: host_kept vadd.cl none|write|map|fill|copy
 */
#include <string.h>

#include "rt_host.h"

enum { N = 1 << 20 };          /* floats: 4 MiB a buffer, 64 pages of 64 KiB */
enum { AT = 3 * (1 << 20) + 4 }; /* the bytes changed, inside one page */

static rt_cl c;
static cl_kernel vadd;

static void add(cl_mem x, cl_mem y, cl_mem z)
{
	cl_uint n = N;
	CHECK(clSetKernelArg(vadd, 0, sizeof x, &x));
	CHECK(clSetKernelArg(vadd, 1, sizeof y, &y));
	CHECK(clSetKernelArg(vadd, 2, sizeof z, &z));
	CHECK(clSetKernelArg(vadd, 3, sizeof n, &n));
	size_t g = N;
	CHECK(clEnqueueNDRangeKernel(c.q, vadd, 1, NULL, &g, NULL, 0, NULL, NULL));
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	const char *how = argv[2];
	rt_setup(&c, argv[1], "-D UNUSED=1");
	size_t bytes = N * sizeof(float);
	float *ha = malloc(bytes), *hb = malloc(bytes), *hc = malloc(bytes);
	if (!ha || !hb || !hc)
		return 1;
	for (cl_uint i = 0; i < N; i++) {
		ha[i] = (float)(i % 1000) * 0.5f;
		hb[i] = (float)(i % 77) - 3.0f;
	}
	cl_int err;
	cl_mem_flags f = CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR;
	cl_mem a = clCreateBuffer(c.ctx, f, bytes, ha, &err);
	CHECK(err);
	cl_mem b = clCreateBuffer(c.ctx, f, bytes, hb, &err);
	CHECK(err);
	cl_mem cc = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
	CHECK(err);
	vadd = clCreateKernel(c.prog, "vadd", &err);
	CHECK(err);

	add(a, b, cc);
	unsigned char news[100];
	for (int i = 0; i < 100; i++)
		news[i] = (unsigned char)(i * 7 + 1);
	if (!strcmp(how, "write")) {
		CHECK(clEnqueueWriteBuffer(c.q, a, CL_TRUE, AT, sizeof news, news, 0, NULL, NULL));
		memcpy((char *)ha + AT, news, sizeof news);
	} else if (!strcmp(how, "map")) {
		void *p = clEnqueueMapBuffer(c.q, a, CL_TRUE, CL_MAP_WRITE, AT, sizeof news, 0, NULL,
		                             NULL, &err);
		CHECK(err);
		memcpy(p, news, sizeof news);
		CHECK(clEnqueueUnmapMemObject(c.q, a, p, 0, NULL, NULL));
		memcpy((char *)ha + AT, news, sizeof news);
	} else if (!strcmp(how, "fill")) {
		float two = 2.0f;
		CHECK(clEnqueueFillBuffer(c.q, a, &two, sizeof two, AT - 4, 64, 0, NULL, NULL));
		for (size_t i = 0; i < 16; i++)
			ha[(AT - 4) / sizeof(float) + i] = two;
	} else if (!strcmp(how, "copy")) {
		CHECK(clEnqueueCopyBuffer(c.q, b, a, 40, AT, sizeof news, 0, NULL, NULL));
		memcpy((char *)ha + AT, (char *)hb + 40, sizeof news);
	} else if (strcmp(how, "none")) {
		return 2;
	}
	add(a, b, cc);
	CHECK(clEnqueueReadBuffer(c.q, cc, CL_TRUE, 0, bytes, hc, 0, NULL, NULL));
	for (cl_uint i = 0; i < N; i++)
		if (hc[i] != ha[i] + hb[i]) {
			fprintf(stderr, "host_kept: %s: c[%u] = %g, not %g\n", how, i, hc[i],
			        ha[i] + hb[i]);
			return 1;
		}
	CHECK(clReleaseMemObject(a));
	CHECK(clReleaseMemObject(b));
	CHECK(clReleaseMemObject(cc));
	CHECK(clReleaseKernel(vadd));
	free(ha);
	free(hb);
	free(hc);
	rt_teardown(&c);
	return 0;
}
