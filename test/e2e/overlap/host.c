/* SPDX-License-Identifier: MIT */
/*
 * overlap - launches queued back to back, for test/e2e/overlap.sh.
 * usage: overlap smooth STEPS OUT   the smoothing kernel STEPS times,
 *            a -> b, b -> a, ...; the first launch waits for a user event
 *            completed only once every launch is enqueued; writes a;
 *        overlap two OUT   smooth a -> b, then a -> c with an event,
 *            the first behind a user event completed once both are
 *            enqueued (so the second is queued when the first runs);
 *            writes the codes of: waiting for that event, its status,
 *            reading b, reading c, and then rewriting b whole and reading
 *            it again (with VAST_FAIL_RANGE, the first launch fails).
 */
#include "rt_host.h"

#define N (1 << 16)

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	int two = !strcmp(argv[1], "two");
	const char *outpath = argv[two ? 2 : 3];
	int steps = two ? 2 : atoi(argv[2]);
	rt_cl c;
	rt_setup(&c, "overlap.cl", NULL);
	cl_int err;
	cl_kernel smooth = clCreateKernel(c.prog, "smooth", &err);
	CHECK(err);
	static float h[N];
	for (int i = 0; i < N; i++)
		h[i] = (float)(i % 97);
	cl_mem a = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof h, h, &err);
	CHECK(err);
	cl_mem b = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE, sizeof h, NULL, &err);
	CHECK(err);
	size_t gws = N, lws = 64;
	int n = N;
	FILE *f = fopen(outpath, "wb");
	if (!f)
		return 1;
	if (!two) {
		cl_event gate = clCreateUserEvent(c.ctx, &err);
		CHECK(err);
		for (int s = 0; s < steps; s++) {
			CHECK(clSetKernelArg(smooth, 0, sizeof(cl_mem), s % 2 ? &b : &a));
			CHECK(clSetKernelArg(smooth, 1, sizeof(cl_mem), s % 2 ? &a : &b));
			CHECK(clSetKernelArg(smooth, 2, sizeof n, &n));
			CHECK(clEnqueueNDRangeKernel(c.q, smooth, 1, NULL, &gws, &lws, s == 0,
			                             s == 0 ? &gate : NULL, NULL));
		}
		CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
		CHECK(clEnqueueReadBuffer(c.q, steps % 2 ? b : a, CL_TRUE, 0, sizeof h, h, 0, NULL, NULL));
		CHECK(clReleaseEvent(gate));
		fwrite(h, sizeof h, 1, f);
	} else {
		cl_mem third = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE, sizeof h, NULL, &err);
		CHECK(err);
		CHECK(clSetKernelArg(smooth, 2, sizeof n, &n));
		CHECK(clSetKernelArg(smooth, 0, sizeof(cl_mem), &a));
		CHECK(clSetKernelArg(smooth, 1, sizeof(cl_mem), &b));
		cl_event gate = clCreateUserEvent(c.ctx, &err);
		CHECK(err);
		CHECK(clEnqueueNDRangeKernel(c.q, smooth, 1, NULL, &gws, &lws, 1, &gate, NULL));
		CHECK(clSetKernelArg(smooth, 1, sizeof(cl_mem), &third));
		cl_event done;
		CHECK(clEnqueueNDRangeKernel(c.q, smooth, 1, NULL, &gws, &lws, 0, NULL, &done));
		CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
		CHECK(clReleaseEvent(gate));
		cl_int codes[6];
		codes[0] = clWaitForEvents(1, &done);
		codes[1] = clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof codes[2],
		                          &codes[2], NULL);
		codes[1] = codes[1] ? codes[1] : codes[2];
		codes[2] = clEnqueueReadBuffer(c.q, b, CL_TRUE, 0, sizeof h, h, 0, NULL, NULL);
		codes[3] = clEnqueueReadBuffer(c.q, third, CL_TRUE, 0, sizeof h, h, 0, NULL, NULL);
		codes[4] = clEnqueueWriteBuffer(c.q, b, CL_TRUE, 0, sizeof h, h, 0, NULL, NULL);
		codes[5] = clEnqueueReadBuffer(c.q, b, CL_TRUE, 0, sizeof h, h, 0, NULL, NULL);
		for (int i = 0; i < 6; i++)
			fprintf(f, "%d\n", codes[i]);
		CHECK(clReleaseEvent(done));
		CHECK(clReleaseMemObject(third));
	}
	CHECK(clReleaseMemObject(a));
	CHECK(clReleaseMemObject(b));
	CHECK(clReleaseKernel(smooth));
	rt_teardown(&c);
	return fclose(f) != 0;
}
