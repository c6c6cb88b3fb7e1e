/* SPDX-License-Identifier: MIT */
/*
 * reduce_local - per-work-group sums with barriers and __local memory.
 * usage: reduce_local [-o OUT] [-k reduce_local.cl] [N [LOCAL]]
 * N floats (default 2M, 8 MB), LOCAL work-items per group (default 128, a
 * power of two). OUT receives the per-group sums.
 */
#include "vast_example.h"

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 2, .sizes = { 2u << 20, 128 } };
	vex_parse_args(&a, argc, argv, "[N [LOCAL]]");
	cl_uint n = (cl_uint)a.sizes[0];
	size_t local = a.sizes[1];
	if (local & (local - 1))
		vex_die("LOCAL must be a power of two");
	size_t groups = (n + 2 * local - 1) / (2 * local);

	float *hin = vex_malloc((size_t)n * sizeof(float));
	float *hp = vex_malloc(groups * sizeof(float)), *ref = vex_malloc(groups * sizeof(float));
	float *tmp = vex_malloc(local * sizeof(float));
	vex_rng r = vex_rng_seed(8);
	for (cl_uint i = 0; i < n; i++)
		hin[i] = vex_randf(&r, 0, 1);

	vex_cl cl;
	vex_init(&cl, a.quiet);
	char *path = vex_kernel_path(a.argv0, "reduce_local.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel k = vex_kernel(prog, "reduce_local");
	cl_mem din = vex_buffer(&cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
	                        (size_t)n * sizeof(float), hin);
	cl_mem dp = vex_buffer(&cl, CL_MEM_WRITE_ONLY, groups * sizeof(float), NULL);
	VEX_ARG(k, 0, din);
	VEX_ARG(k, 1, dp);
	CHECK(clSetKernelArg(k, 2, local * sizeof(float), NULL));
	VEX_ARG(k, 3, n);

	size_t global = groups * local;
	double t = vex_now();
	CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(cl.queue, dp, CL_TRUE, 0, groups * sizeof(float), hp, 0, NULL, NULL));
	t = vex_now() - t;

	/* The kernel's tree, replayed: float sums in the same order are exact. */
	double total = 0;
	for (size_t g = 0; g < groups; g++) {
		for (size_t l = 0; l < local; l++) {
			size_t b = g * local * 2 + l;
			float v = b < n ? hin[b] : 0.0f;
			if (b + local < n)
				v += hin[b + local];
			tmp[l] = v;
		}
		for (size_t s = local / 2; s > 0; s >>= 1)
			for (size_t l = 0; l < s; l++)
				tmp[l] += tmp[l + s];
		ref[g] = tmp[0];
		total += hp[g];
	}
	if (!a.quiet)
		fprintf(stderr, "reduce_local: n=%u, %zu groups, sum %.6f: %.3f ms\n", n,
		        groups, total, t * 1e3);
	int bad = vex_compare_floats("partial", hp, ref, groups, 1e-6f, 0) != 0;
	vex_write_output(a.out, hp, groups * sizeof(float));

	clReleaseMemObject(din);
	clReleaseMemObject(dp);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	vex_release(&cl);
	free(path);
	free(hin);
	free(hp);
	free(ref);
	free(tmp);
	if (bad) {
		fprintf(stderr, "reduce_local: FAILED\n");
		return 1;
	}
	if (!a.quiet)
		fprintf(stderr, "reduce_local: ok\n");
	return 0;
}
