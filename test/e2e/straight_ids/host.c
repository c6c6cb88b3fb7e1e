/* SPDX-License-Identifier: MIT */
/*
 * straight_ids - the work-item functions of a 3-D launch (ids3: 24x10x6
 * work-items in groups of 4x2x2, offset 3,5,7) and a 2-D one (ids2: 40x12
 * in groups of 4x3, offset 1,2), for test/e2e/straight_ids.sh.
 * usage: straight_ids OUT   writes both kernels' records to OUT.
 */
#include "rt_host.h"

#define NREC 24

static void run(rt_cl *c, const char *name, cl_uint dim, const size_t *off, const size_t *gws,
                const size_t *lws, FILE *f)
{
	size_t n = gws[0] * (dim > 1 ? gws[1] : 1) * (dim > 2 ? gws[2] : 1);
	cl_int err;
	cl_kernel k = clCreateKernel(c->prog, name, &err);
	CHECK(err);
	cl_uint *in = malloc(n * sizeof *in);
	cl_ulong *out = malloc(n * NREC * sizeof *out);
	if (!in || !out)
		exit(1);
	for (size_t i = 0; i < n; i++)
		in[i] = (cl_uint)(i * 2654435761u);
	cl_mem din = clCreateBuffer(c->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof *in,
	                            in, &err);
	CHECK(err);
	cl_mem dout = clCreateBuffer(c->ctx, CL_MEM_WRITE_ONLY, n * NREC * sizeof *out, NULL, &err);
	CHECK(err);
	CHECK(clSetKernelArg(k, 0, sizeof dout, &dout));
	CHECK(clSetKernelArg(k, 1, sizeof din, &din));
	CHECK(clEnqueueNDRangeKernel(c->q, k, dim, off, gws, lws, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(c->q, dout, CL_TRUE, 0, n * NREC * sizeof *out, out, 0, NULL,
	                          NULL));
	if (fwrite(out, sizeof *out, n * NREC, f) != n * NREC)
		exit(1);
	CHECK(clReleaseMemObject(din));
	CHECK(clReleaseMemObject(dout));
	CHECK(clReleaseKernel(k));
	free(in);
	free(out);
}

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	rt_cl c;
	rt_setup(&c, "ids.cl", NULL);
	FILE *f = fopen(argv[1], "wb");
	if (!f)
		return 1;
	size_t off3[3] = {3, 5, 7}, g3[3] = {24, 10, 6}, l3[3] = {4, 2, 2};
	size_t off2[2] = {1, 2}, g2[2] = {40, 12}, l2[2] = {4, 3};
	run(&c, "ids3", 3, off3, g3, l3, f);
	run(&c, "ids2", 2, off2, g2, l2, f);
	fclose(f);
	rt_teardown(&c);
	return 0;
}
