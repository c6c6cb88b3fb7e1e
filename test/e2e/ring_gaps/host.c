/* SPDX-License-Identifier: MIT */
/*
 * ring_gaps - for test/e2e/ring_gaps.sh: one launch of edges over a
 * W x H grid of a ushort buffer (narrow) and a uint one (wide), whose
 * first values all differ, so that a last element of a row that comes
 * from anywhere but the program's own bytes shows. OUT receives both
 * buffers after the launch.
 * usage: ring_gaps W H OUT
 */
#include "rt_host.h"

static cl_uint mix(cl_uint x)
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x;
}

int main(int argc, char **argv)
{
	if (argc < 4)
		return 2;
	cl_uint w = (cl_uint)strtoul(argv[1], NULL, 0), h = (cl_uint)strtoul(argv[2], NULL, 0);
	size_t n = (size_t)w * h;
	size_t nbytes = n * sizeof(cl_ushort), wbytes = n * sizeof(cl_uint);
	rt_cl c;
	rt_setup(&c, "ring_gaps.cl", NULL);
	cl_int err;
	cl_ushort *narrow = malloc(nbytes);
	cl_uint *wide = malloc(wbytes);
	if (!narrow || !wide)
		return 1;
	for (size_t i = 0; i < n; i++) {
		narrow[i] = (cl_ushort)mix((cl_uint)i);
		wide[i] = mix((cl_uint)i + 0x9e3779b9u);
	}
	cl_mem bn = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, nbytes, narrow,
	                           &err);
	CHECK(err);
	cl_mem bw = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, wbytes, wide,
	                           &err);
	CHECK(err);
	cl_kernel k = clCreateKernel(c.prog, "edges", &err);
	CHECK(err);
	CHECK(clSetKernelArg(k, 0, sizeof bn, &bn));
	CHECK(clSetKernelArg(k, 1, sizeof bw, &bw));
	CHECK(clSetKernelArg(k, 2, sizeof w, &w));
	size_t gws[2] = { w, h }, lws[2] = { 256, 1 };
	CHECK(clEnqueueNDRangeKernel(c.q, k, 2, NULL, gws, lws, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(c.q, bn, CL_TRUE, 0, nbytes, narrow, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(c.q, bw, CL_TRUE, 0, wbytes, wide, 0, NULL, NULL));
	FILE *f = fopen(argv[3], "wb");
	if (!f)
		return 1;
	rt_write(f, narrow, nbytes);
	rt_write(f, wide, wbytes);
	if (fclose(f))
		return 1;
	free(narrow);
	free(wide);
	CHECK(clReleaseKernel(k));
	CHECK(clReleaseMemObject(bn));
	CHECK(clReleaseMemObject(bw));
	rt_teardown(&c);
	return 0;
}
