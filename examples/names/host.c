/* SPDX-License-Identifier: MIT */
/*
 * names - vadd whose kernel uses names vastcc once generated (vast_c,
 * vast_gsize): the runtime must find the variants under the program's own
 * prefix. c = a + b over N floats (default 1M).
 * usage: names [-o OUT] [-k names.cl] [N]
 * OUT receives c's raw bytes.
 */
#include "vast_example.h"

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 1, .sizes = { 1u << 20 } };
	vex_parse_args(&a, argc, argv, "[N]");
	cl_uint n = (cl_uint)a.sizes[0];
	size_t bytes = (size_t)n * sizeof(float);

	float *ha = vex_malloc(bytes), *hb = vex_malloc(bytes);
	float *hc = vex_malloc(bytes), *ref = vex_malloc(bytes);
	vex_rng r = vex_rng_seed(1);
	for (cl_uint i = 0; i < n; i++) {
		ha[i] = vex_randf(&r, -1, 1);
		hb[i] = vex_randf(&r, -1, 1);
		ref[i] = ha[i] + hb[i];
	}

	vex_cl cl;
	vex_init(&cl, a.quiet);
	char *path = vex_kernel_path(a.argv0, "names.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel k = vex_kernel(prog, "vadd");
	cl_mem da = vex_buffer(&cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, ha);
	cl_mem db = vex_buffer(&cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, hb);
	cl_mem dc = vex_buffer(&cl, CL_MEM_WRITE_ONLY, bytes, NULL);
	VEX_ARG(k, 0, da);
	VEX_ARG(k, 1, db);
	VEX_ARG(k, 2, dc);
	VEX_ARG(k, 3, n);

	size_t local = 64, global = (n + local - 1) / local * local;
	double t = vex_now();
	CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(cl.queue, dc, CL_TRUE, 0, bytes, hc, 0, NULL, NULL));
	t = vex_now() - t;
	if (!a.quiet)
		fprintf(stderr, "names: n=%u %.3f ms\n", n, t * 1e3);

	int bad = memcmp(hc, ref, bytes) != 0 &&
	          vex_compare_floats("c", hc, ref, n, 0, 0) != 0;
	vex_write_output(a.out, hc, bytes);

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
		fprintf(stderr, "names: FAILED\n");
		return 1;
	}
	if (!a.quiet)
		fprintf(stderr, "names: ok\n");
	return 0;
}
