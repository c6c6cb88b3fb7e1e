/* SPDX-License-Identifier: MIT */
/*
 * local_branch - issue 7 item 2: a branch around global accesses that
 * depends on __local data written by the group before a barrier, with a
 * random indirect index on one side (an SDK-style scatter step). n is
 * 1M, launched with 256 work-items per group (and k again with a NULL
 * local size).
 * usage: local_branch OUT
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 20)
#define BLOCK (1 << 14)

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

	FILE *f = fopen("local_branch.cl", "r");
	if (!f)
		return 1;
	char src[8192];
	size_t len = fread(src, 1, sizeof src - 1, f);
	fclose(f);
	src[len] = 0;
	const char *srcp = src;
	cl_program prog = clCreateProgramWithSource(ctx, 1, &srcp, &len, &err);
	CHECK(err);
	CHECK(clBuildProgram(prog, 0, NULL, NULL, NULL, NULL));

	float *a = malloc(N * sizeof(float)), *o = malloc(2 * N * sizeof(float));
	int *idx = malloc(N * sizeof(int));
	/* idx is a random permutation of each block of BLOCK elements: no
	 * two work-items update one out2 element, so the result does not
	 * depend on execution order, and a work-group's pages fit 10% of the
	 * data. */
	srand(7);
	for (int i = 0; i < N; i++) {
		a[i] = (float)rand() / RAND_MAX;
		idx[i] = i;
	}
	for (int b = 0; b < N; b += BLOCK)
		for (int i = BLOCK - 1; i > 0; i--) {
			int j = rand() % (i + 1), t = idx[b + i];
			idx[b + i] = idx[b + j];
			idx[b + j] = t;
		}
	cl_mem ba = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(float), a, &err);
	CHECK(err);
	cl_mem bi = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(int), idx, &err);
	CHECK(err);
	/* The outputs start as zeros: a buffer created without a host
	 * pointer holds undefined bytes, and the kernels leave most of
	 * them alone. */
	float *zeros = calloc(N, sizeof(float));
	if (!zeros)
		return 1;
	cl_mem bo = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * sizeof(float), zeros, &err);
	CHECK(err);
	cl_mem bo2 = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * sizeof(float), zeros, &err);
	CHECK(err);
	free(zeros);
	/* The g < n guard matters, but a barrier only some work-items of a
	 * group reach is undefined (OpenCL 1.2 §6.12.8): n ends on a group
	 * boundary for any power-of-two local size up to N/2. */
	int n = N / 2;
	size_t gws = N, lws = 256;
	const char *names[2] = { "k", "k_neighbour" };
	for (int i = 0; i < 2; i++) {
		cl_kernel k = clCreateKernel(prog, names[i], &err);
		CHECK(err);
		CHECK(clSetKernelArg(k, 0, sizeof ba, &ba));
		CHECK(clSetKernelArg(k, 1, sizeof bi, &bi));
		CHECK(clSetKernelArg(k, 2, sizeof bo, &bo));
		CHECK(clSetKernelArg(k, 3, sizeof bo2, &bo2));
		CHECK(clSetKernelArg(k, 4, sizeof n, &n));
		CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gws, &lws, 0, NULL, NULL));
		/* The implementation's choice of local size: a second pass
		 * (k only: k_neighbour's result depends on the group size). */
		if (i == 0)
			CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gws, NULL, 0, NULL, NULL));
		CHECK(clReleaseKernel(k));
	}
	CHECK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, N * sizeof(float), o, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(q, bo2, CL_TRUE, 0, N * sizeof(float), o + N, 0, NULL, NULL));
	FILE *w = fopen(argv[1], "wb");
	if (!w || fwrite(o, sizeof(float), 2 * (size_t)N, w) != 2 * (size_t)N || fclose(w))
		return 1;
	printf("local_branch: out[0]=%g out2[0]=%g\n", o[0], o[N]);
	clReleaseMemObject(ba);
	clReleaseMemObject(bi);
	clReleaseMemObject(bo);
	clReleaseMemObject(bo2);
	clReleaseProgram(prog);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	free(a);
	free(idx);
	free(o);
	return 0;
}
