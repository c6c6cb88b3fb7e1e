/* SPDX-License-Identifier: MIT */
/*
 * chunks - "process a large array in chunks" as GitHub projects do it
 * with sub-buffers: one buffer per array, a sub-buffer per chunk (origin
 * aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN), a kernel per chunk, a write
 * into one chunk through its sub-buffer, a pass over the whole buffers,
 * non-blocking reads per chunk gathered with clWaitForEvents, and an
 * event callback.
 * usage: chunks OUT
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NCHUNKS 4
#define CHUNK (64 * 1024) /* floats */
#define N (NCHUNKS * CHUNK)

#define CHECK(x)                                                              \
	do {                                                                  \
		cl_int e_ = (x);                                              \
		if (e_ != CL_SUCCESS) {                                       \
			fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, e_); \
			exit(1);                                              \
		}                                                             \
	} while (0)

static volatile int callbacks;
static void CL_CALLBACK done_cb(cl_event e, cl_int status, void *user)
{
	(void)e;
	(void)user;
	if (status == CL_COMPLETE)
		callbacks++;
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
	cl_uint align_bits = 0;
	CHECK(clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL));
	if ((CHUNK * sizeof(float)) % (align_bits / 8)) {
		fprintf(stderr, "chunk not aligned to %u bits\n", align_bits);
		return 1;
	}

	FILE *f = fopen("chunks.cl", "r");
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
	cl_kernel smooth = clCreateKernel(prog, "smooth", &err);
	CHECK(err);
	cl_kernel combine = clCreateKernel(prog, "combine", &err);
	CHECK(err);

	float *host = malloc(N * sizeof(float));
	for (int i = 0; i < N; i++)
		host[i] = (float)((i * 37) % 1009) - 500.0f;
	cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * sizeof(float), host, &err);
	CHECK(err);
	cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(float), NULL, &err);
	CHECK(err);
	cl_mem sa[NCHUNKS], sb[NCHUNKS];
	for (int c = 0; c < NCHUNKS; c++) {
		cl_buffer_region r = { (size_t)c * CHUNK * sizeof(float), CHUNK * sizeof(float) };
		sa[c] = clCreateSubBuffer(a, CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
		CHECK(err);
		sb[c] = clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
		CHECK(err);
	}
	size_t off = 0;
	cl_mem parent = NULL;
	CHECK(clGetMemObjectInfo(sb[2], CL_MEM_OFFSET, sizeof off, &off, NULL));
	CHECK(clGetMemObjectInfo(sb[2], CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL));
	if (off != 2 * CHUNK * sizeof(float) || parent != b) {
		fprintf(stderr, "sub-buffer queries wrong\n");
		return 1;
	}

	/* Chunk 1 of a gets new data through its sub-buffer... */
	float patch[256];
	for (int i = 0; i < 256; i++)
		patch[i] = 1000.0f + i;
	CHECK(clEnqueueWriteBuffer(q, sa[1], CL_TRUE, 100 * sizeof(float), sizeof patch, patch, 0, NULL, NULL));
	/* ...then every chunk is smoothed on its own. */
	cl_uint n = CHUNK;
	size_t gws = CHUNK, lws = 128;
	for (int c = 0; c < NCHUNKS; c++) {
		CHECK(clSetKernelArg(smooth, 0, sizeof(cl_mem), &sa[c]));
		CHECK(clSetKernelArg(smooth, 1, sizeof(cl_mem), &sb[c]));
		CHECK(clSetKernelArg(smooth, 2, sizeof n, &n));
		CHECK(clEnqueueNDRangeKernel(q, smooth, 1, NULL, &gws, &lws, 0, NULL, NULL));
	}
	/* The whole arrays, while the sub-buffers still exist. */
	cl_uint nn = N;
	size_t gall = N;
	cl_event ev;
	CHECK(clSetKernelArg(combine, 0, sizeof(cl_mem), &b));
	CHECK(clSetKernelArg(combine, 1, sizeof(cl_mem), &a));
	CHECK(clSetKernelArg(combine, 2, sizeof nn, &nn));
	CHECK(clEnqueueNDRangeKernel(q, combine, 1, NULL, &gall, &lws, 0, NULL, &ev));
	CHECK(clSetEventCallback(ev, CL_COMPLETE, done_cb, NULL));
	/* And the first chunk smoothed once more, after the whole pass. */
	CHECK(clSetKernelArg(smooth, 0, sizeof(cl_mem), &sb[0]));
	CHECK(clSetKernelArg(smooth, 1, sizeof(cl_mem), &sb[3]));
	CHECK(clEnqueueNDRangeKernel(q, smooth, 1, NULL, &gws, &lws, 1, &ev, NULL));

	float *out = malloc(N * sizeof(float));
	cl_event reads[NCHUNKS];
	for (int c = 0; c < NCHUNKS; c++)
		CHECK(clEnqueueReadBuffer(q, sb[c], CL_FALSE, 0, CHUNK * sizeof(float), out + (size_t)c * CHUNK,
		                          0, NULL, &reads[c]));
	CHECK(clWaitForEvents(NCHUNKS, reads));
	CHECK(clFinish(q));
	for (int c = 0; c < NCHUNKS; c++)
		clReleaseEvent(reads[c]);
	clReleaseEvent(ev);
	if (callbacks != 1) {
		fprintf(stderr, "event callback ran %d times\n", callbacks);
		return 1;
	}
	FILE *o = fopen(argv[1], "wb");
	if (!o || fwrite(out, sizeof(float), N, o) != N || fclose(o))
		return 1;
	printf("chunks: out[0]=%g out[N-1]=%g\n", out[0], out[N - 1]);
	/* Parents first: their sub-buffers keep them alive. */
	clReleaseMemObject(a);
	clReleaseMemObject(b);
	for (int c = 0; c < NCHUNKS; c++) {
		clReleaseMemObject(sa[c]);
		clReleaseMemObject(sb[c]);
	}
	clReleaseKernel(smooth);
	clReleaseKernel(combine);
	clReleaseProgram(prog);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	free(host);
	free(out);
	return 0;
}
