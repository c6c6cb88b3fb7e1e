/* SPDX-License-Identifier: MIT */
/*
 * matrixmul - C = A * B with the tiled kernel, everything sent at once.
 * usage: matrixmul [-o OUT] [-q] [N | hA wA wB]   (default 1024; multiples of 16)
 *
 * Prints `matrixmul: bytes=B seconds=S` (A, B and C; S covers the
 * transfers and the kernel). Checks 4096 random elements of C against a
 * double precision dot product. OUT receives C.
 */
#include "vast_example.h"

#define BLOCK 16
#define SAMPLES 4096

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 3, .sizes = { 1024, 0, 0 } };
	vex_parse_args(&a, argc, argv, "[N | hA wA wB]");
	size_t hA = a.sizes[0];
	size_t wA = a.sizes[1] ? a.sizes[1] : hA;
	size_t wB = a.sizes[2] ? a.sizes[2] : hA;
	if (hA % BLOCK || wA % BLOCK || wB % BLOCK || wA > 0xffffffffu || wB > 0xffffffffu)
		vex_die("dimensions must be multiples of %d (and widths below 2^32)", BLOCK);
	size_t abytes = hA * wA * sizeof(float), bbytes = wA * wB * sizeof(float);
	size_t cbytes = hA * wB * sizeof(float);

	float *A = vex_malloc(abytes), *B = vex_malloc(bbytes), *C = vex_malloc(cbytes);
	vex_rng r = vex_rng_seed(7);
	for (size_t i = 0; i < hA * wA; i++)
		A[i] = vex_randf(&r, -1, 1);
	for (size_t i = 0; i < wA * wB; i++)
		B[i] = vex_randf(&r, -1, 1);

	vex_cl cl;
	vex_init(&cl, a.quiet);
	char *path = vex_kernel_path(a.argv0, "matrixmul.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel k = vex_kernel(prog, "matrixmul");
	cl_mem dC = vex_buffer(&cl, CL_MEM_WRITE_ONLY, cbytes, NULL);
	cl_mem dA = vex_buffer(&cl, CL_MEM_READ_ONLY, abytes, NULL);
	cl_mem dB = vex_buffer(&cl, CL_MEM_READ_ONLY, bbytes, NULL);
	cl_uint uwA = (cl_uint)wA, uwB = (cl_uint)wB;
	VEX_ARG(k, 0, dC);
	VEX_ARG(k, 1, dA);
	VEX_ARG(k, 2, dB);
	VEX_ARG(k, 3, uwA);
	VEX_ARG(k, 4, uwB);

	size_t global[2] = { wB, hA }, local[2] = { BLOCK, BLOCK };
	double t = vex_now();
	CHECK(clEnqueueWriteBuffer(cl.queue, dA, CL_FALSE, 0, abytes, A, 0, NULL, NULL));
	CHECK(clEnqueueWriteBuffer(cl.queue, dB, CL_FALSE, 0, bbytes, B, 0, NULL, NULL));
	CHECK(clEnqueueNDRangeKernel(cl.queue, k, 2, NULL, global, local, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(cl.queue, dC, CL_FALSE, 0, cbytes, C, 0, NULL, NULL));
	CHECK(clFinish(cl.queue));
	t = vex_now() - t;

	/* Float accumulation of wA products: bounded by wA * eps * sum|a*b|. */
	size_t bad = 0;
	vex_rng s = vex_rng_seed(99);
	for (int n = 0; n < SAMPLES; n++) {
		size_t i = (size_t)(vex_rand64(&s) % hA), j = (size_t)(vex_rand64(&s) % wB);
		double ref = 0, mag = 0;
		for (size_t kk = 0; kk < wA; kk++) {
			double p = (double)A[i * wA + kk] * B[kk * wB + j];
			ref += p;
			mag += fabs(p);
		}
		double got = C[i * wB + j];
		if (!(fabs(got - ref) <= 1.2e-7 * (double)wA * mag + 1e-6)) {
			if (bad < 5)
				fprintf(stderr, "C[%zu][%zu] = %.9g, expected %.9g\n", i, j, got, ref);
			bad++;
		}
	}
	vex_write_output(a.out, C, cbytes);
	printf("matrixmul: hA=%zu wA=%zu wB=%zu bytes=%zu seconds=%.6f\n", hA, wA, wB,
	       abytes + bbytes + cbytes, t);

	clReleaseMemObject(dA);
	clReleaseMemObject(dB);
	clReleaseMemObject(dC);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	vex_release(&cl);
	free(path);
	free(A);
	free(B);
	free(C);
	if (bad) {
		fprintf(stderr, "matrixmul: FAILED (%zu of %d sampled elements differ)\n", bad, SAMPLES);
		return 1;
	}
	if (!a.quiet)
		fprintf(stderr, "matrixmul: ok\n");
	return 0;
}
