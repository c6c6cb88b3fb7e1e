/* SPDX-License-Identifier: MIT */
/*
 * oob_vector - gather.cl's gather4 over N int4 indices into two
 * arrays of M floats, launched over N + EXTRA work-items (EXTRA > 0: the
 * kernel reads past idx). Writes out's N floats to OUT, for
 * test/e2e/oob_vector.sh.
 * usage: oob_vector OUT N M EXTRA
 */
#include "rt_host.h"

#define LOCAL 64

int main(int argc, char **argv)
{
	if (argc != 5)
		return 2;
	size_t n = (size_t)atol(argv[2]), m = (size_t)atol(argv[3]), extra = (size_t)atol(argv[4]);
	if (n == 0 || m == 0 || n % LOCAL || extra % LOCAL)
		return 2;
	rt_cl c;
	rt_setup(&c, "gather.cl", NULL);
	cl_int err;
	cl_kernel k = clCreateKernel(c.prog, "gather4", &err);
	CHECK(err);
	cl_int *idx = malloc(n * 4 * sizeof *idx);
	float *a = malloc(m * sizeof *a), *b = malloc(m * sizeof *b);
	float *res = calloc(n + extra, sizeof *res);
	if (!idx || !a || !b || !res)
		return 1;
	for (size_t i = 0; i < 4 * n; i++) {
		unsigned h = (unsigned)i * 2654435761u;
		h ^= h >> 15;
		idx[i] = (cl_int)(h % m);
	}
	for (size_t i = 0; i < m; i++) {
		a[i] = (float)(i % 1000);
		b[i] = (float)(i % 777) * 0.5f;
	}
	cl_mem bi = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * 4 * sizeof *idx,
	                           idx, &err);
	CHECK(err);
	cl_mem ba = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, m * sizeof *a, a, &err);
	CHECK(err);
	cl_mem bb = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, m * sizeof *b, b, &err);
	CHECK(err);
	/* out has room for every work-item: only idx is read past. */
	cl_mem bo = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
	                           (n + extra) * sizeof *res, res, &err);
	CHECK(err);
	size_t global = n + extra, local = LOCAL;
	CHECK(clSetKernelArg(k, 0, sizeof bi, &bi));
	CHECK(clSetKernelArg(k, 1, sizeof ba, &ba));
	CHECK(clSetKernelArg(k, 2, sizeof bb, &bb));
	CHECK(clSetKernelArg(k, 3, sizeof bo, &bo));
	CHECK(clEnqueueNDRangeKernel(c.q, k, 1, NULL, &global, &local, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(c.q, bo, CL_TRUE, 0, n * sizeof *res, res, 0, NULL, NULL));
	FILE *f = fopen(argv[1], "wb");
	if (!f || fwrite(res, sizeof *res, n, f) != n || fclose(f))
		return 1;
	free(idx);
	free(a);
	free(b);
	free(res);
	CHECK(clReleaseMemObject(bi));
	CHECK(clReleaseMemObject(ba));
	CHECK(clReleaseMemObject(bb));
	CHECK(clReleaseMemObject(bo));
	CHECK(clReleaseKernel(k));
	rt_teardown(&c);
	return 0;
}
