/* SPDX-License-Identifier: MIT */
/*
 * host_threads.c - two host threads, each with its own command queue,
 * kernels and buffers in one context, launch vadd and evens over and over
 * at the same time; writes every thread's buffers to argv[1]. Usage:
 * host_threads OUT vadd.cl. Under a small budget every launch pages, and
 * the runtime's pipelined ranges of one thread must not disturb the
 * other's (OpenCL 1.2 §A.2: host threads may share a context).
 */
#include <pthread.h>

#include "rt_host.h"

#define N (1u << 18) /* 1 MiB per buffer */
#define ROUNDS 6

typedef struct worker {
	rt_cl *c;
	int id;
	float out[2][N];
} worker;

static void *work(void *p)
{
	worker *w = p;
	cl_int err;
	cl_command_queue q = clCreateCommandQueue(w->c->ctx, w->c->dev, 0, &err);
	CHECK(err);
	size_t bytes = N * sizeof(float);
	float *h = malloc(bytes);
	if (!h)
		exit(1);
	for (cl_uint i = 0; i < N; i++)
		h[i] = (float)(i % 977) * (w->id ? 0.25f : -1.5f);
	cl_mem a = clCreateBuffer(w->c->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, h, &err);
	CHECK(err);
	cl_mem b = clCreateBuffer(w->c->ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
	CHECK(err);
	cl_kernel vadd = clCreateKernel(w->c->prog, "vadd", &err);
	CHECK(err);
	cl_kernel evens = clCreateKernel(w->c->prog, "evens", &err);
	CHECK(err);
	cl_uint n = N;
	size_t g = N, l = 64, half = N / 2;
	for (int r = 0; r < ROUNDS; r++) {
		/* b = a + a; a = b + a; then every other element of b. */
		CHECK(clSetKernelArg(vadd, 0, sizeof a, &a));
		CHECK(clSetKernelArg(vadd, 1, sizeof a, &a));
		CHECK(clSetKernelArg(vadd, 2, sizeof b, &b));
		CHECK(clSetKernelArg(vadd, 3, sizeof n, &n));
		CHECK(clEnqueueNDRangeKernel(q, vadd, 1, NULL, &g, &l, 0, NULL, NULL));
		CHECK(clSetKernelArg(vadd, 0, sizeof b, &b));
		CHECK(clSetKernelArg(vadd, 2, sizeof a, &a));
		CHECK(clEnqueueNDRangeKernel(q, vadd, 1, NULL, &g, &l, 0, NULL, NULL));
		CHECK(clSetKernelArg(evens, 0, sizeof b, &b));
		CHECK(clSetKernelArg(evens, 1, sizeof n, &n));
		CHECK(clEnqueueNDRangeKernel(q, evens, 1, NULL, &half, &l, 0, NULL, NULL));
	}
	CHECK(clEnqueueReadBuffer(q, a, CL_TRUE, 0, bytes, w->out[0], 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, bytes, w->out[1], 0, NULL, NULL));
	CHECK(clReleaseKernel(vadd));
	CHECK(clReleaseKernel(evens));
	CHECK(clReleaseMemObject(a));
	CHECK(clReleaseMemObject(b));
	CHECK(clReleaseCommandQueue(q));
	free(h);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	rt_cl c;
	rt_setup(&c, argv[2], "-D UNUSED=1");
	static worker w[2];
	pthread_t t[2];
	for (int i = 0; i < 2; i++) {
		w[i].c = &c;
		w[i].id = i;
		if (pthread_create(&t[i], NULL, work, &w[i]))
			return 1;
	}
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	FILE *out = fopen(argv[1], "wb");
	if (!out)
		return 1;
	for (int i = 0; i < 2; i++)
		rt_write(out, w[i].out, sizeof w[i].out);
	if (fclose(out))
		return 1;
	rt_teardown(&c);
	return 0;
}
