/* SPDX-License-Identifier: MIT */
/*
 * host_cl12.c - clCreateCommandQueueWithProperties, and launches on the
 * queues it makes (cl12.sh runs it as if on an OpenCL 1.2 ICD loader,
 * which lacks the function). Prints to stdout each creation's code
 * (the last, a property clCreateCommandQueue has no equivalent of, may
 * differ); writes the read bytes of vadd on each queue to argv[1].
 * Usage: host_cl12 OUT vadd.cl
 */
/* clCreateCommandQueueWithProperties is 2.0; rt_setup's
 * clCreateCommandQueue is deprecated there. */
#define CL_TARGET_OPENCL_VERSION 200
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include "rt_host.h"

#define N (1u << 16)

static float in[N], out[N];

static void run_vadd(rt_cl *c, cl_command_queue q, FILE *f)
{
	cl_int err;
	size_t bytes = sizeof in, g = N, l = 64;
	cl_uint n = N;
	cl_mem a = clCreateBuffer(c->ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
	CHECK(err);
	cl_mem b = clCreateBuffer(c->ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
	CHECK(err);
	cl_kernel k = clCreateKernel(c->prog, "vadd", &err);
	CHECK(err);
	CHECK(clSetKernelArg(k, 0, sizeof a, &a));
	CHECK(clSetKernelArg(k, 1, sizeof a, &a));
	CHECK(clSetKernelArg(k, 2, sizeof b, &b));
	CHECK(clSetKernelArg(k, 3, sizeof n, &n));
	CHECK(clEnqueueWriteBuffer(q, a, CL_FALSE, 0, bytes, in, 0, NULL, NULL));
	CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, bytes, out, 0, NULL, NULL));
	rt_write(f, out, bytes);
	CHECK(clReleaseKernel(k));
	CHECK(clReleaseMemObject(a));
	CHECK(clReleaseMemObject(b));
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: host_cl12 OUT vadd.cl\n");
		return 2;
	}
	rt_cl c;
	rt_setup(&c, argv[2], NULL);
	for (cl_uint i = 0; i < N; i++)
		in[i] = (float)(i % 977) - 400.0f;
	FILE *f = fopen(argv[1], "wb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	run_vadd(&c, c.q, f);
	static const cl_queue_properties plain[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
	const cl_queue_properties *lists[] = {NULL, plain};
	for (int i = 0; i < 2; i++) {
		cl_int err = 1;
		cl_command_queue q = clCreateCommandQueueWithProperties(c.ctx, c.dev, lists[i], &err);
		cl_command_queue_properties p = 0;
		if (q)
			CHECK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof p, &p, NULL));
		printf("properties %d: %d, %s, %#llx\n", i, err, q ? "made" : "none",
		       (unsigned long long)p);
		if (q) {
			run_vadd(&c, q, f);
			CHECK(clReleaseCommandQueue(q));
		}
	}
	/* A device queue's size: no 1.2 queue has one. */
	static const cl_queue_properties other[] = {CL_QUEUE_SIZE, 1024, 0};
	cl_int err = 1;
	cl_command_queue q = clCreateCommandQueueWithProperties(c.ctx, c.dev, other, &err);
	printf("other: %d, %s\n", err, q ? "made" : "none");
	if (q)
		CHECK(clReleaseCommandQueue(q));
	if (fclose(f) != 0) {
		perror(argv[1]);
		return 1;
	}
	rt_teardown(&c);
	return 0;
}
