/* SPDX-License-Identifier: MIT */
/*
 * straight_ptrs - ptrs.cl's blend over N floats, once per case, the
 * outputs one after another into OUT, for test/e2e/straight_ptrs.sh:
 * a and b distinct or one buffer, bias a buffer or NULL, which 0 or 1.
 * usage: straight_ptrs OUT
 */
#include "rt_host.h"

#define N (1 << 16)

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	rt_cl c;
	rt_setup(&c, "ptrs.cl", NULL);
	cl_int err;
	cl_kernel k = clCreateKernel(c.prog, "blend", &err);
	CHECK(err);
	static float ha[N], hb[N], hbias[N], hout[N];
	for (int i = 0; i < N; i++) {
		ha[i] = (float)(i % 101);
		hb[i] = (float)(i % 37) * 0.5f;
		hbias[i] = (float)(i % 7) * 0.25f;
	}
	cl_mem a = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof ha, ha, &err);
	CHECK(err);
	cl_mem b = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof hb, hb, &err);
	CHECK(err);
	cl_mem bias = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof hbias,
	                             hbias, &err);
	CHECK(err);
	cl_mem out = clCreateBuffer(c.ctx, CL_MEM_WRITE_ONLY, sizeof hout, NULL, &err);
	CHECK(err);
	FILE *f = fopen(argv[1], "wb");
	if (!f)
		return 1;
	size_t gws = N, lws = 64;
	for (int same = 0; same < 2; same++)
		for (int nobias = 0; nobias < 2; nobias++)
			for (int which = 0; which < 2; which++) {
				cl_mem none = NULL;
				CHECK(clSetKernelArg(k, 0, sizeof a, &a));
				CHECK(clSetKernelArg(k, 1, sizeof b, same ? &a : &b));
				CHECK(clSetKernelArg(k, 2, sizeof out, &out));
				CHECK(clSetKernelArg(k, 3, sizeof bias, nobias ? &none : &bias));
				CHECK(clSetKernelArg(k, 4, sizeof which, &which));
				CHECK(clEnqueueNDRangeKernel(c.q, k, 1, NULL, &gws, &lws, 0, NULL, NULL));
				CHECK(clEnqueueReadBuffer(c.q, out, CL_TRUE, 0, sizeof hout, hout, 0,
				                          NULL, NULL));
				if (fwrite(hout, sizeof hout, 1, f) != 1)
					return 1;
			}
	fclose(f);
	CHECK(clReleaseMemObject(a));
	CHECK(clReleaseMemObject(b));
	CHECK(clReleaseMemObject(bias));
	CHECK(clReleaseMemObject(out));
	CHECK(clReleaseKernel(k));
	rt_teardown(&c);
	return 0;
}
