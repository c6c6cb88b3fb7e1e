/* SPDX-License-Identifier: MIT */
/*
 * overlap - launches queued back to back, for test/e2e/overlap.sh.
 * usage: overlap smooth STEPS OUT   the smoothing kernel STEPS times,
 *            a -> b, b -> a, ...; the first launch waits for a user event
 *            completed only once every launch is enqueued; writes a;
 *        overlap two OUT   smooth a -> b, then a -> c with an event;
 *            writes the codes of: waiting for that event, its status,
 *            reading b, reading c, and then rewriting b whole and reading
 *            it again (with VAST_FAIL_RANGE, the first launch fails).
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

#define N (1 << 16)

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	if (!s || fread(s, 1, (size_t)n, f) != (size_t)n)
		exit(1);
	s[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return s;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	int two = !strcmp(argv[1], "two");
	const char *outpath = argv[two ? 2 : 3];
	int steps = two ? 2 : atoi(argv[2]);
	cl_platform_id plat;
	cl_device_id dev;
	cl_int err;
	CHECK(clGetPlatformIDs(1, &plat, NULL));
	CHECK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
	cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	CHECK(err);
	cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
	CHECK(err);
	size_t len;
	char *src = read_file("overlap.cl", &len);
	cl_program prog = clCreateProgramWithSource(ctx, 1, (const char **)&src, &len, &err);
	CHECK(err);
	free(src);
	CHECK(clBuildProgram(prog, 1, &dev, NULL, NULL, NULL));
	cl_kernel smooth = clCreateKernel(prog, "smooth", &err);
	CHECK(err);
	static float h[N];
	for (int i = 0; i < N; i++)
		h[i] = (float)(i % 97);
	cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof h, h, &err);
	CHECK(err);
	cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof h, NULL, &err);
	CHECK(err);
	size_t gws = N, lws = 64;
	int n = N;
	FILE *f = fopen(outpath, "wb");
	if (!f)
		return 1;
	if (!two) {
		cl_event gate = clCreateUserEvent(ctx, &err);
		CHECK(err);
		for (int s = 0; s < steps; s++) {
			CHECK(clSetKernelArg(smooth, 0, sizeof(cl_mem), s % 2 ? &b : &a));
			CHECK(clSetKernelArg(smooth, 1, sizeof(cl_mem), s % 2 ? &a : &b));
			CHECK(clSetKernelArg(smooth, 2, sizeof n, &n));
			CHECK(clEnqueueNDRangeKernel(q, smooth, 1, NULL, &gws, &lws, s == 0,
			                             s == 0 ? &gate : NULL, NULL));
		}
		CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
		CHECK(clEnqueueReadBuffer(q, steps % 2 ? b : a, CL_TRUE, 0, sizeof h, h, 0, NULL, NULL));
		CHECK(clReleaseEvent(gate));
		fwrite(h, sizeof h, 1, f);
	} else {
		cl_mem c = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof h, NULL, &err);
		CHECK(err);
		CHECK(clSetKernelArg(smooth, 2, sizeof n, &n));
		CHECK(clSetKernelArg(smooth, 0, sizeof(cl_mem), &a));
		CHECK(clSetKernelArg(smooth, 1, sizeof(cl_mem), &b));
		CHECK(clEnqueueNDRangeKernel(q, smooth, 1, NULL, &gws, &lws, 0, NULL, NULL));
		CHECK(clSetKernelArg(smooth, 1, sizeof(cl_mem), &c));
		cl_event done;
		CHECK(clEnqueueNDRangeKernel(q, smooth, 1, NULL, &gws, &lws, 0, NULL, &done));
		cl_int codes[6];
		codes[0] = clWaitForEvents(1, &done);
		codes[1] = clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof codes[2],
		                          &codes[2], NULL);
		codes[1] = codes[1] ? codes[1] : codes[2];
		codes[2] = clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof h, h, 0, NULL, NULL);
		codes[3] = clEnqueueReadBuffer(q, c, CL_TRUE, 0, sizeof h, h, 0, NULL, NULL);
		codes[4] = clEnqueueWriteBuffer(q, b, CL_TRUE, 0, sizeof h, h, 0, NULL, NULL);
		codes[5] = clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof h, h, 0, NULL, NULL);
		for (int i = 0; i < 6; i++)
			fprintf(f, "%d\n", codes[i]);
		CHECK(clReleaseEvent(done));
		CHECK(clReleaseMemObject(c));
	}
	CHECK(clReleaseMemObject(a));
	CHECK(clReleaseMemObject(b));
	CHECK(clReleaseKernel(smooth));
	CHECK(clReleaseProgram(prog));
	CHECK(clReleaseCommandQueue(q));
	CHECK(clReleaseContext(ctx));
	return fclose(f) != 0;
}
