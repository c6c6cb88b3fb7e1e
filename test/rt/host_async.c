/* SPDX-License-Identifier: MIT */
/*
 * host_async.c - non-blocking commands and their events (issue 8 item 4):
 * two host threads, each with its own profiling queue, chain non-blocking
 * writes, launches and reads by events, one waiting on the other's
 * write; a kernel argument changes right after a non-blocking launch
 * (the launch keeps the value it was enqueued with, OpenCL 1.2 §5.8); a
 * callback counts completed launches; a write waiting on a failed user
 * event fails, and so does the read waiting on it (§5.9). Writes every
 * result and a few facts about the events (types, queues, ordered
 * profiling times: never the times themselves) to argv[1], so a run
 * through the runtime must match a plain run byte for byte.
 * Usage: host_async OUT vadd.cl
 */
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "rt_host.h"

#define N (1u << 18) /* 1 MiB per buffer: two exceed VAST_DEVICE_MEM=1M */
#define ROUNDS 4

static rt_cl c;
static pthread_barrier_t published;
static cl_event shared_written; /* thread 0's write of `shared` */
static cl_mem shared;
static atomic_int callbacks;

typedef struct worker {
	int id;
	float in[ROUNDS][N];  /* host memory of the non-blocking writes */
	float out[ROUNDS][2][N];
	float from_shared[N];
	int facts[ROUNDS][6];
} worker;

static void CL_CALLBACK count(cl_event e, cl_int status, void *user)
{
	(void)e;
	(void)user;
	if (status == CL_COMPLETE)
		atomic_fetch_add(&callbacks, 1);
}

static cl_command_type type_of(cl_event e)
{
	cl_command_type t = 0;
	CHECK(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL));
	return t;
}

/* queued <= submit <= start <= end, and the command took some time. */
static int profile_ordered(cl_event e)
{
	cl_ulong t[4];
	for (int i = 0; i < 4; i++)
		CHECK(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_QUEUED + i, sizeof t[i], &t[i],
		                              NULL));
	return t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3] && t[3] > t[2];
}

static void *work(void *p)
{
	worker *w = p;
	cl_int err;
	cl_command_queue q = clCreateCommandQueue(c.ctx, c.dev, CL_QUEUE_PROFILING_ENABLE, &err);
	CHECK(err);
	size_t bytes = N * sizeof(float);
	cl_mem a = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
	CHECK(err);
	cl_mem b = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
	CHECK(err);
	cl_mem s = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
	CHECK(err);
	cl_kernel vadd = clCreateKernel(c.prog, "vadd", &err);
	CHECK(err);
	cl_uint n = N;
	size_t g = N, l = 64;
	CHECK(clSetKernelArg(vadd, 3, sizeof n, &n));
	if (w->id == 0) {
		static float init[N];
		for (cl_uint i = 0; i < N; i++)
			init[i] = (float)(i % 101) - 50.0f;
		CHECK(clEnqueueWriteBuffer(q, shared, CL_FALSE, 0, bytes, init, 0, NULL,
		                           &shared_written));
	}
	pthread_barrier_wait(&published);
	/* The other thread's write, waited for across queues: s = 2 * shared. */
	CHECK(clSetKernelArg(vadd, 0, sizeof shared, &shared));
	CHECK(clSetKernelArg(vadd, 1, sizeof shared, &shared));
	CHECK(clSetKernelArg(vadd, 2, sizeof s, &s));
	cl_event ks;
	CHECK(clEnqueueNDRangeKernel(q, vadd, 1, NULL, &g, &l, 1, &shared_written, &ks));
	CHECK(clEnqueueReadBuffer(q, s, CL_FALSE, 0, bytes, w->from_shared, 1, &ks, NULL));
	cl_event prev = ks;
	for (int r = 0; r < ROUNDS; r++) {
		for (cl_uint i = 0; i < N; i++)
			w->in[r][i] = (float)((i * (r + 3)) % 977) * (w->id ? 0.5f : -0.25f);
		cl_event ew, k1, k2, er[2];
		CHECK(clEnqueueWriteBuffer(q, a, CL_FALSE, 0, bytes, w->in[r], 1, &prev, &ew));
		/* b = a + a, then at once: a = b + a (arguments 0 and 2 change
		 * right after the first launch is enqueued). */
		CHECK(clSetKernelArg(vadd, 0, sizeof a, &a));
		CHECK(clSetKernelArg(vadd, 1, sizeof a, &a));
		CHECK(clSetKernelArg(vadd, 2, sizeof b, &b));
		CHECK(clEnqueueNDRangeKernel(q, vadd, 1, NULL, &g, &l, 1, &ew, &k1));
		CHECK(clSetKernelArg(vadd, 0, sizeof b, &b));
		CHECK(clSetKernelArg(vadd, 2, sizeof a, &a));
		CHECK(clEnqueueNDRangeKernel(q, vadd, 1, NULL, &g, &l, 1, &k1, &k2));
		CHECK(clSetEventCallback(k2, CL_COMPLETE, count, NULL));
		CHECK(clEnqueueReadBuffer(q, b, CL_FALSE, 0, bytes, w->out[r][0], 1, &k2, &er[0]));
		CHECK(clEnqueueReadBuffer(q, a, CL_FALSE, 0, bytes, w->out[r][1], 1, &k2, &er[1]));
		CHECK(clWaitForEvents(2, er));
		cl_command_queue eq;
		CHECK(clGetEventInfo(k2, CL_EVENT_COMMAND_QUEUE, sizeof eq, &eq, NULL));
		cl_int st;
		CHECK(clGetEventInfo(er[1], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
		w->facts[r][0] = type_of(ew) == CL_COMMAND_WRITE_BUFFER;
		w->facts[r][1] = type_of(k1) == CL_COMMAND_NDRANGE_KERNEL;
		w->facts[r][2] = type_of(er[0]) == CL_COMMAND_READ_BUFFER;
		w->facts[r][3] = eq == q;
		w->facts[r][4] = st == CL_COMPLETE;
		w->facts[r][5] = profile_ordered(k1) && profile_ordered(k2);
		CHECK(clReleaseEvent(ew));
		CHECK(clReleaseEvent(k1));
		CHECK(clReleaseEvent(er[0]));
		CHECK(clReleaseEvent(er[1]));
		CHECK(clReleaseEvent(prev));
		prev = k2;
	}
	CHECK(clFinish(q));
	CHECK(clReleaseEvent(prev));
	/* Both threads have waited on it before this barrier. */
	pthread_barrier_wait(&published);
	if (w->id == 0)
		CHECK(clReleaseEvent(shared_written));
	CHECK(clReleaseKernel(vadd));
	CHECK(clReleaseMemObject(a));
	CHECK(clReleaseMemObject(b));
	CHECK(clReleaseMemObject(s));
	CHECK(clReleaseCommandQueue(q));
	return NULL;
}

/* A write waiting on a user event that fails must fail, and the read
 * waiting on the write too (OpenCL 1.2 §5.9). On its own queue: after a
 * failure, what becomes of later commands of the queue is the
 * implementation's choice. */
static void failure(int facts[3])
{
	cl_int err;
	cl_command_queue q = clCreateCommandQueue(c.ctx, c.dev, 0, &err);
	CHECK(err);
	cl_mem m = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE, 4096, NULL, &err);
	CHECK(err);
	cl_event u = clCreateUserEvent(c.ctx, &err);
	CHECK(err);
	static char src[4096], dst[4096];
	cl_event ew, er;
	CHECK(clEnqueueWriteBuffer(q, m, CL_FALSE, 0, sizeof src, src, 1, &u, &ew));
	CHECK(clEnqueueReadBuffer(q, m, CL_FALSE, 0, sizeof dst, dst, 1, &ew, &er));
	CHECK(clSetUserEventStatus(u, -1));
	facts[0] = clWaitForEvents(1, &er) != CL_SUCCESS;
	cl_int st;
	CHECK(clGetEventInfo(ew, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
	facts[1] = st < 0;
	CHECK(clGetEventInfo(er, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
	facts[2] = st < 0;
	CHECK(clReleaseEvent(u));
	CHECK(clReleaseEvent(ew));
	CHECK(clReleaseEvent(er));
	CHECK(clReleaseMemObject(m));
	CHECK(clReleaseCommandQueue(q));
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	rt_setup(&c, argv[2], "-D UNUSED=1");
	cl_int err;
	shared = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY, N * sizeof(float), NULL, &err);
	CHECK(err);
	static worker w[2];
	pthread_t t[2];
	if (pthread_barrier_init(&published, NULL, 2))
		return 1;
	for (int i = 0; i < 2; i++) {
		w[i].id = i;
		if (pthread_create(&t[i], NULL, work, &w[i]))
			return 1;
	}
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	/* Callbacks run on the implementation's threads, maybe after the
	 * event is waited for: give them up to ten seconds. */
	for (int i = 0; i < 1000 && atomic_load(&callbacks) < 2 * ROUNDS; i++)
		usleep(10000);
	int fail_facts[3], ncallbacks = atomic_load(&callbacks);
	failure(fail_facts);
	/* Every fact must hold in either build, not only agree. */
	int all = ncallbacks == 2 * ROUNDS && fail_facts[0] && fail_facts[1] && fail_facts[2];
	for (int i = 0; i < 2; i++)
		for (int r = 0; r < ROUNDS; r++)
			for (int f = 0; f < 6; f++)
				if (!w[i].facts[r][f]) {
					fprintf(stderr, "thread %d round %d: fact %d does not hold\n", i, r, f);
					all = 0;
				}
	if (!all)
		fprintf(stderr, "callbacks %d (want %d), failure facts %d %d %d\n", ncallbacks,
		        2 * ROUNDS, fail_facts[0], fail_facts[1], fail_facts[2]);
	FILE *out = fopen(argv[1], "wb");
	if (!out)
		return 1;
	for (int i = 0; i < 2; i++) {
		fwrite(w[i].out, sizeof w[i].out, 1, out);
		fwrite(w[i].from_shared, sizeof w[i].from_shared, 1, out);
		fwrite(w[i].facts, sizeof w[i].facts, 1, out);
	}
	fwrite(&ncallbacks, sizeof ncallbacks, 1, out);
	fwrite(fail_facts, sizeof fail_facts, 1, out);
	if (fclose(out))
		return 1;
	CHECK(clReleaseMemObject(shared));
	rt_teardown(&c);
	return all ? 0 : 1;
}
