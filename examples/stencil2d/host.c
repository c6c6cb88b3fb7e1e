/* SPDX-License-Identifier: MIT */
/*
 * stencil2d - one 5-point stencil step over a W x H float grid.
 * usage: stencil2d [-o OUT] [-k stencil2d.cl] [W [H]]
 * Defaults 1024 x 1024 (8 MB in all). OUT receives the output grid.
 */
#include "vast_example.h"

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 2, .sizes = { 1024, 1024 } };
	vex_parse_args(&a, argc, argv, "[W [H]]");
	cl_uint w = (cl_uint)a.sizes[0], h = (cl_uint)a.sizes[1];
	size_t n = (size_t)w * h, bytes = n * sizeof(float);
	cl_float c0 = 0.5f, c1 = 0.125f;

	float *hin = vex_malloc(bytes), *hout = vex_malloc(bytes), *ref = vex_malloc(bytes);
	vex_rng r = vex_rng_seed(3);
	for (size_t i = 0; i < n; i++)
		hin[i] = vex_randf(&r, 0, 100);

	vex_cl cl;
	vex_init(&cl, a.quiet);
	char *path = vex_kernel_path(a.argv0, "stencil2d.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel k = vex_kernel(prog, "stencil2d");
	/* Created empty and filled with a write: another way into the runtime. */
	cl_mem din = vex_buffer(&cl, CL_MEM_READ_ONLY, bytes, NULL);
	cl_mem dout = vex_buffer(&cl, CL_MEM_WRITE_ONLY, bytes, NULL);
	CHECK(clEnqueueWriteBuffer(cl.queue, din, CL_FALSE, 0, bytes, hin, 0, NULL, NULL));
	VEX_ARG(k, 0, din);
	VEX_ARG(k, 1, dout);
	VEX_ARG(k, 2, w);
	VEX_ARG(k, 3, h);
	VEX_ARG(k, 4, c0);
	VEX_ARG(k, 5, c1);

	size_t local[2] = { 16, 16 };
	size_t global[2] = { (w + 15) / 16 * 16, (h + 15) / 16 * 16 };
	double t = vex_now();
	CHECK(clEnqueueNDRangeKernel(cl.queue, k, 2, NULL, global, local, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(cl.queue, dout, CL_TRUE, 0, bytes, hout, 0, NULL, NULL));
	t = vex_now() - t;
	if (!a.quiet)
		fprintf(stderr, "stencil2d: %ux%u %.3f ms\n", w, h, t * 1e3);

	for (cl_uint y = 0; y < h; y++)
		for (cl_uint x = 0; x < w; x++) {
			cl_uint xl = x > 0 ? x - 1 : 0, xr = x + 1 < w ? x + 1 : x;
			cl_uint yu = y > 0 ? y - 1 : 0, yd = y + 1 < h ? y + 1 : y;
			float s = hin[(size_t)yu * w + x] + hin[(size_t)yd * w + x] +
			          hin[(size_t)y * w + xr] + hin[(size_t)y * w + xl];
			ref[(size_t)y * w + x] = c0 * hin[(size_t)y * w + x] + c1 * s;
		}
	int bad = vex_compare_floats("out", hout, ref, n, 1e-5f, 1e-4f) != 0;
	vex_write_output(a.out, hout, bytes);

	clReleaseMemObject(din);
	clReleaseMemObject(dout);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	vex_release(&cl);
	free(path);
	free(hin);
	free(hout);
	free(ref);
	if (bad) {
		fprintf(stderr, "stencil2d: FAILED\n");
		return 1;
	}
	if (!a.quiet)
		fprintf(stderr, "stencil2d: ok\n");
	return 0;
}
