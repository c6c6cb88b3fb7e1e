/* SPDX-License-Identifier: MIT */
/*
 * spmv - CSR sparse matrix times vector with random column indices.
 * usage: spmv [-o OUT] [-k spmv.cl] [ROWS [MAXNNZ]]
 * ROWS rows and columns (default 64K), 1..MAXNNZ non-zeros per row
 * (default 16; about 5 MB in all). OUT receives y's raw bytes.
 */
#include "vast_example.h"

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 2, .sizes = { 65536, 16 } };
	vex_parse_args(&a, argc, argv, "[ROWS [MAXNNZ]]");
	cl_uint n = (cl_uint)a.sizes[0], maxnnz = (cl_uint)a.sizes[1];

	vex_rng r = vex_rng_seed(4);
	cl_uint *rowptr = vex_malloc(((size_t)n + 1) * sizeof(cl_uint));
	rowptr[0] = 0;
	for (cl_uint i = 0; i < n; i++)
		rowptr[i + 1] = rowptr[i] + 1 + vex_rand_below(&r, maxnnz);
	size_t nnz = rowptr[n];
	cl_uint *col = vex_malloc(nnz * sizeof(cl_uint));
	float *val = vex_malloc(nnz * sizeof(float));
	float *x = vex_malloc((size_t)n * sizeof(float));
	float *y = vex_malloc((size_t)n * sizeof(float));
	float *ref = vex_malloc((size_t)n * sizeof(float));
	for (size_t j = 0; j < nnz; j++) {
		col[j] = vex_rand_below(&r, n);
		val[j] = vex_randf(&r, -1, 1);
	}
	for (cl_uint i = 0; i < n; i++)
		x[i] = vex_randf(&r, -1, 1);

	vex_cl cl;
	vex_init(&cl, a.quiet);
	char *path = vex_kernel_path(a.argv0, "spmv.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel k = vex_kernel(prog, "spmv");
	cl_mem_flags ro = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
	cl_mem drow = vex_buffer(&cl, ro, ((size_t)n + 1) * sizeof(cl_uint), rowptr);
	cl_mem dcol = vex_buffer(&cl, ro, nnz * sizeof(cl_uint), col);
	cl_mem dval = vex_buffer(&cl, ro, nnz * sizeof(float), val);
	cl_mem dx = vex_buffer(&cl, ro, (size_t)n * sizeof(float), x);
	cl_mem dy = vex_buffer(&cl, CL_MEM_WRITE_ONLY, (size_t)n * sizeof(float), NULL);
	VEX_ARG(k, 0, drow);
	VEX_ARG(k, 1, dcol);
	VEX_ARG(k, 2, dval);
	VEX_ARG(k, 3, dx);
	VEX_ARG(k, 4, dy);
	VEX_ARG(k, 5, n);

	size_t local = 64, global = (n + local - 1) / local * local;
	double t = vex_now();
	CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(cl.queue, dy, CL_TRUE, 0, (size_t)n * sizeof(float), y, 0, NULL, NULL));
	t = vex_now() - t;
	if (!a.quiet)
		fprintf(stderr, "spmv: %u rows, %zu non-zeros: %.3f ms\n", n, nnz, t * 1e3);

	for (cl_uint i = 0; i < n; i++) {
		float sum = 0;
		for (cl_uint j = rowptr[i]; j < rowptr[i + 1]; j++)
			sum += val[j] * x[col[j]];
		ref[i] = sum;
	}
	int bad = vex_compare_floats("y", y, ref, n, 1e-5f, 1e-5f) != 0;
	vex_write_output(a.out, y, (size_t)n * sizeof(float));

	clReleaseMemObject(drow);
	clReleaseMemObject(dcol);
	clReleaseMemObject(dval);
	clReleaseMemObject(dx);
	clReleaseMemObject(dy);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	vex_release(&cl);
	free(path);
	free(rowptr);
	free(col);
	free(val);
	free(x);
	free(y);
	free(ref);
	if (bad) {
		fprintf(stderr, "spmv: FAILED\n");
		return 1;
	}
	if (!a.quiet)
		fprintf(stderr, "spmv: ok\n");
	return 0;
}
