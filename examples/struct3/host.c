/* SPDX-License-Identifier: MIT */
/*
 * struct3 - cross products over an array of `struct { float x, y, z; }`,
 * whose 12-byte elements straddle page boundaries.
 * usage: struct3 [-o OUT] [-k struct3.cl] [N]
 * N elements (default 256K, 9 MB in all). OUT receives c's raw bytes.
 */
#include "vast_example.h"

typedef struct { float x, y, z; } vec3;

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 1, .sizes = { 256u << 10 } };
	vex_parse_args(&a, argc, argv, "[N]");
	cl_uint n = (cl_uint)a.sizes[0];
	size_t bytes = (size_t)n * sizeof(vec3);

	vec3 *ha = vex_malloc(bytes), *hb = vex_malloc(bytes);
	vec3 *hc = vex_malloc(bytes), *ref = vex_malloc(bytes);
	vex_rng r = vex_rng_seed(6);
	for (cl_uint i = 0; i < n; i++) {
		ha[i] = (vec3){ vex_randf(&r, -1, 1), vex_randf(&r, -1, 1), vex_randf(&r, -1, 1) };
		hb[i] = (vec3){ vex_randf(&r, -1, 1), vex_randf(&r, -1, 1), vex_randf(&r, -1, 1) };
		ref[i].x = ha[i].y * hb[i].z - ha[i].z * hb[i].y;
		ref[i].y = ha[i].z * hb[i].x - ha[i].x * hb[i].z;
		ref[i].z = ha[i].x * hb[i].y - ha[i].y * hb[i].x;
	}

	vex_cl cl;
	vex_init(&cl, a.quiet);
	char *path = vex_kernel_path(a.argv0, "struct3.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel k = vex_kernel(prog, "cross3");
	/* Host memory used in place: another way into the runtime. */
	cl_mem da = vex_buffer(&cl, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, bytes, ha);
	cl_mem db = vex_buffer(&cl, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, bytes, hb);
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
		fprintf(stderr, "struct3: n=%u %.3f ms\n", n, t * 1e3);

	int bad = vex_compare_floats("c", (float *)hc, (float *)ref, 3 * (size_t)n,
	                             1e-5f, 1e-6f) != 0;
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
		fprintf(stderr, "struct3: FAILED\n");
		return 1;
	}
	if (!a.quiet)
		fprintf(stderr, "struct3: ok\n");
	return 0;
}
