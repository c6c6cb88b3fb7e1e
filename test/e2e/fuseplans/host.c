/* SPDX-License-Identifier: MIT */
/*
 * fuseplans - for test/e2e/fused_plans.sh: produce, then a second kernel
 * reading what it wrote, queued together so the runtime may fuse them
 * (runtime/launch/launch.c, run_fused), eight times:
 *   1, 2  produce then shifted with k = 0: fused; the second pair runs
 *         the plan the first kept
 *   3     shifted with k = N/4: each range reads what a later one
 *         writes; a kept plan of k = 0 must not run it
 *   4     k = 0 again: fused, the kept plan
 *   5     shifted released, mirror made (a new kernel object, where the
 *         runtime may reuse the old one's memory; the same argument
 *         values): not fused
 *   6     mirror released, shifted made again, k = 0: fused
 *   7     k = N/4 again: not fused (this shifted's first such pair)
 *   8     k = N/4 again: refused at once, as pair 7 was, without
 *         being planned again
 * Each pair waits for a user event set after both are queued. OUT
 * receives dst after each pair, then out.
 * usage: fuseplans OUT
 */
#include "rt_host.h"

#define N (1u << 20)
#define GWS (N - N / 4)
#define BYTES (N * sizeof(cl_uint))
#define PAIRS 8

static cl_kernel second(rt_cl *c, const char *name, cl_mem out, cl_mem dst, cl_uint k)
{
	cl_int err;
	cl_kernel kr = clCreateKernel(c->prog, name, &err);
	CHECK(err);
	CHECK(clSetKernelArg(kr, 0, sizeof out, &out));
	CHECK(clSetKernelArg(kr, 1, sizeof dst, &dst));
	CHECK(clSetKernelArg(kr, 2, sizeof k, &k));
	return kr;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	rt_cl c;
	rt_setup(&c, "fuseplans.cl", NULL);
	cl_int err;
	cl_uint *host = calloc((size_t)PAIRS + 1, BYTES);
	if (!host)
		return 1;
	cl_mem out = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, BYTES, host,
	                            &err);
	CHECK(err);
	cl_mem dst = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, BYTES, host,
	                            &err);
	CHECK(err);
	cl_kernel k1 = clCreateKernel(c.prog, "produce", &err);
	CHECK(err);
	CHECK(clSetKernelArg(k1, 0, sizeof out, &out));
	cl_kernel k2 = second(&c, "shifted", out, dst, 0);
	size_t gws = GWS, lws = 64;
	for (cl_uint p = 0; p < PAIRS; p++) {
		cl_uint seed = p * 1000u;
		CHECK(clSetKernelArg(k1, 1, sizeof seed, &seed));
		if (p == 2 || p == 3 || p == 6) { /* pair 8 keeps pair 7's k */
			cl_uint k = p == 3 ? 0 : N / 4;
			CHECK(clSetKernelArg(k2, 2, sizeof k, &k));
		} else if (p == 4 || p == 5) {
			CHECK(clReleaseKernel(k2));
			k2 = p == 4 ? second(&c, "mirror", out, dst, 0) : second(&c, "shifted", out, dst, 0);
		}
		cl_event go = clCreateUserEvent(c.ctx, &err);
		CHECK(err);
		CHECK(clEnqueueNDRangeKernel(c.q, k1, 1, NULL, &gws, &lws, 1, &go, NULL));
		CHECK(clEnqueueNDRangeKernel(c.q, k2, 1, NULL, &gws, &lws, 0, NULL, NULL));
		CHECK(clEnqueueReadBuffer(c.q, dst, CL_FALSE, 0, BYTES, host + (size_t)p * N, 0,
		                          NULL, NULL));
		CHECK(clSetUserEventStatus(go, CL_COMPLETE));
		CHECK(clFinish(c.q));
		CHECK(clReleaseEvent(go));
	}
	CHECK(clEnqueueReadBuffer(c.q, out, CL_TRUE, 0, BYTES, host + (size_t)PAIRS * N, 0, NULL,
	                          NULL));
	FILE *f = fopen(argv[1], "wb");
	if (!f)
		return 1;
	rt_write(f, host, (size_t)(PAIRS + 1) * BYTES);
	if (fclose(f))
		return 1;
	free(host);
	clReleaseKernel(k1);
	clReleaseKernel(k2);
	clReleaseMemObject(out);
	clReleaseMemObject(dst);
	rt_teardown(&c);
	return 0;
}
