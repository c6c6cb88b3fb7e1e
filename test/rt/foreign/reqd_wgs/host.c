/* SPDX-License-Identifier: MIT */
/*
 * reqd_wgs - issue 7 item 3: launches of a reqd_work_group_size(64,1,1)
 * kernel with the local sizes OpenCL 1.2 §5.8 refuses (NULL, 128, a
 * global size 64 does not divide) and with 64. The output holds the error
 * code of every launch, then the data of the valid one.
 * usage: reqd_wgs OUT
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

	FILE *f = fopen("reqd.cl", "r");
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
	cl_kernel k = clCreateKernel(prog, "scale", &err);
	CHECK(err);
	size_t reqd[3];
	CHECK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof reqd, reqd, NULL));

	float *a = malloc(N * sizeof(float)), *o = malloc(N * sizeof(float));
	for (int i = 0; i < N; i++)
		a[i] = (float)(i % 1000) * 0.5f;
	cl_mem ba = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(float), a, &err);
	CHECK(err);
	cl_mem bo = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(float), NULL, &err);
	CHECK(err);
	CHECK(clSetKernelArg(k, 0, sizeof ba, &ba));
	CHECK(clSetKernelArg(k, 1, sizeof bo, &bo));

	size_t gws = N, odd = N - 32, l128 = 128, l64 = 64;
	cl_int codes[4];
	codes[0] = clEnqueueNDRangeKernel(q, k, 1, NULL, &gws, NULL, 0, NULL, NULL);
	codes[1] = clEnqueueNDRangeKernel(q, k, 1, NULL, &gws, &l128, 0, NULL, NULL);
	codes[2] = clEnqueueNDRangeKernel(q, k, 1, NULL, &odd, &l64, 0, NULL, NULL);
	codes[3] = clEnqueueNDRangeKernel(q, k, 1, NULL, &gws, &l64, 0, NULL, NULL);
	CHECK(clFinish(q));
	CHECK(clEnqueueReadBuffer(q, bo, CL_TRUE, 0, N * sizeof(float), o, 0, NULL, NULL));
	FILE *w = fopen(argv[1], "wb");
	if (!w || fwrite(reqd, sizeof reqd, 1, w) != 1 || fwrite(codes, sizeof codes, 1, w) != 1 ||
	    fwrite(o, sizeof(float), N, w) != N || fclose(w))
		return 1;
	printf("reqd_wgs: reqd %zux%zux%zu, codes %d %d %d %d\n", reqd[0], reqd[1], reqd[2],
	       codes[0], codes[1], codes[2], codes[3]);
	clReleaseMemObject(ba);
	clReleaseMemObject(bo);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	free(a);
	free(o);
	return 0;
}
