/* SPDX-License-Identifier: MIT */
/*
 * untraced_write - a kernel that writes through a pointer rebuilt from an
 * integer: the analysis cannot tell which buffer it writes, so the runtime
 * runs it natively and must bring back every buffer it may have written
 * (issue 7, item 1); over budget it must refuse.
 * usage: untraced_write OUT   (writes both buffers to OUT)
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
	FILE *f = fopen("kernels.cl", "r");
	if (!f)
		return 1;
	static char src[4096];
	size_t len = fread(src, 1, sizeof src - 1, f);
	fclose(f);
	const char *srcp = src;
	cl_program prog = clCreateProgramWithSource(ctx, 1, &srcp, &len, &err);
	CHECK(err);
	CHECK(clBuildProgram(prog, 0, NULL, NULL, NULL, NULL));
	cl_kernel k = clCreateKernel(prog, "pick", &err);
	CHECK(err);

	float *a = malloc(N * sizeof(float)), *b = malloc(N * sizeof(float));
	for (int i = 0; i < N; i++) {
		a[i] = 1.0f;
		b[i] = 2.0f;
	}
	cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * sizeof(float), a, &err);
	CHECK(err);
	cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * sizeof(float), b, &err);
	CHECK(err);
	int which = 1;
	size_t n = N, local = 64;
	CHECK(clSetKernelArg(k, 0, sizeof da, &da));
	CHECK(clSetKernelArg(k, 1, sizeof db, &db));
	CHECK(clSetKernelArg(k, 2, sizeof which, &which));
	CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &local, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(q, da, CL_TRUE, 0, N * sizeof(float), a, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(q, db, CL_TRUE, 0, N * sizeof(float), b, 0, NULL, NULL));
	FILE *o = fopen(argv[1], "wb");
	if (!o || fwrite(a, sizeof(float), N, o) != N || fwrite(b, sizeof(float), N, o) != N ||
	    fclose(o)) {
		fprintf(stderr, "cannot write %s\n", argv[1]);
		return 1;
	}
	CHECK(clReleaseKernel(k));
	CHECK(clReleaseMemObject(da));
	CHECK(clReleaseMemObject(db));
	CHECK(clReleaseProgram(prog));
	CHECK(clReleaseCommandQueue(q));
	CHECK(clReleaseContext(ctx));
	free(a);
	free(b);
	return 0;
}
