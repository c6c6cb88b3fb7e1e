/* SPDX-License-Identifier: MIT */
/*
 * scan - an inclusive prefix sum in two kernel passes, with the kernels
 * embedded in the host source as a string literal (as vendor SDK samples
 * do): chunk_scan scans each work-item's chunk of CHUNK elements and
 * records the chunk's total, the host scans the totals, and add_offsets
 * adds each chunk's offset. No atomics: every element has one writer.
 *
 *   usage: scan N OUTFILE     (N unsigned ints, N a multiple of CHUNK*64)
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 32
#define WG 64

static const char *kernel_source =
	"__kernel void chunk_scan(__global const T *in, __global T *out,\n"
	"                         __global T *totals)\n"
	"{\n"
	"\tsize_t c = get_global_id(0), base = c * CHUNK;\n"
	"\tT acc = 0;\n"
	"\tfor (int i = 0; i < CHUNK; i++) {\n"
	"\t\tacc += in[base + i];\n"
	"\t\tout[base + i] = acc;\n"
	"\t}\n"
	"\ttotals[c] = acc;\n"
	"}\n"
	"\n"
	"__kernel void add_offsets(__global T *data, __global const T *offsets)\n"
	"{\n"
	"\tsize_t c = get_global_id(0), base = c * CHUNK;\n"
	"\tT off = offsets[c];\n"
	"\tfor (int i = 0; i < CHUNK; i++)\n"
	"\t\tdata[base + i] += off;\n"
	"}\n";

#define CHECK(call)                                                            \
	do {                                                                   \
		cl_int err_ = (call);                                          \
		if (err_ != CL_SUCCESS) {                                      \
			fprintf(stderr, "scan: %s failed: %d\n", #call, err_); \
			exit(1);                                               \
		}                                                              \
	} while (0)

static cl_mem make_buffer(cl_context ctx, cl_mem_flags flags, size_t bytes, void *host)
{
	cl_int err;
	cl_mem m = clCreateBuffer(ctx, flags, bytes, host, &err);
	CHECK(err);
	return m;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s N OUTFILE\n", argv[0]);
		return 2;
	}
	long n = atol(argv[1]);
	if (n <= 0 || n % (CHUNK * WG)) {
		fprintf(stderr, "scan: N must be a positive multiple of %d\n", CHUNK * WG);
		return 2;
	}
	size_t chunks = (size_t)n / CHUNK, bytes = (size_t)n * sizeof(cl_uint);
	cl_uint *data = malloc(bytes), *totals = malloc(chunks * sizeof(cl_uint));
	unsigned seed = 7;
	for (long i = 0; i < n; i++) {
		seed = seed * 1664525u + 1013904223u;
		data[i] = seed >> 20;
	}

	cl_platform_id platform;
	cl_device_id device;
	cl_int err;
	CHECK(clGetPlatformIDs(1, &platform, NULL));
	CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &device, NULL));
	cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
	CHECK(err);
	cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
	CHECK(err);
	cl_program prog = clCreateProgramWithSource(ctx, 1, &kernel_source, NULL, &err);
	CHECK(err);
	char opts[64];
	snprintf(opts, sizeof opts, "-D T=uint -D CHUNK=%d", CHUNK);
	if (clBuildProgram(prog, 1, &device, opts, NULL, NULL) != CL_SUCCESS) {
		char log[16384];
		clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
		fprintf(stderr, "scan: build failed:\n%s\n", log);
		return 1;
	}
	cl_kernel scan = clCreateKernel(prog, "chunk_scan", &err);
	CHECK(err);
	cl_kernel add = clCreateKernel(prog, "add_offsets", &err);
	CHECK(err);

	cl_mem din = make_buffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, data);
	cl_mem dout = make_buffer(ctx, CL_MEM_READ_WRITE, bytes, NULL);
	cl_mem dtot = make_buffer(ctx, CL_MEM_READ_WRITE, chunks * sizeof(cl_uint), NULL);

	size_t global = chunks, local = WG;
	CHECK(clSetKernelArg(scan, 0, sizeof(cl_mem), &din));
	CHECK(clSetKernelArg(scan, 1, sizeof(cl_mem), &dout));
	CHECK(clSetKernelArg(scan, 2, sizeof(cl_mem), &dtot));
	CHECK(clEnqueueNDRangeKernel(queue, scan, 1, NULL, &global, &local, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(queue, dtot, CL_TRUE, 0, chunks * sizeof(cl_uint), totals,
	                          0, NULL, NULL));

	/* Exclusive scan of the chunk totals on the host, in place. */
	cl_uint run = 0;
	for (size_t c = 0; c < chunks; c++) {
		cl_uint t = totals[c];
		totals[c] = run;
		run += t;
	}
	CHECK(clEnqueueWriteBuffer(queue, dtot, CL_TRUE, 0, chunks * sizeof(cl_uint), totals,
	                           0, NULL, NULL));
	CHECK(clSetKernelArg(add, 0, sizeof(cl_mem), &dout));
	CHECK(clSetKernelArg(add, 1, sizeof(cl_mem), &dtot));
	CHECK(clEnqueueNDRangeKernel(queue, add, 1, NULL, &global, &local, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(queue, dout, CL_TRUE, 0, bytes, data, 0, NULL, NULL));

	FILE *out = fopen(argv[2], "wb");
	if (!out || fwrite(data, 1, bytes, out) != bytes || fclose(out) != 0) {
		perror(argv[2]);
		return 1;
	}
	printf("scan: %ld elements, last %u\n", n, data[n - 1]);

	clReleaseMemObject(din);
	clReleaseMemObject(dout);
	clReleaseMemObject(dtot);
	clReleaseKernel(scan);
	clReleaseKernel(add);
	clReleaseProgram(prog);
	clReleaseCommandQueue(queue);
	clReleaseContext(ctx);
	free(data);
	free(totals);
	return 0;
}
