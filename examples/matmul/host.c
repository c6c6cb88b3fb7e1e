/* SPDX-License-Identifier: MIT */
/*
 * matmul - C = A * B with a tiled 2-D kernel.
 * usage: matmul [-o OUT] [-k matmul.cl] [M [N [K]]]
 * Defaults M=2048, N=K=256 (about 4 MB): tall A and C, small B, so that a
 * budget of 10% of the data still holds B plus one row of tiles. OUT
 * receives C's raw bytes.
 */
#include "vast_example.h"

#define TILE 16

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 3, .sizes = { 2048, 256, 256 } };
	vex_parse_args(&a, argc, argv, "[M [N [K]]]");
	cl_uint M = (cl_uint)a.sizes[0], N = (cl_uint)a.sizes[1], K = (cl_uint)a.sizes[2];
	size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;

	float *ha = vex_malloc(na * sizeof(float)), *hb = vex_malloc(nb * sizeof(float));
	float *hc = vex_malloc(nc * sizeof(float)), *ref = vex_malloc(nc * sizeof(float));
	vex_rng r = vex_rng_seed(2);
	for (size_t i = 0; i < na; i++)
		ha[i] = vex_randf(&r, -1, 1);
	for (size_t i = 0; i < nb; i++)
		hb[i] = vex_randf(&r, -1, 1);

	vex_cl cl;
	vex_init(&cl, a.quiet);
	char *path = vex_kernel_path(a.argv0, "matmul.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel k = vex_kernel(prog, "matmul");
	cl_mem da = vex_buffer(&cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, na * sizeof(float), ha);
	cl_mem db = vex_buffer(&cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nb * sizeof(float), hb);
	cl_mem dc = vex_buffer(&cl, CL_MEM_WRITE_ONLY, nc * sizeof(float), NULL);
	VEX_ARG(k, 0, da);
	VEX_ARG(k, 1, db);
	VEX_ARG(k, 2, dc);
	VEX_ARG(k, 3, M);
	VEX_ARG(k, 4, N);
	VEX_ARG(k, 5, K);

	size_t local[2] = { TILE, TILE };
	size_t global[2] = { (N + TILE - 1) / TILE * TILE, (M + TILE - 1) / TILE * TILE };
	double t = vex_now();
	CHECK(clEnqueueNDRangeKernel(cl.queue, k, 2, NULL, global, local, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(cl.queue, dc, CL_TRUE, 0, nc * sizeof(float), hc, 0, NULL, NULL));
	t = vex_now() - t;
	if (!a.quiet)
		fprintf(stderr, "matmul: %ux%u * %ux%u: %.3f ms, %.2f GFLOP/s\n", M, K, K, N,
		        t * 1e3, 2.0 * M * N * K / t * 1e-9);

	/* Same summation order as the kernel; the device may contract to
	 * fma, hence the tolerance. */
	for (cl_uint i = 0; i < M; i++)
		for (cl_uint j = 0; j < N; j++) {
			float acc = 0;
			for (cl_uint q = 0; q < K; q++)
				acc += ha[(size_t)i * K + q] * hb[(size_t)q * N + j];
			ref[(size_t)i * N + j] = acc;
		}
	int bad = vex_compare_floats("C", hc, ref, nc, 1e-4f, 1e-4f) != 0;
	vex_write_output(a.out, hc, nc * sizeof(float));

	clReleaseMemObject(da);
	clReleaseMemObject(db);
	clReleaseMemObject(dc);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	vex_release(&cl);
	free(path);
	free(ha);
	free(hb);
	free(hc);
	free(ref);
	if (bad) {
		fprintf(stderr, "matmul: FAILED\n");
		return 1;
	}
	if (!a.quiet)
		fprintf(stderr, "matmul: ok\n");
	return 0;
}
