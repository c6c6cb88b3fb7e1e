/* SPDX-License-Identifier: MIT */
/*
 * iterate - what an iterative program does to a runtime that remembers
 * across launches (issue 10): STEPS rounds of a Jacobi step and a
 * relaxation of its output (a two-kernel pipeline, buffers swapped each
 * round); every 10th round the host reads the grid, changes it and
 * writes it back, and at round 25 changes it through a map. Then a
 * gather through an index buffer (an indirect kernel) runs 5 times; the
 * host rewrites the index buffer before the 3rd (a write) and the 4th (a
 * map), so its pages change between launches.
 * usage: iterate [-o OUT] [-k iterate.cl] [W [H [STEPS]]]
 * Defaults 512 x 512 floats per grid, 50 steps. OUT receives the final
 * grid, then the 5 gathers' outputs.
 */
#include "vast_example.h"

/* Indices of block i/256 land in block i/256 + shift (random, mod the
 * blocks), anywhere in it: each rewrite moves every work-group's source
 * pages, so a stale plan would miss them, while a group's pages stay
 * few enough for the smallest budgets. */
static void random_indices(int *idx, size_t n, vex_rng *r)
{
	size_t blocks = n / 256, shift = vex_rand_below(r, (uint32_t)blocks);
	for (size_t i = 0; i < n; i++)
		idx[i] = (int)(((i / 256 + shift) % blocks) * 256 + vex_rand_below(r, 256));
}

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 3, .sizes = { 512, 512, 50 } };
	vex_parse_args(&a, argc, argv, "[W [H [STEPS]]]");
	cl_uint w = (cl_uint)a.sizes[0], h = (cl_uint)a.sizes[1], n = w * h;
	size_t steps = a.sizes[2], bytes = (size_t)n * sizeof(float);
	if (w % 16 || h % 16)
		vex_die("W and H must be multiples of 16");

	float *grid = vex_malloc(bytes), *outs = vex_malloc(5 * bytes);
	int *idx = vex_malloc((size_t)n * sizeof *idx);
	vex_rng r = vex_rng_seed(10);
	for (cl_uint i = 0; i < n; i++)
		grid[i] = vex_randf(&r, 0, 100);
	random_indices(idx, n, &r);

	vex_cl cl;
	vex_init(&cl, a.quiet);
	char *path = vex_kernel_path(a.argv0, "iterate.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel kj = vex_kernel(prog, "jacobi"), kr = vex_kernel(prog, "relax");
	cl_kernel kg = vex_kernel(prog, "gather");
	cl_mem g[2] = {
		vex_buffer(&cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, grid),
		vex_buffer(&cl, CL_MEM_READ_WRITE, bytes, NULL),
	};
	cl_float relax_a = 0.75f;
	size_t local2[2] = { 16, 16 }, global2[2] = { w, h }, local1 = 256;
	size_t global1 = (n + 255) / 256 * 256;
	double t = vex_now();
	for (size_t s = 0; s < steps; s++) {
		cl_mem in = g[s % 2], out = g[(s + 1) % 2];
		VEX_ARG(kj, 0, in);
		VEX_ARG(kj, 1, out);
		VEX_ARG(kj, 2, w);
		VEX_ARG(kj, 3, h);
		CHECK(clEnqueueNDRangeKernel(cl.queue, kj, 2, NULL, global2, local2, 0, NULL, NULL));
		VEX_ARG(kr, 0, out);
		VEX_ARG(kr, 1, n);
		VEX_ARG(kr, 2, relax_a);
		CHECK(clEnqueueNDRangeKernel(cl.queue, kr, 1, NULL, &global1, &local1, 0, NULL, NULL));
		if (s % 10 == 9) {
			/* Read between launches, change, write back. */
			CHECK(clEnqueueReadBuffer(cl.queue, out, CL_TRUE, 0, bytes, grid, 0, NULL, NULL));
			for (cl_uint x = 0; x < w; x++)
				grid[(size_t)(s % h) * w + x] += 1.0f;
			CHECK(clEnqueueWriteBuffer(cl.queue, out, CL_TRUE, 0, bytes, grid, 0, NULL, NULL));
		} else if (s == 25) {
			cl_int err;
			float *p = clEnqueueMapBuffer(cl.queue, out, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
			                              0, bytes, 0, NULL, NULL, &err);
			CHECK_ERR(err, "clEnqueueMapBuffer");
			for (cl_uint y = 0; y < h; y++)
				p[(size_t)y * w + y % w] *= 0.5f;
			CHECK(clEnqueueUnmapMemObject(cl.queue, out, p, 0, NULL, NULL));
		}
	}
	cl_mem src = g[steps % 2];
	CHECK(clEnqueueReadBuffer(cl.queue, src, CL_TRUE, 0, bytes, grid, 0, NULL, NULL));

	cl_mem bidx = vex_buffer(&cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
	                         (size_t)n * sizeof *idx, idx);
	cl_mem dst = vex_buffer(&cl, CL_MEM_WRITE_ONLY, bytes, NULL);
	VEX_ARG(kg, 0, src);
	VEX_ARG(kg, 1, bidx);
	VEX_ARG(kg, 2, dst);
	VEX_ARG(kg, 3, n);
	int bad = 0;
	for (int i = 0; i < 5; i++) {
		if (i == 2) {
			random_indices(idx, n, &r);
			CHECK(clEnqueueWriteBuffer(cl.queue, bidx, CL_TRUE, 0, (size_t)n * sizeof *idx,
			                           idx, 0, NULL, NULL));
		} else if (i == 3) {
			cl_int err;
			int *p = clEnqueueMapBuffer(cl.queue, bidx, CL_TRUE, CL_MAP_WRITE, 0,
			                            (size_t)n * sizeof *idx, 0, NULL, NULL, &err);
			CHECK_ERR(err, "clEnqueueMapBuffer");
			random_indices(idx, n, &r);
			memcpy(p, idx, (size_t)n * sizeof *idx);
			CHECK(clEnqueueUnmapMemObject(cl.queue, bidx, p, 0, NULL, NULL));
		}
		float *o = outs + (size_t)i * n;
		CHECK(clEnqueueNDRangeKernel(cl.queue, kg, 1, NULL, &global1, &local1, 0, NULL, NULL));
		CHECK(clEnqueueReadBuffer(cl.queue, dst, CL_TRUE, 0, bytes, o, 0, NULL, NULL));
		/* A gather moves bytes: exact. */
		for (cl_uint j = 0; j < n && !bad; j++)
			bad = memcmp(&o[j], &grid[idx[j]], sizeof *o) != 0;
	}
	t = vex_now() - t;
	if (!a.quiet)
		fprintf(stderr, "iterate: %ux%u, %zu steps, %.3f ms\n", w, h, steps, t * 1e3);

	vex_out o;
	vex_out_open(&o, a.out);
	vex_out_write(&o, grid, bytes);
	vex_out_write(&o, outs, 5 * bytes);
	vex_out_close(&o);

	cl_mem all[] = { g[0], g[1], bidx, dst };
	for (size_t i = 0; i < sizeof all / sizeof *all; i++)
		clReleaseMemObject(all[i]);
	clReleaseKernel(kj);
	clReleaseKernel(kr);
	clReleaseKernel(kg);
	clReleaseProgram(prog);
	vex_release(&cl);
	free(path);
	free(grid);
	free(outs);
	free(idx);
	if (bad) {
		fprintf(stderr, "iterate: FAILED (a gather's output is not its source's bytes)\n");
		return 1;
	}
	if (!a.quiet)
		fprintf(stderr, "iterate: ok\n");
	return 0;
}
