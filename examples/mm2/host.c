/* SPDX-License-Identifier: MIT */
/*
 * mm2 - PolyBench's 2mm: tmp = alpha * A * B, then D = beta * D + tmp * C
 * (mm2.cl: two launches, one work-item per output element, naive loops).
 * usage: mm2 [-o OUT] [-k mm2.cl] [-q] [N | NI NJ NK NL]
 * Default N = 896 for every dimension (five matrices, 16 MB). A is NI x NK,
 * B NK x NJ, tmp NI x NJ, C NJ x NL, D NI x NL.
 *
 * Prints `mm2: NIxNJxNKxNL bytes=B seconds=S` (B: the five matrices; S
 * covers the writes, both kernels and the reads). Checks every element of
 * tmp against a double precision product, and every element of D against
 * one computed from the tmp the device returned, so that each kernel is
 * checked on its own; exits 1 on a mismatch. OUT receives tmp, then D.
 */
#include "vast_example.h"

/* PolyBench/GPU's work-group shape. */
#define LOCAL_X 32
#define LOCAL_Y 8

/* Float sums of n products, each rounded, against their exact value:
 * within about n + 2 roundings of the sum of their magnitudes. */
static int close_enough(double got, double want, double mag, size_t n)
{
	return fabs(got - want) <= 1.2e-7 * (double)(n + 2) * mag + 1e-6;
}

/* out (rows x cols) against base + scale * X * Y, X rows x inner and Y
 * inner x cols, row by row in double; base may be NULL (zero). */
static size_t check_product(const char *what, const float *out, const float *base, float bscale,
                            const float *X, const float *Y, float scale, size_t rows,
                            size_t inner, size_t cols)
{
	double *ref = vex_malloc(cols * sizeof(double)), *mag = vex_malloc(cols * sizeof(double));
	size_t bad = 0;
	for (size_t i = 0; i < rows; i++) {
		for (size_t j = 0; j < cols; j++) {
			double b = base ? (double)(bscale * base[i * cols + j]) : 0;
			ref[j] = b;
			mag[j] = fabs(b);
		}
		for (size_t k = 0; k < inner; k++) {
			double x = (double)scale * X[i * inner + k];
			const float *y = Y + k * cols;
			for (size_t j = 0; j < cols; j++) {
				ref[j] += x * y[j];
				mag[j] += fabs(x * y[j]);
			}
		}
		for (size_t j = 0; j < cols; j++) {
			if (close_enough(out[i * cols + j], ref[j], mag[j], inner))
				continue;
			if (bad < 5)
				fprintf(stderr, "%s[%zu][%zu] = %.9g, expected %.9g\n", what, i, j,
				        (double)out[i * cols + j], ref[j]);
			bad++;
		}
	}
	free(ref);
	free(mag);
	return bad;
}

static void fill(float *p, size_t n, vex_rng *r)
{
	for (size_t i = 0; i < n; i++)
		p[i] = vex_randf(r, -1, 1);
}

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 4, .sizes = { 896, 0, 0, 0 } };
	vex_parse_args(&a, argc, argv, "[N | NI NJ NK NL]");
	size_t ni = a.sizes[0];
	size_t nj = a.sizes[1] ? a.sizes[1] : ni, nk = a.sizes[2] ? a.sizes[2] : ni;
	size_t nl = a.sizes[3] ? a.sizes[3] : ni;
	if (!ni || !nj || !nk || !nl || ni > 46340 || nj > 46340 || nk > 46340 || nl > 46340)
		vex_die("dimensions must be from 1 to 46340 (the kernels index with int)");
	size_t tbytes = ni * nj * sizeof(float), abytes = ni * nk * sizeof(float);
	size_t bbytes = nk * nj * sizeof(float), cbytes = nj * nl * sizeof(float);
	size_t dbytes = ni * nl * sizeof(float);
	float alpha = 1.5f, beta = 1.25f;

	float *A = vex_malloc(abytes), *B = vex_malloc(bbytes), *C = vex_malloc(cbytes);
	float *D = vex_malloc(dbytes), *D0 = vex_malloc(dbytes), *tmp = vex_malloc(tbytes);
	vex_rng r = vex_rng_seed(22);
	fill(A, ni * nk, &r);
	fill(B, nk * nj, &r);
	fill(C, nj * nl, &r);
	fill(D0, ni * nl, &r);
	memcpy(D, D0, dbytes);

	vex_cl cl;
	vex_init(&cl, a.quiet);
	char *path = vex_kernel_path(a.argv0, "mm2.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel k1 = vex_kernel(prog, "mm2_kernel1"), k2 = vex_kernel(prog, "mm2_kernel2");
	cl_mem dA = vex_buffer(&cl, CL_MEM_READ_ONLY, abytes, NULL);
	cl_mem dB = vex_buffer(&cl, CL_MEM_READ_ONLY, bbytes, NULL);
	cl_mem dC = vex_buffer(&cl, CL_MEM_READ_ONLY, cbytes, NULL);
	cl_mem dD = vex_buffer(&cl, CL_MEM_READ_WRITE, dbytes, NULL);
	cl_mem dtmp = vex_buffer(&cl, CL_MEM_READ_WRITE, tbytes, NULL);
	cl_int ini = (cl_int)ni, inj = (cl_int)nj, ink = (cl_int)nk, inl = (cl_int)nl;
	VEX_ARG(k1, 0, dtmp);
	VEX_ARG(k1, 1, dA);
	VEX_ARG(k1, 2, dB);
	VEX_ARG(k1, 3, alpha);
	VEX_ARG(k1, 4, ini);
	VEX_ARG(k1, 5, inj);
	VEX_ARG(k1, 6, ink);
	VEX_ARG(k2, 0, dD);
	VEX_ARG(k2, 1, dtmp);
	VEX_ARG(k2, 2, dC);
	VEX_ARG(k2, 3, beta);
	VEX_ARG(k2, 4, ini);
	VEX_ARG(k2, 5, inj);
	VEX_ARG(k2, 6, inl);

	size_t local[2] = { LOCAL_X, LOCAL_Y };
	size_t rows = (ni + LOCAL_Y - 1) / LOCAL_Y * LOCAL_Y;
	size_t global1[2] = { (nj + LOCAL_X - 1) / LOCAL_X * LOCAL_X, rows };
	size_t global2[2] = { (nl + LOCAL_X - 1) / LOCAL_X * LOCAL_X, rows };
	double t = vex_now();
	CHECK(clEnqueueWriteBuffer(cl.queue, dA, CL_FALSE, 0, abytes, A, 0, NULL, NULL));
	CHECK(clEnqueueWriteBuffer(cl.queue, dB, CL_FALSE, 0, bbytes, B, 0, NULL, NULL));
	CHECK(clEnqueueWriteBuffer(cl.queue, dC, CL_FALSE, 0, cbytes, C, 0, NULL, NULL));
	CHECK(clEnqueueWriteBuffer(cl.queue, dD, CL_FALSE, 0, dbytes, D, 0, NULL, NULL));
	CHECK(clEnqueueNDRangeKernel(cl.queue, k1, 2, NULL, global1, local, 0, NULL, NULL));
	CHECK(clEnqueueNDRangeKernel(cl.queue, k2, 2, NULL, global2, local, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(cl.queue, dtmp, CL_FALSE, 0, tbytes, tmp, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(cl.queue, dD, CL_FALSE, 0, dbytes, D, 0, NULL, NULL));
	CHECK(clFinish(cl.queue));
	t = vex_now() - t;

	size_t bad = check_product("tmp", tmp, NULL, 0, A, B, alpha, ni, nk, nj);
	bad += check_product("D", D, D0, beta, tmp, C, 1, ni, nj, nl);
	vex_out o;
	vex_out_open(&o, a.out);
	vex_out_write(&o, tmp, tbytes);
	vex_out_write(&o, D, dbytes);
	vex_out_close(&o);
	printf("mm2: %zux%zux%zux%zu bytes=%zu seconds=%.6f\n", ni, nj, nk, nl,
	       abytes + bbytes + cbytes + dbytes + tbytes, t);

	clReleaseMemObject(dA);
	clReleaseMemObject(dB);
	clReleaseMemObject(dC);
	clReleaseMemObject(dD);
	clReleaseMemObject(dtmp);
	clReleaseKernel(k1);
	clReleaseKernel(k2);
	clReleaseProgram(prog);
	vex_release(&cl);
	free(path);
	free(A);
	free(B);
	free(C);
	free(D);
	free(D0);
	free(tmp);
	if (bad) {
		fprintf(stderr, "mm2: FAILED (%zu elements differ)\n", bad);
		return 1;
	}
	if (!a.quiet)
		fprintf(stderr, "mm2: ok\n");
	return 0;
}
