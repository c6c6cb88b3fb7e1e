/* SPDX-License-Identifier: MIT */
/*
 * affine - one kernel of affine.cl on a few MB, written as a program that
 * does not know vastcc: one buffer per array, blocking reads, the written
 * buffers' bytes to OUT.
 * usage: affine covar|gramschmidt|ldout|fft8 OUT
 *   covar: 2047 columns of 15 rows (PolyBench's 1-based layout), 128
 *     work-groups of 16, each work-item a triangle of the 16 MB matrix;
 *   gramschmidt: 1024 x 512, the kernel launched for k = 0 .. 7 in turn
 *     (each launch's ids shifted by k + 1);
 *   ldout: 1M floats through a helper's out-parameter;
 *   fft8: 512K float2, eight strided loads and stores per work-item in
 *     helpers.
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

static cl_context ctx;

/* n floats of small integers over 8: products and sums stay exact. */
static cl_mem buffer(size_t n, unsigned seed)
{
	float *v = malloc(n * sizeof *v);
	cl_int err;
	if (!v)
		exit(1);
	for (size_t i = 0; i < n; i++)
		v[i] = (float)((unsigned)(i * 2654435761u + seed) % 17) / 8.0f - 1.0f;
	cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof *v, v,
	                          &err);
	CHECK(err);
	free(v);
	return m;
}

static void arg(cl_kernel k, cl_uint i, size_t size, const void *v)
{
	CHECK(clSetKernelArg(k, i, size, v));
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: affine covar|gramschmidt|ldout|fft8 OUT\n");
		return 2;
	}
	const char *name = argv[1];
	cl_platform_id plat;
	cl_device_id dev;
	cl_int err;
	CHECK(clGetPlatformIDs(1, &plat, NULL));
	CHECK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
	ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	CHECK(err);
	cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
	CHECK(err);

	FILE *f = fopen("affine.cl", "r");
	if (!f)
		return 1;
	static char src[16384];
	size_t len = fread(src, 1, sizeof src - 1, f);
	fclose(f);
	const char *srcp = src;
	cl_program prog = clCreateProgramWithSource(ctx, 1, &srcp, &len, &err);
	CHECK(err);
	CHECK(clBuildProgram(prog, 0, NULL, NULL, NULL, NULL));
	cl_kernel k = clCreateKernel(prog, name, &err);
	CHECK(err);

	cl_mem bufs[3] = { NULL, NULL, NULL }, outs[2] = { NULL, NULL };
	size_t nout[2] = { 0, 0 };
	if (!strcmp(name, "covar")) {
		int m = 2047, n = 15;
		size_t gws = 2048, lws = 16;
		bufs[0] = outs[0] = buffer((size_t)(m + 1) * (m + 1), 1);
		bufs[1] = buffer((size_t)(n + 1) * (m + 1), 2);
		nout[0] = (size_t)(m + 1) * (m + 1);
		arg(k, 0, sizeof(cl_mem), &bufs[0]);
		arg(k, 1, sizeof(cl_mem), &bufs[1]);
		arg(k, 2, sizeof m, &m);
		arg(k, 3, sizeof n, &n);
		CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gws, &lws, 0, NULL, NULL));
	} else if (!strcmp(name, "gramschmidt")) {
		int m = 1024, n = 512;
		size_t gws = 512, lws = 64;
		bufs[0] = outs[0] = buffer((size_t)m * n, 3);
		bufs[1] = outs[1] = buffer((size_t)n * n, 4);
		bufs[2] = buffer((size_t)m * n, 5);
		nout[0] = (size_t)m * n;
		nout[1] = (size_t)n * n;
		for (cl_uint i = 0; i < 3; i++)
			arg(k, i, sizeof(cl_mem), &bufs[i]);
		arg(k, 4, sizeof m, &m);
		arg(k, 5, sizeof n, &n);
		for (int kk = 0; kk < 8; kk++) {
			arg(k, 3, sizeof kk, &kk);
			CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gws, &lws, 0, NULL, NULL));
		}
	} else if (!strcmp(name, "ldout") || !strcmp(name, "fft8")) {
		int fft = name[0] == 'f';
		size_t n = 1 << 20, gws = fft ? n / 2 / 8 : n, lws = 64;
		bufs[0] = buffer(n, 6);
		bufs[1] = outs[0] = buffer(n, 7);
		nout[0] = n;
		arg(k, 0, sizeof(cl_mem), &bufs[0]);
		arg(k, 1, sizeof(cl_mem), &bufs[1]);
		CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gws, &lws, 0, NULL, NULL));
	} else {
		fprintf(stderr, "affine: no kernel '%s'\n", name);
		return 2;
	}
	FILE *o = fopen(argv[2], "wb");
	if (!o)
		return 1;
	for (int i = 0; i < 2 && outs[i]; i++) {
		float *res = malloc(nout[i] * sizeof *res);
		if (!res)
			return 1;
		CHECK(clEnqueueReadBuffer(q, outs[i], CL_TRUE, 0, nout[i] * sizeof *res, res, 0, NULL,
		                          NULL));
		if (fwrite(res, sizeof *res, nout[i], o) != nout[i])
			return 1;
		free(res);
	}
	if (fclose(o))
		return 1;
	for (int i = 0; i < 3; i++)
		if (bufs[i])
			clReleaseMemObject(bufs[i]);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	return 0;
}
