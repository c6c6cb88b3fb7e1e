/* SPDX-License-Identifier: MIT */
/*
 * histogram - 256 bins of N keys counted with global atomics.
 * usage: histogram [-o OUT] [-k histogram.cl] [N]
 * N keys (default 1M). OUT receives the 256 bins.
 */
#include "vast_example.h"

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 1, .sizes = { 1u << 20 } };
	vex_parse_args(&a, argc, argv, "[N]");
	cl_uint n = (cl_uint)a.sizes[0];
	cl_uint *keys = vex_malloc(n * sizeof(cl_uint)), hist[256] = {0}, want[256] = {0};
	vex_rng r = vex_rng_seed(256);
	for (cl_uint i = 0; i < n; i++) {
		keys[i] = (cl_uint)vex_randf(&r, 0, 65536);
		want[keys[i] & 255]++;
	}

	vex_cl cl;
	vex_init(&cl, a.quiet);
	char *path = vex_kernel_path(a.argv0, "histogram.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel k = vex_kernel(prog, "histogram");
	cl_mem dkeys = vex_buffer(&cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_uint), keys);
	cl_mem dhist = vex_buffer(&cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof hist, hist);
	VEX_ARG(k, 0, dkeys);
	VEX_ARG(k, 1, dhist);
	VEX_ARG(k, 2, n);

	size_t local = 64, global = (n + local - 1) / local * local;
	double t = vex_now();
	CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(cl.queue, dhist, CL_TRUE, 0, sizeof hist, hist, 0, NULL, NULL));
	t = vex_now() - t;
	if (!a.quiet)
		fprintf(stderr, "histogram: n=%u %.3f ms\n", n, t * 1e3);

	size_t bad = 0;
	for (int b = 0; b < 256; b++)
		if (hist[b] != want[b] && bad++ < 5)
			fprintf(stderr, "bin %d = %u, expected %u\n", b, hist[b], want[b]);
	vex_write_output(a.out, hist, sizeof hist);

	clReleaseMemObject(dkeys);
	clReleaseMemObject(dhist);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	vex_release(&cl);
	free(path);
	free(keys);
	if (bad) {
		fprintf(stderr, "histogram: FAILED (%zu bins)\n", bad);
		return 1;
	}
	if (!a.quiet)
		fprintf(stderr, "histogram: ok\n");
	return 0;
}
