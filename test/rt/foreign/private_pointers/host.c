/* SPDX-License-Identifier: MIT */
/*
 * private_pointers - kernels that reach their buffers through pointers
 * kept in private memory: an array of pointers, a pointer to arrays of
 * four, and a private struct whose field a helper uses as an index
 * (issue 7, items 1 and 11). Plain host code, default local sizes.
 * usage: private_pointers OUT   (writes both buffers to OUT)
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

static void run(cl_command_queue q, cl_kernel k, size_t n)
{
	size_t local = 64;
	CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &local, 0, NULL, NULL));
}

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
	FILE *f = fopen("kernels.cl", "r");
	if (!f)
		return 1;
	static char src[8192];
	size_t len = fread(src, 1, sizeof src - 1, f);
	fclose(f);
	const char *srcp = src;
	cl_program prog = clCreateProgramWithSource(ctx, 1, &srcp, &len, &err);
	CHECK(err);
	CHECK(clBuildProgram(prog, 0, NULL, NULL, NULL, NULL));

	float *a = malloc(N * sizeof(float));
	int *in = malloc(N * sizeof(int)), *out = malloc(4 * N * sizeof(int));
	for (int i = 0; i < N; i++) {
		a[i] = (float)(i % 1000) * 0.5f;
		in[i] = (int)(((unsigned)i * 7919u) % 10007u);
	}
	for (int i = 0; i < 4 * N; i++)
		out[i] = -i;
	cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * sizeof(float), a, &err);
	CHECK(err);
	cl_mem din = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(int), in, &err);
	CHECK(err);
	cl_mem dout = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 4 * N * sizeof(int), out, &err);
	CHECK(err);

	const char *names[] = { "ptr_array", "ptr_to_array", "walker" };
	cl_kernel k[3];
	for (int i = 0; i < 3; i++) {
		k[i] = clCreateKernel(prog, names[i], &err);
		CHECK(err);
	}
	CHECK(clSetKernelArg(k[0], 0, sizeof da, &da));
	CHECK(clSetKernelArg(k[1], 0, sizeof da, &da));
	CHECK(clSetKernelArg(k[2], 0, sizeof din, &din));
	CHECK(clSetKernelArg(k[2], 1, sizeof dout, &dout));
	/* ptr_array writes the first half; ptr_to_array one float in four */
	run(q, k[0], N / 2);
	run(q, k[1], N / 4);
	run(q, k[2], N);
	CHECK(clEnqueueReadBuffer(q, da, CL_TRUE, 0, N * sizeof(float), a, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(q, dout, CL_TRUE, 0, 4 * N * sizeof(int), out, 0, NULL, NULL));
	FILE *o = fopen(argv[1], "wb");
	if (!o || fwrite(a, sizeof(float), N, o) != N ||
	    fwrite(out, sizeof(int), 4 * N, o) != 4 * N || fclose(o)) {
		fprintf(stderr, "cannot write %s\n", argv[1]);
		return 1;
	}
	for (int i = 0; i < 3; i++)
		CHECK(clReleaseKernel(k[i]));
	CHECK(clReleaseMemObject(da));
	CHECK(clReleaseMemObject(din));
	CHECK(clReleaseMemObject(dout));
	CHECK(clReleaseProgram(prog));
	CHECK(clReleaseCommandQueue(q));
	CHECK(clReleaseContext(ctx));
	free(a);
	free(in);
	free(out);
	return 0;
}
