/* SPDX-License-Identifier: MIT */
/*
 * jacobi2d - STEPS time steps of a 2-D Jacobi iteration (jacobi2d.cl; a
 * step is two sweeps, a into b and b into a), the iterative workload of
 * issue 10's benchmarks.
 * usage: jacobi2d [-o OUT] [-k jacobi2d.cl] [N [STEPS]]
 * Defaults N = 1024 (8 MB in all), 20 steps; N a multiple of 16. OUT
 * receives a then b. Prints (unless -q) the time of the steps, from the
 * first enqueue to clFinish, on one line:
 *   jacobi2d: NxN steps=S launches=L bytes=B ms=T
 */
#include "vast_example.h"

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 2, .sizes = { 1024, 20 } };
	vex_parse_args(&a, argc, argv, "[N [STEPS]]");
	cl_uint nn = (cl_uint)a.sizes[0];
	size_t steps = a.sizes[1], n = (size_t)nn * nn, bytes = n * sizeof(float);
	if (nn % 16)
		vex_die("N must be a multiple of 16");

	float *ha = vex_malloc(bytes), *hb = vex_malloc(bytes);
	vex_rng r = vex_rng_seed(13);
	for (size_t i = 0; i < n; i++)
		ha[i] = vex_randf(&r, 0, 100);
	vex_cl cl;
	vex_init(&cl, a.quiet);
	char *path = vex_kernel_path(a.argv0, "jacobi2d.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel k = vex_kernel(prog, "jacobi2d");
	/* Both from the same bytes: the sweeps leave the border as it is. */
	cl_mem ba = vex_buffer(&cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, ha);
	cl_mem bb = vex_buffer(&cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, ha);
	size_t local[2] = { 16, 16 }, global[2] = { nn, nn };
	VEX_ARG(k, 2, nn);
	double t = vex_now();
	for (size_t s = 0; s < steps; s++) {
		VEX_ARG(k, 0, ba);
		VEX_ARG(k, 1, bb);
		CHECK(clEnqueueNDRangeKernel(cl.queue, k, 2, NULL, global, local, 0, NULL, NULL));
		VEX_ARG(k, 0, bb);
		VEX_ARG(k, 1, ba);
		CHECK(clEnqueueNDRangeKernel(cl.queue, k, 2, NULL, global, local, 0, NULL, NULL));
	}
	CHECK(clFinish(cl.queue));
	t = vex_now() - t;
	if (!a.quiet)
		fprintf(stderr, "jacobi2d: %ux%u steps=%zu launches=%zu bytes=%zu ms=%.3f\n", nn, nn,
		        steps, 2 * steps, 2 * bytes, t * 1e3);
	CHECK(clEnqueueReadBuffer(cl.queue, ba, CL_TRUE, 0, bytes, ha, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(cl.queue, bb, CL_TRUE, 0, bytes, hb, 0, NULL, NULL));
	vex_out o;
	vex_out_open(&o, a.out);
	vex_out_write(&o, ha, bytes);
	vex_out_write(&o, hb, bytes);
	vex_out_close(&o);
	clReleaseMemObject(ba);
	clReleaseMemObject(bb);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	vex_release(&cl);
	free(path);
	free(ha);
	free(hb);
	return 0;
}
