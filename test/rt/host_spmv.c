/* SPDX-License-Identifier: MIT */
/*
 * host_spmv.c - CSR SpMV with random column indices (an indirect kernel);
 * writes y to argv[1]. Usage: host_spmv OUT spmv.cl
 */
#include "rt_host.h"

static unsigned lcg(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	rt_cl c;
	rt_setup(&c, argv[2], NULL);
	cl_uint nrows = 1u << 16, ncols = 1u << 15;
	unsigned seed = 42;
	int *rowptr = malloc((nrows + 1) * sizeof *rowptr);
	if (!rowptr)
		return 1;
	rowptr[0] = 0;
	for (cl_uint r = 0; r < nrows; r++)
		rowptr[r + 1] = rowptr[r] + 4 + (int)(lcg(&seed) % 12);
	int nnz = rowptr[nrows];
	int *col = malloc(nnz * sizeof *col);
	float *val = malloc(nnz * sizeof *val), *x = malloc(ncols * sizeof *x);
	float *y = malloc(nrows * sizeof *y);
	if (!col || !val || !x || !y)
		return 1;
	for (int j = 0; j < nnz; j++) {
		col[j] = (int)(lcg(&seed) % ncols);
		val[j] = (float)(lcg(&seed) % 1000) / 100.0f;
	}
	for (cl_uint i = 0; i < ncols; i++)
		x[i] = (float)(lcg(&seed) % 1000) / 10.0f;
	cl_int err;
	cl_mem brow = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (nrows + 1) * 4, rowptr, &err);
	CHECK(err);
	cl_mem bcol = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nnz * 4, col, &err);
	CHECK(err);
	cl_mem bval = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nnz * 4, val, &err);
	CHECK(err);
	cl_mem bx = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, ncols * 4, x, &err);
	CHECK(err);
	cl_mem by = clCreateBuffer(c.ctx, CL_MEM_WRITE_ONLY, nrows * 4, NULL, &err);
	CHECK(err);
	cl_kernel k = clCreateKernel(c.prog, "spmv", &err);
	CHECK(err);
	CHECK(clSetKernelArg(k, 0, sizeof brow, &brow));
	CHECK(clSetKernelArg(k, 1, sizeof bcol, &bcol));
	CHECK(clSetKernelArg(k, 2, sizeof bval, &bval));
	CHECK(clSetKernelArg(k, 3, sizeof bx, &bx));
	CHECK(clSetKernelArg(k, 4, sizeof by, &by));
	CHECK(clSetKernelArg(k, 5, sizeof nrows, &nrows));
	size_t g = nrows, l = 128;
	CHECK(clEnqueueNDRangeKernel(c.q, k, 1, NULL, &g, &l, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(c.q, by, CL_TRUE, 0, nrows * 4, y, 0, NULL, NULL));
	FILE *out = fopen(argv[1], "wb");
	if (!out)
		return 1;
	rt_write(out, y, nrows * 4);
	if (fclose(out))
		return 1;
	CHECK(clReleaseKernel(k));
	cl_mem all[] = { brow, bcol, bval, bx, by };
	for (int i = 0; i < 5; i++)
		CHECK(clReleaseMemObject(all[i]));
	rt_teardown(&c);
	free(rowptr), free(col), free(val), free(x), free(y);
	return 0;
}
