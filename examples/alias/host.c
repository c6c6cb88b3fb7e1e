/* SPDX-License-Identifier: MIT */
/*
 * alias - axpy with aliased pointer arguments: first y = 2x + y on two
 * buffers, then y = 0.5y + y in place (the same cl_mem as x and as y).
 * usage: alias [-o OUT] [-k alias.cl] [N]
 * N elements (default 1M, 8 MB in all). OUT receives y then x.
 */
#include "vast_example.h"

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 1, .sizes = { 1u << 20 } };
	vex_parse_args(&a, argc, argv, "[N]");
	cl_uint n = (cl_uint)a.sizes[0];
	size_t bytes = (size_t)n * sizeof(float);

	float *hx = vex_malloc(bytes), *hy = vex_malloc(bytes);
	float *rx = vex_malloc(bytes), *ry = vex_malloc(bytes);
	vex_rng r = vex_rng_seed(7);
	for (cl_uint i = 0; i < n; i++) {
		hx[i] = vex_randf(&r, -1, 1);
		hy[i] = vex_randf(&r, -1, 1);
	}
	cl_float a1 = 2.0f, a2 = 0.5f;
	for (cl_uint i = 0; i < n; i++) {
		rx[i] = hx[i];
		ry[i] = a1 * hx[i] + hy[i];
		ry[i] = a2 * ry[i] + ry[i];
	}

	vex_cl cl;
	vex_init(&cl, a.quiet);
	char *path = vex_kernel_path(a.argv0, "alias.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel k = vex_kernel(prog, "axpy");
	cl_mem dx = vex_buffer(&cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, hx);
	cl_mem dy = vex_buffer(&cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, hy);
	size_t local = 64, global = (n + local - 1) / local * local;

	double t = vex_now();
	VEX_ARG(k, 0, a1);
	VEX_ARG(k, 1, dx);
	VEX_ARG(k, 2, dy);
	VEX_ARG(k, 3, n);
	CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
	VEX_ARG(k, 0, a2);
	VEX_ARG(k, 1, dy); /* x and y: the same buffer */
	CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(cl.queue, dy, CL_TRUE, 0, bytes, hy, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(cl.queue, dx, CL_TRUE, 0, bytes, hx, 0, NULL, NULL));
	t = vex_now() - t;
	if (!a.quiet)
		fprintf(stderr, "alias: n=%u %.3f ms\n", n, t * 1e3);

	int bad = vex_compare_floats("y", hy, ry, n, 1e-5f, 1e-6f) != 0;
	bad |= memcmp(hx, rx, bytes) != 0 && vex_compare_floats("x", hx, rx, n, 0, 0) != 0;
	vex_out o;
	vex_out_open(&o, a.out);
	vex_out_write(&o, hy, bytes);
	vex_out_write(&o, hx, bytes);
	vex_out_close(&o);

	clReleaseMemObject(dx);
	clReleaseMemObject(dy);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	vex_release(&cl);
	free(path);
	free(hx);
	free(hy);
	free(rx);
	free(ry);
	if (bad) {
		fprintf(stderr, "alias: FAILED\n");
		return 1;
	}
	if (!a.quiet)
		fprintf(stderr, "alias: ok\n");
	return 0;
}
