/* SPDX-License-Identifier: MIT */
/*
 * column_sums - column sums of a 256 x 4096 float matrix, the way a
 * program written without vastcc in mind does it: one buffer per array,
 * a blocking read of the result.
 * usage: column_sums OUT
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

#define ROWS 256
#define COLS 4096

#define CHECK(x)                                                              \
	do {                                                                  \
		cl_int e_ = (x);                                              \
		if (e_ != CL_SUCCESS) {                                       \
			fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, e_); \
			exit(1);                                              \
		}                                                             \
	} while (0)

int main(int argc, char **argv)
{
	if (argc < 2)
		return 1;
	cl_platform_id plat;
	cl_device_id dev;
	cl_int err;
	CHECK(clGetPlatformIDs(1, &plat, NULL));
	CHECK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
	cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	CHECK(err);
	cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
	CHECK(err);

	FILE *f = fopen("column_sums.cl", "r");
	if (!f)
		return 1;
	char src[4096];
	size_t len = fread(src, 1, sizeof src - 1, f);
	fclose(f);
	src[len] = 0;
	const char *srcp = src;
	cl_program prog = clCreateProgramWithSource(ctx, 1, &srcp, &len, &err);
	CHECK(err);
	CHECK(clBuildProgram(prog, 0, NULL, NULL, NULL, NULL));
	cl_kernel k = clCreateKernel(prog, "column_sums", &err);
	CHECK(err);

	float *a = malloc((size_t)ROWS * COLS * sizeof(float));
	float *sums = malloc(COLS * sizeof(float));
	if (!a || !sums)
		return 1;
	for (size_t i = 0; i < (size_t)ROWS * COLS; i++)
		a[i] = (float)((i * 2654435761u) % 1000) / 8.0f;
	cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
	                           (size_t)ROWS * COLS * sizeof(float), a, &err);
	CHECK(err);
	cl_mem ds = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, COLS * sizeof(float), NULL, &err);
	CHECK(err);
	cl_uint rows = ROWS, cols = COLS;
	CHECK(clSetKernelArg(k, 0, sizeof da, &da));
	CHECK(clSetKernelArg(k, 1, sizeof ds, &ds));
	CHECK(clSetKernelArg(k, 2, sizeof rows, &rows));
	CHECK(clSetKernelArg(k, 3, sizeof cols, &cols));
	size_t gws = COLS, lws = 64;
	CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gws, &lws, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(q, ds, CL_TRUE, 0, COLS * sizeof(float), sums, 0, NULL, NULL));

	FILE *out = fopen(argv[1], "wb");
	if (!out || fwrite(sums, sizeof(float), COLS, out) != COLS || fclose(out))
		return 1;
	clReleaseMemObject(da);
	clReleaseMemObject(ds);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	free(a);
	free(sums);
	return 0;
}
