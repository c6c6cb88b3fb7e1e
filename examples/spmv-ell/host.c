/* SPDX-License-Identifier: MIT */
/*
 * spmv-ell - y = A x, A an N x N ELL matrix (default N=4M) with K (default
 * 16) entries per row at uniformly random columns.
 * usage: spmv-ell [-o OUT] [-q] [N [K]]
 *
 * Prints `spmv-ell: bytes=B seconds=S` (val, col, x and y). Up to 1M evenly
 * spread rows are checked against a double precision CPU product. OUT
 * receives y.
 */
#include "vast_example.h"

#define SAMPLES (1u << 20)

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 2, .sizes = { 4u << 20, 16 } };
	vex_parse_args(&a, argc, argv, "[N [K]]");
	cl_ulong n = a.sizes[0];
	cl_uint K = (cl_uint)a.sizes[1];
	if (n > 0xffffffffu || a.sizes[1] > 1024)
		vex_die("N must be below 2^32 and K at most 1024");
	size_t nnz = (size_t)n * K;
	size_t vbytes = nnz * sizeof(float), cbytes = nnz * sizeof(cl_uint);
	size_t xbytes = (size_t)n * sizeof(float);

	float *val = vex_malloc(vbytes), *x = vex_malloc(xbytes), *y = vex_malloc(xbytes);
	cl_uint *col = vex_malloc(cbytes);
	vex_rng r = vex_rng_seed(17);
	for (size_t i = 0; i < nnz; i++) {
		val[i] = vex_randf(&r, -1, 1);
		col[i] = vex_rand_below(&r, (uint32_t)n);
	}
	for (size_t i = 0; i < n; i++)
		x[i] = vex_randf(&r, -1, 1);

	vex_cl cl;
	vex_init(&cl, a.quiet);
	char *path = vex_kernel_path(a.argv0, "spmv.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel k = vex_kernel(prog, "spmv_ell");
	cl_mem dval = vex_buffer(&cl, CL_MEM_READ_ONLY, vbytes, NULL);
	cl_mem dcol = vex_buffer(&cl, CL_MEM_READ_ONLY, cbytes, NULL);
	cl_mem dx = vex_buffer(&cl, CL_MEM_READ_ONLY, xbytes, NULL);
	cl_mem dy = vex_buffer(&cl, CL_MEM_WRITE_ONLY, xbytes, NULL);
	VEX_ARG(k, 0, dval);
	VEX_ARG(k, 1, dcol);
	VEX_ARG(k, 2, dx);
	VEX_ARG(k, 3, dy);
	VEX_ARG(k, 4, n);
	VEX_ARG(k, 5, K);

	size_t local = 128, global = (n + local - 1) / local * local;
	double t = vex_now();
	CHECK(clEnqueueWriteBuffer(cl.queue, dval, CL_FALSE, 0, vbytes, val, 0, NULL, NULL));
	CHECK(clEnqueueWriteBuffer(cl.queue, dcol, CL_FALSE, 0, cbytes, col, 0, NULL, NULL));
	CHECK(clEnqueueWriteBuffer(cl.queue, dx, CL_FALSE, 0, xbytes, x, 0, NULL, NULL));
	CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(cl.queue, dy, CL_FALSE, 0, xbytes, y, 0, NULL, NULL));
	CHECK(clFinish(cl.queue));
	t = vex_now() - t;

	size_t step = n > SAMPLES ? n / SAMPLES : 1, bad = 0, checked = 0;
	for (size_t row = 0; row < n; row += step, checked++) {
		double ref = 0, mag = 0;
		for (size_t kk = 0; kk < K; kk++) {
			size_t i = kk * n + row;
			double p = (double)val[i] * x[col[i]];
			ref += p;
			mag += fabs(p);
		}
		if (!(fabs(y[row] - ref) <= 1.2e-7 * (K + 1) * mag + 1e-7)) {
			if (bad < 5)
				fprintf(stderr, "y[%zu] = %.9g, expected %.9g\n", row, (double)y[row], ref);
			bad++;
		}
	}
	vex_write_output(a.out, y, xbytes);
	printf("spmv-ell: n=%llu K=%u bytes=%zu seconds=%.6f checked=%zu\n",
	       (unsigned long long)n, K, vbytes + cbytes + 2 * xbytes, t, checked);

	clReleaseMemObject(dval);
	clReleaseMemObject(dcol);
	clReleaseMemObject(dx);
	clReleaseMemObject(dy);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	vex_release(&cl);
	free(path);
	free(val);
	free(col);
	free(x);
	free(y);
	if (bad) {
		fprintf(stderr, "spmv-ell: FAILED (%zu of %zu sampled rows differ)\n", bad, checked);
		return 1;
	}
	if (!a.quiet)
		fprintf(stderr, "spmv-ell: ok\n");
	return 0;
}
