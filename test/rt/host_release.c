/* SPDX-License-Identifier: MIT */
/*
 * host_release.c - clReleaseCommandQueue waits for nothing (OpenCL 1.2
 * §5.1: the queue's commands still complete, and the queue is deleted
 * after they have). Each round enqueues, without blocking, a write that
 * waits for a user event, a launch and a read with an event, releases
 * the queue, then sets the user event and waits for the read's event. A
 * release that waited for the queue's commands would wait for ever: they
 * wait for the user event, which the program sets after it.
 *   round 0: the program holds a second reference (its release is not
 *            the last), then uses the queue again and releases it last;
 *   rounds 1-4: the release is the last reference; each round makes a
 *            new queue (the driver may give it the address of the one
 *            before), alternately in a second context, whose buffers
 *            are not the first's.
 * WHICH is "kept" (round 0) or "last" (rounds 1-4). Writes every read's
 * bytes to argv[1], so a run through the runtime must match a plain run
 * byte for byte.
 *   "exit": the queue's commands (a write after a user event, EXIT_LAUNCHES
 *            launches, a read) are all still to run when main returns:
 *            the program releases the queue, every object and both
 *            contexts, then sets the user event and returns. The
 *            runtime's executor, still running them, must end before
 *            the process's exit handlers (the VAST_STATS report) and the
 *            driver's teardown run (release.sh counts the launches the
 *            report shows). Writes the input bytes only.
 * Usage: host_release OUT vadd.cl WHICH
 */
#include "rt_host.h"

#define N (1u << 16) /* 256 KiB per buffer */
#define ROUNDS 5
#define EXIT_LAUNCHES 20

static float in[ROUNDS][N], out[ROUNDS][N], again[N];

/* c = a + a on q, after the user event; the read's event. */
static cl_event enqueue_round(cl_context ctx, cl_command_queue q, cl_kernel k, cl_event user,
                              const float *src, float *dst, cl_mem *a, cl_mem *c)
{
	cl_int err;
	size_t bytes = N * sizeof(float), g = N, l = 64;
	cl_uint n = N;
	*a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
	CHECK(err);
	*c = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
	CHECK(err);
	CHECK(clSetKernelArg(k, 0, sizeof *a, a));
	CHECK(clSetKernelArg(k, 1, sizeof *a, a));
	CHECK(clSetKernelArg(k, 2, sizeof *c, c));
	CHECK(clSetKernelArg(k, 3, sizeof n, &n));
	cl_event read;
	CHECK(clEnqueueWriteBuffer(q, *a, CL_FALSE, 0, bytes, src, 1, &user, NULL));
	CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(q, *c, CL_FALSE, 0, bytes, dst, 0, NULL, &read));
	return read;
}

/* Everything still queued at the return from main. */
static int exit_pending(const char *path, const char *src)
{
	rt_cl c[2];
	rt_setup(&c[0], src, NULL);
	rt_setup(&c[1], src, NULL);
	FILE *f = fopen(path, "wb");
	if (!f) {
		perror(path);
		return 1;
	}
	rt_write(f, in[0], sizeof in[0]);
	if (fclose(f) != 0) {
		perror(path);
		return 1;
	}
	cl_int err;
	cl_command_queue q = clCreateCommandQueue(c[0].ctx, c[0].dev, 0, &err);
	CHECK(err);
	cl_kernel k = clCreateKernel(c[0].prog, "vadd", &err);
	CHECK(err);
	cl_event user = clCreateUserEvent(c[0].ctx, &err);
	CHECK(err);
	cl_mem a, b;
	cl_event read = enqueue_round(c[0].ctx, q, k, user, in[0], out[0], &a, &b);
	size_t g = N, l = 64;
	for (int i = 1; i < EXIT_LAUNCHES; i++)
		CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
	CHECK(clReleaseCommandQueue(q));
	CHECK(clReleaseEvent(read));
	CHECK(clReleaseMemObject(a));
	CHECK(clReleaseMemObject(b));
	CHECK(clReleaseKernel(k));
	rt_teardown(&c[0]);
	rt_teardown(&c[1]);
	CHECK(clSetUserEventStatus(user, CL_COMPLETE));
	CHECK(clReleaseEvent(user));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 4 || (strcmp(argv[3], "kept") && strcmp(argv[3], "last") &&
	                 strcmp(argv[3], "exit"))) {
		fprintf(stderr, "usage: host_release OUT vadd.cl kept|last|exit\n");
		return 2;
	}
	if (!strcmp(argv[3], "exit"))
		return exit_pending(argv[1], argv[2]);
	int first = strcmp(argv[3], "kept") ? 1 : 0, end = first ? ROUNDS : 1;
	rt_cl c[2];
	rt_setup(&c[0], argv[2], NULL);
	rt_setup(&c[1], argv[2], NULL);
	for (int r = 0; r < ROUNDS; r++)
		for (cl_uint i = 0; i < N; i++)
			in[r][i] = (float)((i * (r + 3)) % 977) - 400.0f;
	for (int r = first; r < end; r++) {
		rt_cl *x = &c[r % 2];
		cl_int err;
		cl_command_queue q = clCreateCommandQueue(x->ctx, x->dev, 0, &err);
		CHECK(err);
		cl_kernel k = clCreateKernel(x->prog, "vadd", &err);
		CHECK(err);
		cl_event user = clCreateUserEvent(x->ctx, &err);
		CHECK(err);
		if (r == 0)
			CHECK(clRetainCommandQueue(q));
		cl_mem a, b;
		cl_event read = enqueue_round(x->ctx, q, k, user, in[r], out[r], &a, &b);
		CHECK(clReleaseCommandQueue(q));
		CHECK(clSetUserEventStatus(user, CL_COMPLETE));
		CHECK(clWaitForEvents(1, &read));
		if (r == 0) {
			/* Still the program's: read c again, blocking. */
			CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof again, again, 0, NULL,
			                          NULL));
			CHECK(clReleaseCommandQueue(q));
		}
		CHECK(clReleaseEvent(read));
		CHECK(clReleaseEvent(user));
		CHECK(clReleaseMemObject(a));
		CHECK(clReleaseMemObject(b));
		CHECK(clReleaseKernel(k));
	}
	FILE *f = fopen(argv[1], "wb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	rt_write(f, out, sizeof out);
	rt_write(f, again, sizeof again);
	if (fclose(f) != 0) {
		perror(argv[1]);
		return 1;
	}
	rt_teardown(&c[0]);
	rt_teardown(&c[1]);
	return 0;
}
