/* SPDX-License-Identifier: MIT */
/*
 * evict - for test/e2e/evict.sh: scale(b) once, then ROUNDS rounds of
 * scale(a) (small: runs natively) and sum2(x, y, z) (large: pages), all
 * queued at once behind a user event, so that each launch sees those
 * after it (with SYNC 1, a clFinish after each: it sees none); then a, b
 * and z are read into OUT.
 * usage: evict ROUNDS SYNC OUT
 */
#include "rt_host.h"

#define SMALL (1 << 18) /* floats of a and b: 1 MiB */
#define LARGE (1 << 19) /* of x, y and z: 2 MiB */

static void launch(cl_command_queue q, cl_kernel k, size_t n, cl_event *gate, int sync)
{
	size_t lws = 64;
	CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &lws, *gate ? 1 : 0, *gate ? gate : NULL,
	                             NULL));
	if (*gate) {
		CHECK(clReleaseEvent(*gate));
		*gate = NULL;
	}
	if (sync)
		CHECK(clFinish(q));
}

int main(int argc, char **argv)
{
	if (argc < 4)
		return 2;
	int rounds = atoi(argv[1]), sync = atoi(argv[2]);
	rt_cl c;
	rt_setup(&c, "evict.cl", NULL);
	cl_int err;
	cl_kernel scale_a = clCreateKernel(c.prog, "scale", &err);
	CHECK(err);
	cl_kernel scale_b = clCreateKernel(c.prog, "scale", &err);
	CHECK(err);
	cl_kernel sum2 = clCreateKernel(c.prog, "sum2", &err);
	CHECK(err);
	static float ha[SMALL], hb[SMALL], hx[LARGE], hy[LARGE], hz[LARGE];
	for (int i = 0; i < LARGE; i++) {
		hx[i] = (float)(i % 97);
		hy[i] = (float)(i % 89) * 0.25f;
		hz[i] = (float)(i % 13);
	}
	for (int i = 0; i < SMALL; i++) {
		ha[i] = (float)(i % 31);
		hb[i] = (float)(i % 37);
	}
	cl_mem m[5];
	float *h[5] = {ha, hb, hx, hy, hz};
	size_t n[5] = {sizeof ha, sizeof hb, sizeof hx, sizeof hy, sizeof hz};
	for (int i = 0; i < 5; i++) {
		m[i] = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n[i], h[i], &err);
		CHECK(err);
	}
	float f = 0.5f;
	CHECK(clSetKernelArg(scale_a, 0, sizeof m[0], &m[0]));
	CHECK(clSetKernelArg(scale_a, 1, sizeof f, &f));
	CHECK(clSetKernelArg(scale_b, 0, sizeof m[1], &m[1]));
	CHECK(clSetKernelArg(scale_b, 1, sizeof f, &f));
	for (int i = 0; i < 3; i++)
		CHECK(clSetKernelArg(sum2, (cl_uint)i, sizeof m[2 + i], &m[2 + i]));
	/* Nothing runs before every launch is queued (unless SYNC). */
	err = CL_SUCCESS;
	cl_event gate = sync ? NULL : clCreateUserEvent(c.ctx, &err), held = gate;
	CHECK(err);
	if (held)
		CHECK(clRetainEvent(held));
	launch(c.q, scale_b, SMALL, &gate, sync);
	for (int r = 0; r < rounds; r++) {
		launch(c.q, scale_a, SMALL, &gate, sync);
		launch(c.q, sum2, LARGE, &gate, sync);
	}
	if (held) {
		CHECK(clSetUserEventStatus(held, CL_COMPLETE));
		CHECK(clReleaseEvent(held));
	}
	FILE *out = fopen(argv[3], "wb");
	if (!out)
		return 1;
	for (int i = 0; i < 5; i += i == 1 ? 3 : 1) { /* a, b, z */
		CHECK(clEnqueueReadBuffer(c.q, m[i], CL_TRUE, 0, n[i], h[i], 0, NULL, NULL));
		rt_write(out, h[i], n[i]);
	}
	fclose(out);
	for (int i = 0; i < 5; i++)
		CHECK(clReleaseMemObject(m[i]));
	CHECK(clReleaseKernel(scale_a));
	CHECK(clReleaseKernel(scale_b));
	CHECK(clReleaseKernel(sum2));
	rt_teardown(&c);
	return 0;
}
