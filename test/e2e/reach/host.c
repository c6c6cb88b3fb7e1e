/* SPDX-License-Identifier: MIT */
/*
 * reach - one kernel of reach.cl on a few MB, written as a program that
 * does not know vastcc: one buffer per array, blocking reads, the output
 * buffer written to OUT.
 * usage: reach colstd|fft4|outparam|crc OUT
 *   colstd: 16 x 65536 floats, eps 6 (half the columns stored 1.0f);
 *   fft4 and outparam: 512K float2 / 1M floats, in place;
 *   crc: 16 words per work-item, 65536 work-items.
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

enum { ROWS = 16, COLS = 65536, FFT_N = 512 * 1024, WORDS = 16, CRC_ITEMS = 65536 };

static cl_context ctx;

/* n words of small integers (as floats when fl): sums are exact. */
static cl_mem buffer(cl_mem_flags fl, size_t n, unsigned seed, int as_float)
{
	unsigned *v = malloc(n * 4);
	cl_int err;
	if (!v)
		exit(1);
	for (size_t i = 0; i < n; i++) {
		unsigned r = (unsigned)(i * 2654435761u + seed);
		if (as_float) {
			float f = (float)(r % 17) - 8.0f;
			memcpy(&v[i], &f, 4);
		} else {
			v[i] = r ^ (r >> 13);
		}
	}
	cl_mem m = clCreateBuffer(ctx, fl | CL_MEM_COPY_HOST_PTR, n * 4, v, &err);
	CHECK(err);
	free(v);
	return m;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: reach colstd|fft4|outparam|crc OUT\n");
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

	FILE *f = fopen("reach.cl", "r");
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

	cl_mem bufs[3] = { NULL, NULL, NULL }, out;
	size_t gws, lws = 64, nout;
	if (!strcmp(name, "colstd")) {
		int n = ROWS, m = COLS;
		float eps = 6.0f;
		bufs[0] = buffer(CL_MEM_READ_ONLY, (size_t)ROWS * COLS, 1, 1);
		bufs[1] = buffer(CL_MEM_READ_ONLY, COLS, 2, 1);
		bufs[2] = out = buffer(CL_MEM_READ_WRITE, COLS, 3, 1);
		for (cl_uint i = 0; i < 3; i++)
			CHECK(clSetKernelArg(k, i, sizeof(cl_mem), &bufs[i]));
		CHECK(clSetKernelArg(k, 3, sizeof n, &n));
		CHECK(clSetKernelArg(k, 4, sizeof m, &m));
		CHECK(clSetKernelArg(k, 5, sizeof eps, &eps));
		gws = COLS, nout = COLS;
	} else if (!strcmp(name, "fft4") || !strcmp(name, "outparam")) {
		int fft = name[0] == 'f';
		nout = 2 * (size_t)FFT_N;
		bufs[0] = out = buffer(CL_MEM_READ_WRITE, nout, 4, 1);
		CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &bufs[0]));
		gws = fft ? FFT_N / 4 : nout;
	} else if (!strcmp(name, "crc")) {
		int n = WORDS;
		bufs[0] = buffer(CL_MEM_READ_ONLY, (size_t)WORDS * CRC_ITEMS, 5, 0);
		bufs[1] = out = buffer(CL_MEM_WRITE_ONLY, CRC_ITEMS, 6, 0);
		CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &bufs[0]));
		CHECK(clSetKernelArg(k, 1, sizeof n, &n));
		CHECK(clSetKernelArg(k, 2, sizeof(cl_mem), &bufs[1]));
		gws = CRC_ITEMS, nout = CRC_ITEMS;
	} else {
		fprintf(stderr, "reach: no kernel '%s'\n", name);
		return 2;
	}
	CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gws, &lws, 0, NULL, NULL));
	unsigned *res = malloc(nout * 4);
	if (!res)
		return 1;
	CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, nout * 4, res, 0, NULL, NULL));
	FILE *o = fopen(argv[2], "wb");
	if (!o || fwrite(res, 4, nout, o) != nout || fclose(o))
		return 1;
	for (int i = 0; i < 3; i++)
		if (bufs[i])
			clReleaseMemObject(bufs[i]);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	free(res);
	return 0;
}
