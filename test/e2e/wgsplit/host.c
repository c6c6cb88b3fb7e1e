/* SPDX-License-Identifier: MIT */
/*
 * wgsplit - one of wgsplit.cl's kernels, written as a program that does
 * not know vastcc: one buffer per array, the local size its own, a
 * blocking read of the output.
 * usage: wgsplit CASE OUT
 *   rows, rowsid, rowslid  1-D, 1024 rows of 256 floats, one group of 1024
 *   rows2d                 2-D, 32 x 32 rows of 256 floats, one group
 *   rowsodd                rows over 3000 rows of 100 floats, groups of 1000
 *   rows2dodd              rows2d over 48 x 20 rows of 100 floats, one group
 *   covar, covarb          a 512 x 512 matrix, groups of 64
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(x)                                                              \
	do {                                                                  \
		cl_int e_ = (x);                                              \
		if (e_ != CL_SUCCESS) {                                       \
			fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, e_); \
			exit(1);                                              \
		}                                                             \
	} while (0)

typedef struct {
	const char *name, *kernel;
	size_t in, out;      /* floats */
	int scalars[2];
	unsigned nscalars, dim;
	size_t gws[2], lws[2];
} wcase;

static const wcase cases[] = {
	{ "rows", "rows", 1024 * 256, 1024 * 256, { 256 }, 1, 1, { 1024 }, { 1024 } },
	{ "rowsid", "rowsid", 1024 * 256, 1024 * 256, { 256 }, 1, 1, { 1024 }, { 1024 } },
	{ "rowslid", "rowslid", 1024 * 256, 1024 * 256, { 256 }, 1, 1, { 1024 }, { 1024 } },
	{ "rows2d", "rows2d", 1024 * 256, 1024 * 256, { 256 }, 1, 2, { 32, 32 }, { 32, 32 } },
	{ "rowsodd", "rows", 3000 * 100, 3000 * 100, { 100 }, 1, 1, { 3000 }, { 1000 } },
	{ "rows2dodd", "rows2d", 960 * 100, 960 * 100, { 100 }, 1, 2, { 48, 20 }, { 48, 20 } },
	{ "covar", "covar", 512 * 512, 512 * 512, { 512, 512 }, 2, 1, { 512 }, { 64 } },
	{ "covarb", "covarb", 512 * 512, 512 * 512, { 512, 512 }, 2, 1, { 512 }, { 64 } },
};

static cl_mem buffer(cl_context ctx, cl_mem_flags fl, size_t n, unsigned seed)
{
	float *v = malloc(n * 4);
	cl_int err;
	if (!v)
		exit(1);
	/* Small integers: sums exact in any order, outputs compared as bytes. */
	for (size_t i = 0; i < n; i++)
		v[i] = (float)((i * 2654435761u + seed) % 17) - 8.0f;
	cl_mem m = clCreateBuffer(ctx, fl | CL_MEM_COPY_HOST_PTR, n * 4, v, &err);
	CHECK(err);
	free(v);
	return m;
}

int main(int argc, char **argv)
{
	const wcase *w = NULL;
	for (size_t i = 0; argc == 3 && i < sizeof cases / sizeof cases[0]; i++)
		if (!strcmp(argv[1], cases[i].name))
			w = &cases[i];
	if (!w) {
		fprintf(stderr, "usage: wgsplit rows|rowsid|rowslid|rows2d|rowsodd|rows2dodd|covar|covarb OUT\n");
		return 2;
	}
	cl_platform_id plat;
	cl_device_id dev;
	cl_int err;
	CHECK(clGetPlatformIDs(1, &plat, NULL));
	CHECK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
	cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	CHECK(err);
	cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
	CHECK(err);

	FILE *f = fopen("wgsplit.cl", "r");
	if (!f)
		return 1;
	static char src[16384];
	size_t len = fread(src, 1, sizeof src - 1, f);
	fclose(f);
	const char *srcp = src;
	cl_program prog = clCreateProgramWithSource(ctx, 1, &srcp, &len, &err);
	CHECK(err);
	CHECK(clBuildProgram(prog, 0, NULL, NULL, NULL, NULL));
	cl_kernel k = clCreateKernel(prog, w->kernel, &err);
	CHECK(err);

	cl_mem in = buffer(ctx, CL_MEM_READ_ONLY, w->in, 1);
	cl_mem out = buffer(ctx, CL_MEM_READ_WRITE, w->out, 3);
	cl_uint a = 0;
	CHECK(clSetKernelArg(k, a++, sizeof in, &in));
	CHECK(clSetKernelArg(k, a++, sizeof out, &out));
	for (unsigned i = 0; i < w->nscalars; i++)
		CHECK(clSetKernelArg(k, a++, sizeof(int), &w->scalars[i]));
	CHECK(clEnqueueNDRangeKernel(q, k, w->dim, NULL, w->gws, w->lws, 0, NULL, NULL));
	float *res = malloc(w->out * 4);
	if (!res)
		return 1;
	CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, w->out * 4, res, 0, NULL, NULL));

	FILE *o = fopen(argv[2], "wb");
	if (!o || fwrite(res, 4, w->out, o) != w->out || fclose(o))
		return 1;
	free(res);
	clReleaseMemObject(in);
	clReleaseMemObject(out);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	return 0;
}
