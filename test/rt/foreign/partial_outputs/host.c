/* SPDX-License-Identifier: MIT */
/*
 * partial_outputs - two kernels that write part of an output buffer the
 * host filled first: a guarded tail (i < n, n short of the buffer) and a
 * window shifted by an argument that starts and ends inside a page. The
 * untouched bytes must come back as the host wrote them, however the
 * pages are planned and filled.
 * usage: partial_outputs OUT
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 20)

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

	FILE *f = fopen("partial_outputs.cl", "r");
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
	cl_kernel tail = clCreateKernel(prog, "tail", &err);
	CHECK(err);
	cl_kernel shifted = clCreateKernel(prog, "shifted", &err);
	CHECK(err);

	size_t bytes = (size_t)N * sizeof(float);
	float *a = malloc(bytes), *o1 = malloc(bytes), *o2 = malloc(bytes);
	if (!a || !o1 || !o2)
		return 1;
	for (size_t i = 0; i < N; i++) {
		a[i] = (float)((i * 2654435761u) % 1000) / 8.0f;
		o1[i] = -1.0f - (float)(i % 7);
		o2[i] = -2.0f - (float)(i % 11);
	}
	cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, a, &err);
	CHECK(err);
	cl_mem d1 = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, o1, &err);
	CHECK(err);
	cl_mem d2 = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, o2, &err);
	CHECK(err);
	cl_int n1 = N - 12345, off = 777, n2 = N - 2000;
	CHECK(clSetKernelArg(tail, 0, sizeof da, &da));
	CHECK(clSetKernelArg(tail, 1, sizeof d1, &d1));
	CHECK(clSetKernelArg(tail, 2, sizeof n1, &n1));
	CHECK(clSetKernelArg(shifted, 0, sizeof da, &da));
	CHECK(clSetKernelArg(shifted, 1, sizeof d2, &d2));
	CHECK(clSetKernelArg(shifted, 2, sizeof off, &off));
	CHECK(clSetKernelArg(shifted, 3, sizeof n2, &n2));
	size_t gws = N, lws = 64;
	CHECK(clEnqueueNDRangeKernel(q, tail, 1, NULL, &gws, &lws, 0, NULL, NULL));
	CHECK(clEnqueueNDRangeKernel(q, shifted, 1, NULL, &gws, &lws, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(q, d1, CL_TRUE, 0, bytes, o1, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(q, d2, CL_TRUE, 0, bytes, o2, 0, NULL, NULL));

	FILE *out = fopen(argv[1], "wb");
	if (!out || fwrite(o1, sizeof(float), N, out) != N || fwrite(o2, sizeof(float), N, out) != N ||
	    fclose(out))
		return 1;
	clReleaseMemObject(da);
	clReleaseMemObject(d1);
	clReleaseMemObject(d2);
	clReleaseKernel(tail);
	clReleaseKernel(shifted);
	clReleaseProgram(prog);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	free(a);
	free(o1);
	free(o2);
	return 0;
}
