/* SPDX-License-Identifier: MIT */
/*
 * host_order.c - the program's own commands order the runtime's (OpenCL
 * 1.2 §5.11: an in-order queue runs its commands in the order enqueued).
 * Each round puts a command that waits for a user event on the queue,
 * one way a program can (a barrier and a marker with a wait list, which
 * the runtime forwards; an image write, which it only passes on),
 * then a non-blocking write, a launch and a read; 50 ms later the read's
 * event must still not be complete. Then the user event completes, and
 * the sums are checked. A round with nothing of the program's in between
 * runs 100 launches back to back (the runtime needs no marker there).
 * Writes each round's facts and results to argv[1], so a run through the
 * runtime must match a plain run byte for byte.
 * With a third argument "ext", first asks for an extension's enqueue
 * (clEnqueueCommandBufferKHR, which it never calls): the runtime hands
 * out its refusal, which puts nothing on a queue behind its back.
 * Usage: host_order OUT vadd.cl [ext]
 */
#include <unistd.h>

#include "rt_host.h"

#define N (1u << 17) /* three buffers of 512 KiB: paged at 1 MiB */

enum { BARRIER, MARKER, IMAGE, ROUNDS };

/* The program's own command that holds the queue until `gate`. */
static void hold(rt_cl *c, int how, cl_event gate)
{
	static const float texel[4 * 4 * 4];
	switch (how) {
	case BARRIER:
		CHECK(clEnqueueBarrierWithWaitList(c->q, 1, &gate, NULL));
		break;
	case MARKER: {
		/* A marker with a wait list orders nothing after it by itself
		 * (OpenCL 1.2 §5.10): the barrier after it does, waiting for
		 * the marker. */
		cl_event m;
		CHECK(clEnqueueMarkerWithWaitList(c->q, 1, &gate, &m));
		CHECK(clEnqueueBarrierWithWaitList(c->q, 1, &m, NULL));
		CHECK(clReleaseEvent(m));
		break;
	}
	case IMAGE: {
		cl_image_format f = {CL_RGBA, CL_FLOAT};
		cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4,
		                   .image_height = 4};
		cl_int err;
		cl_mem img = clCreateImage(c->ctx, CL_MEM_READ_WRITE, &f, &d, NULL, &err);
		CHECK(err);
		size_t origin[3] = {0, 0, 0}, region[3] = {4, 4, 1};
		CHECK(clEnqueueWriteImage(c->q, img, CL_FALSE, origin, region, 0, 0, texel, 1, &gate,
		                          NULL));
		CHECK(clReleaseMemObject(img)); /* it goes once the write is done */
		break;
	}
	}
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	rt_cl c;
	rt_setup(&c, argv[2], "-D UNUSED=1");
	if (argc > 3 && !strcmp(argv[3], "ext"))
		fprintf(stderr, "extension enqueue: %s\n",
		        clGetExtensionFunctionAddressForPlatform(c.plat, "clEnqueueCommandBufferKHR")
		                ? "handed out" : "none");
	FILE *out = fopen(argv[1], "wb");
	if (!out)
		return 1;
	cl_uint n = N;
	size_t bytes = n * sizeof(float);
	float *ha = malloc(bytes), *hb = malloc(bytes), *hc = malloc(bytes);
	if (!ha || !hb || !hc)
		return 1;
	cl_int err;
	cl_mem a = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
	CHECK(err);
	cl_mem b = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
	CHECK(err);
	cl_mem cc = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
	CHECK(err);
	cl_kernel vadd = clCreateKernel(c.prog, "vadd", &err);
	CHECK(err);
	CHECK(clSetKernelArg(vadd, 0, sizeof a, &a));
	CHECK(clSetKernelArg(vadd, 1, sizeof b, &b));
	CHECK(clSetKernelArg(vadd, 2, sizeof cc, &cc));
	CHECK(clSetKernelArg(vadd, 3, sizeof n, &n));
	size_t g = n, l = 64;
	for (cl_uint i = 0; i < n; i++)
		hb[i] = (float)(i % 97);
	CHECK(clEnqueueWriteBuffer(c.q, b, CL_TRUE, 0, bytes, hb, 0, NULL, NULL));

	for (int round = 0; round < ROUNDS; round++) {
		/* What the kernel must see: this round's `a`, never the last. */
		for (cl_uint i = 0; i < n; i++)
			ha[i] = (float)(round * 1000 + (int)(i % 13));
		cl_event gate = clCreateUserEvent(c.ctx, &err);
		CHECK(err);
		hold(&c, round, gate);
		cl_event read;
		CHECK(clEnqueueWriteBuffer(c.q, a, CL_FALSE, 0, bytes, ha, 0, NULL, NULL));
		CHECK(clEnqueueNDRangeKernel(c.q, vadd, 1, NULL, &g, &l, 0, NULL, NULL));
		CHECK(clEnqueueReadBuffer(c.q, cc, CL_FALSE, 0, bytes, hc, 0, NULL, &read));
		CHECK(clFlush(c.q));
		usleep(50 * 1000);
		cl_int early;
		CHECK(clGetEventInfo(read, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof early, &early,
		                     NULL));
		int held = early != CL_COMPLETE;
		CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
		CHECK(clWaitForEvents(1, &read));
		int wrong = 0;
		for (cl_uint i = 0; i < n; i++)
			wrong += hc[i] != ha[i] + hb[i];
		fprintf(stderr, "round %d: held %d, wrong sums %d\n", round, held, wrong);
		rt_write(out, &held, sizeof held);
		rt_write(out, &wrong, sizeof wrong);
		rt_write(out, hc, bytes);
		CHECK(clReleaseEvent(read));
		CHECK(clReleaseEvent(gate));
	}

	/* Nothing of the program's between the runtime's commands. */
	for (cl_uint i = 0; i < n; i++)
		ha[i] = 0;
	CHECK(clEnqueueWriteBuffer(c.q, cc, CL_FALSE, 0, bytes, ha, 0, NULL, NULL));
	CHECK(clSetKernelArg(vadd, 0, sizeof cc, &cc));
	for (int i = 0; i < 100; i++)
		CHECK(clEnqueueNDRangeKernel(c.q, vadd, 1, NULL, &g, &l, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(c.q, cc, CL_TRUE, 0, bytes, hc, 0, NULL, NULL));
	rt_write(out, hc, bytes);

	CHECK(clReleaseKernel(vadd));
	CHECK(clReleaseMemObject(a));
	CHECK(clReleaseMemObject(b));
	CHECK(clReleaseMemObject(cc));
	rt_teardown(&c);
	fclose(out);
	free(ha), free(hb), free(hc);
	return 0;
}
