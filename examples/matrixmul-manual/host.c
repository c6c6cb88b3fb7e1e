/* SPDX-License-Identifier: MIT */
/*
 * matrixmul-manual - MatrixMul partitioned by hand for a device memory of
 * MEM bytes, the way an expert would do it without vastcc: B is sent once
 * and stays resident; A and C go through in blocks of rows sized so that B
 * plus two blocks of A and C fit in MEM, and the blocks are double
 * buffered on two in-order queues, so block i+1's transfer of A overlaps
 * block i's kernel and its transfer of C back.
 *
 * usage: matrixmul-manual [-o OUT] [-q] hA wA wB [MEM]
 * (multiples of 16; MEM defaults to room for a single block).
 * Prints `matrixmul-manual: bytes=B seconds=S blocks=N rows=R`.
 * The check and OUT are those of matrixmul.
 */
#include "vast_example.h"

#define BLOCK 16
#define SAMPLES 4096

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 4, .sizes = { 1024, 0, 0, 0 } };
	vex_parse_args(&a, argc, argv, "hA wA wB [MEM]");
	size_t hA = a.sizes[0];
	size_t wA = a.sizes[1] ? a.sizes[1] : hA;
	size_t wB = a.sizes[2] ? a.sizes[2] : hA;
	if (hA % BLOCK || wA % BLOCK || wB % BLOCK || wA > 0xffffffffu || wB > 0xffffffffu)
		vex_die("dimensions must be multiples of %d (and widths below 2^32)", BLOCK);
	size_t abytes = hA * wA * sizeof(float), bbytes = wA * wB * sizeof(float);
	size_t cbytes = hA * wB * sizeof(float);
	/* Two buffers of A rows and two of C rows next to B. */
	size_t row_bytes = (wA + wB) * sizeof(float);
	size_t mem = a.sizes[3] ? a.sizes[3] : bbytes + 2 * hA * row_bytes;
	if (mem <= bbytes + 2 * BLOCK * row_bytes)
		vex_die("MEM=%zu cannot hold B (%zu bytes) and two blocks of %d rows", mem,
		        bbytes, BLOCK);
	size_t rows = (mem - bbytes) / (2 * row_bytes) / BLOCK * BLOCK;
	if (rows > hA)
		rows = hA;
	size_t nblocks = (hA + rows - 1) / rows;

	float *A = vex_malloc(abytes), *B = vex_malloc(bbytes), *C = vex_malloc(cbytes);
	vex_rng r = vex_rng_seed(7);
	for (size_t i = 0; i < hA * wA; i++)
		A[i] = vex_randf(&r, -1, 1);
	for (size_t i = 0; i < wA * wB; i++)
		B[i] = vex_randf(&r, -1, 1);

	vex_cl cl;
	vex_init(&cl, a.quiet);
	cl_int err;
	cl_command_queue q[2] = { cl.queue, NULL };
	q[1] = clCreateCommandQueue(cl.ctx, cl.device, 0, &err);
	CHECK_ERR(err, "clCreateCommandQueue");
	char *path = vex_kernel_path(a.argv0, "matrixmul.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_mem dB = vex_buffer(&cl, CL_MEM_READ_ONLY, bbytes, NULL);
	cl_mem dA[2], dC[2];
	cl_kernel k[2];
	cl_uint uwA = (cl_uint)wA, uwB = (cl_uint)wB;
	for (int b = 0; b < 2 && b < (int)nblocks; b++) {
		dA[b] = vex_buffer(&cl, CL_MEM_READ_ONLY, rows * wA * sizeof(float), NULL);
		dC[b] = vex_buffer(&cl, CL_MEM_WRITE_ONLY, rows * wB * sizeof(float), NULL);
		k[b] = vex_kernel(prog, "matrixmul");
		VEX_ARG(k[b], 0, dC[b]);
		VEX_ARG(k[b], 1, dA[b]);
		VEX_ARG(k[b], 2, dB);
		VEX_ARG(k[b], 3, uwA);
		VEX_ARG(k[b], 4, uwB);
	}

	double t = vex_now();
	cl_event bdone;
	CHECK(clEnqueueWriteBuffer(q[0], dB, CL_FALSE, 0, bbytes, B, 0, NULL, &bdone));
	for (size_t i = 0; i < nblocks; i++) {
		int b = (int)(i & 1);
		size_t r0 = i * rows, nr = hA - r0 < rows ? hA - r0 : rows;
		size_t global[2] = { wB, nr }, local[2] = { BLOCK, BLOCK };
		/* The queue's order keeps block i+2's upload behind block i's
		 * download of the same buffers. */
		CHECK(clEnqueueWriteBuffer(q[b], dA[b], CL_FALSE, 0, nr * wA * sizeof(float),
		                           A + r0 * wA, 0, NULL, NULL));
		CHECK(clEnqueueNDRangeKernel(q[b], k[b], 2, NULL, global, local,
		                             b ? 1 : 0, b ? &bdone : NULL, NULL));
		CHECK(clEnqueueReadBuffer(q[b], dC[b], CL_FALSE, 0, nr * wB * sizeof(float),
		                          C + r0 * wB, 0, NULL, NULL));
		CHECK(clFlush(q[b]));
	}
	CHECK(clFinish(q[0]));
	CHECK(clFinish(q[1]));
	t = vex_now() - t;
	clReleaseEvent(bdone);

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
	printf("matrixmul-manual: hA=%zu wA=%zu wB=%zu bytes=%zu seconds=%.6f blocks=%zu rows=%zu\n",
	       hA, wA, wB, abytes + bbytes + cbytes, t, nblocks, rows);

	for (int b = 0; b < 2 && b < (int)nblocks; b++) {
		clReleaseMemObject(dA[b]);
		clReleaseMemObject(dC[b]);
		clReleaseKernel(k[b]);
	}
	clReleaseMemObject(dB);
	clReleaseProgram(prog);
	clReleaseCommandQueue(q[1]);
	vex_release(&cl);
	free(path);
	free(A);
	free(B);
	free(C);
	if (bad) {
		fprintf(stderr, "matrixmul-manual: FAILED (%zu of %d sampled elements differ)\n",
		        bad, SAMPLES);
		return 1;
	}
	if (!a.quiet)
		fprintf(stderr, "matrixmul-manual: ok\n");
	return 0;
}
