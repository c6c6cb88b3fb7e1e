/* SPDX-License-Identifier: MIT */
/*
 * evict_fused - for test/e2e/evict_fused.sh: ROUNDS rounds of scale(a)
 * (1 MiB, natively), then make(x, y -> z) and use(z -> w) (8 MiB each,
 * paged, fused), all queued behind a user event, and a last scale(a):
 * a, which the next launch needs, could stay beside a paged launch's
 * frames; not beside a fused pair's, whose plan takes the whole budget.
 * Writes a, z and w to OUT.
 * usage: evict_fused ROUNDS OUT
 */
#include "rt_host.h"
#define SMALL (1 << 18)
#define LARGE (1 << 21)
static void launch(cl_command_queue q, cl_kernel k, size_t n, cl_event *gate)
{
	size_t lws = 64;
	CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &lws, *gate ? 1 : 0, *gate ? gate : NULL, NULL));
	if (*gate) { CHECK(clReleaseEvent(*gate)); *gate = NULL; }
}
int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	int rounds = atoi(argv[1]);
	rt_cl c;
	rt_setup(&c, "fused.cl", NULL);
	cl_int err;
	cl_kernel sa = clCreateKernel(c.prog, "scale", &err); CHECK(err);
	cl_kernel mk = clCreateKernel(c.prog, "make", &err); CHECK(err);
	cl_kernel us = clCreateKernel(c.prog, "use", &err); CHECK(err);
	static float ha[SMALL], hx[LARGE], hy[LARGE], hz[LARGE], hw[LARGE];
	for (int i = 0; i < LARGE; i++) { hx[i] = i % 97; hy[i] = (i % 89) * 0.25f; hz[i] = 0; hw[i] = 0; }
	for (int i = 0; i < SMALL; i++) ha[i] = i % 31;
	cl_mem m[5]; float *h[5] = {ha, hx, hy, hz, hw};
	size_t n[5] = {sizeof ha, sizeof hx, sizeof hy, sizeof hz, sizeof hw};
	for (int i = 0; i < 5; i++) { m[i] = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n[i], h[i], &err); CHECK(err); }
	float f = 0.5f;
	CHECK(clSetKernelArg(sa, 0, sizeof m[0], &m[0]));
	CHECK(clSetKernelArg(sa, 1, sizeof f, &f));
	for (int i = 0; i < 3; i++) CHECK(clSetKernelArg(mk, i, sizeof m[1 + i], &m[1 + i]));
	CHECK(clSetKernelArg(us, 0, sizeof m[3], &m[3]));
	CHECK(clSetKernelArg(us, 1, sizeof m[4], &m[4]));
	cl_event gate = clCreateUserEvent(c.ctx, &err), held = gate; CHECK(err);
	CHECK(clRetainEvent(held));
	for (int r = 0; r < rounds; r++) {
		launch(c.q, sa, SMALL, &gate);
		launch(c.q, mk, LARGE, &gate);
		launch(c.q, us, LARGE, &gate);
	}
	launch(c.q, sa, SMALL, &gate);
	CHECK(clSetUserEventStatus(held, CL_COMPLETE));
	CHECK(clReleaseEvent(held));
	FILE *out = fopen(argv[2], "wb");
	if (!out)
		return 1;
	int idx[3] = {0, 3, 4};
	for (int j = 0; j < 3; j++) { int i = idx[j];
		CHECK(clEnqueueReadBuffer(c.q, m[i], CL_TRUE, 0, n[i], h[i], 0, NULL, NULL));
		rt_write(out, h[i], n[i]); }
	fclose(out);
	rt_teardown(&c);
	return 0;
}
