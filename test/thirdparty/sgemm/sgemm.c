/* SPDX-License-Identifier: MIT */
/*
 * sgemm - C = A * B for square float matrices, written the way benchmark
 * suites (Parboil, SHOC) write their hosts: the kernel file is read at run
 * time from the executable's directory and built with -D options for the
 * tile size and the element type.
 *
 *   usage: sgemm N OUTFILE     (N x N matrices, N a multiple of 16)
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TILE 16

#define CHECK(call)                                                             \
	do {                                                                    \
		cl_int err_ = (call);                                           \
		if (err_ != CL_SUCCESS) {                                       \
			fprintf(stderr, "sgemm: %s failed: %d\n", #call, err_); \
			exit(1);                                                \
		}                                                               \
	} while (0)

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	rewind(f);
	char *buf = malloc(*len + 1);
	if (!buf || fread(buf, 1, *len, f) != *len) {
		fprintf(stderr, "sgemm: cannot read %s\n", path);
		exit(1);
	}
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

static void fill(float *m, size_t count, unsigned seed)
{
	for (size_t i = 0; i < count; i++) {
		seed = seed * 1103515245u + 12345u;
		m[i] = (float)((seed >> 8) % 2000) / 1000.0f - 1.0f;
	}
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s N OUTFILE\n", argv[0]);
		return 2;
	}
	int n = atoi(argv[1]);
	if (n <= 0 || n % TILE) {
		fprintf(stderr, "sgemm: N must be a positive multiple of %d\n", TILE);
		return 2;
	}
	size_t count = (size_t)n * n, bytes = count * sizeof(float);
	float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
	if (!a || !b || !c) {
		fprintf(stderr, "sgemm: out of memory\n");
		return 1;
	}
	fill(a, count, 1);
	fill(b, count, 2);

	/* The kernel file lives next to the executable. */
	char path[4096];
	const char *slash = strrchr(argv[0], '/');
	int dirlen = slash ? (int)(slash - argv[0]) : 1;
	snprintf(path, sizeof path, "%.*s/sgemm.cl", dirlen, slash ? argv[0] : ".");
	size_t srclen;
	char *src = read_file(path, &srclen);

	cl_platform_id platform;
	cl_device_id device;
	cl_int err;
	CHECK(clGetPlatformIDs(1, &platform, NULL));
	CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &device, NULL));
	cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
	CHECK(err);
	cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
	CHECK(err);
	cl_program prog = clCreateProgramWithSource(ctx, 1, (const char **)&src, &srclen, &err);
	CHECK(err);
	char opts[128];
	snprintf(opts, sizeof opts, "-DTILE=%d -DREAL=float -cl-mad-enable", TILE);
	if (clBuildProgram(prog, 1, &device, opts, NULL, NULL) != CL_SUCCESS) {
		char log[16384];
		clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
		fprintf(stderr, "sgemm: build failed:\n%s\n", log);
		return 1;
	}
	cl_kernel k = clCreateKernel(prog, "sgemm", &err);
	CHECK(err);

	cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, a, &err);
	CHECK(err);
	cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, b, &err);
	CHECK(err);
	cl_mem dc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
	CHECK(err);
	CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &da));
	CHECK(clSetKernelArg(k, 1, sizeof(cl_mem), &db));
	CHECK(clSetKernelArg(k, 2, sizeof(cl_mem), &dc));
	CHECK(clSetKernelArg(k, 3, sizeof(int), &n));
	size_t global[2] = { (size_t)n, (size_t)n }, local[2] = { TILE, TILE };
	CHECK(clEnqueueNDRangeKernel(queue, k, 2, NULL, global, local, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(queue, dc, CL_TRUE, 0, bytes, c, 0, NULL, NULL));

	FILE *out = fopen(argv[2], "wb");
	if (!out || fwrite(c, 1, bytes, out) != bytes || fclose(out) != 0) {
		perror(argv[2]);
		return 1;
	}
	printf("sgemm: %dx%d, c[0] = %.5f\n", n, n, c[0]);

	clReleaseMemObject(da);
	clReleaseMemObject(db);
	clReleaseMemObject(dc);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	clReleaseCommandQueue(queue);
	clReleaseContext(ctx);
	free(src);
	free(a);
	free(b);
	free(c);
	return 0;
}
