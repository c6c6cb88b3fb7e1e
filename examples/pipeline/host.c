/* SPDX-License-Identifier: MIT */
/*
 * pipeline - two kernels run alternately ITERS times on the same buffers,
 * each consuming the other's output; the result is read with a map.
 * usage: pipeline [-o OUT] [-k pipeline.cl] [N [ITERS]]
 * N floats per buffer (default 1M, 8 MB in all), ITERS rounds (default 3).
 * OUT receives a then b.
 */
#include "vast_example.h"

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 2, .sizes = { 1u << 20, 3 } };
	vex_parse_args(&a, argc, argv, "[N [ITERS]]");
	cl_uint n = (cl_uint)a.sizes[0];
	size_t iters = a.sizes[1], bytes = (size_t)n * sizeof(float);

	float *ha = vex_malloc(bytes), *ra = vex_malloc(bytes), *rb = vex_malloc(bytes);
	vex_rng r = vex_rng_seed(9);
	for (cl_uint i = 0; i < n; i++)
		ha[i] = ra[i] = vex_randf(&r, -1, 1);
	for (size_t it = 0; it < iters; it++) {
		for (cl_uint i = 0; i < n; i++)
			rb[i] = 0.5f * (ra[i] + ra[i + 1 < n ? i + 1 : i]);
		for (cl_uint i = 0; i < n; i++)
			ra[i] = 1.5f * rb[i] - 0.5f * rb[i > 0 ? i - 1 : 0];
	}

	vex_cl cl;
	vex_init(&cl, a.quiet);
	char *path = vex_kernel_path(a.argv0, "pipeline.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel k1 = vex_kernel(prog, "smooth"), k2 = vex_kernel(prog, "sharpen");
	cl_mem da = vex_buffer(&cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, ha);
	cl_mem db = vex_buffer(&cl, CL_MEM_READ_WRITE, bytes, NULL);
	VEX_ARG(k1, 0, da);
	VEX_ARG(k1, 1, db);
	VEX_ARG(k1, 2, n);
	VEX_ARG(k2, 0, db);
	VEX_ARG(k2, 1, da);
	VEX_ARG(k2, 2, n);

	size_t local = 128, global = (n + local - 1) / local * local;
	cl_event done = NULL;
	double t = vex_now();
	for (size_t it = 0; it < iters; it++) {
		CHECK(clEnqueueNDRangeKernel(cl.queue, k1, 1, NULL, &global, &local, 0, NULL, NULL));
		if (done)
			clReleaseEvent(done);
		CHECK(clEnqueueNDRangeKernel(cl.queue, k2, 1, NULL, &global, &local, 0, NULL, &done));
	}
	CHECK(clWaitForEvents(1, &done));
	clReleaseEvent(done);
	t = vex_now() - t;
	if (!a.quiet)
		fprintf(stderr, "pipeline: n=%u, %zu rounds: %.3f ms\n", n, iters, t * 1e3);

	cl_int err;
	float *ma = clEnqueueMapBuffer(cl.queue, da, CL_TRUE, CL_MAP_READ, 0, bytes, 0,
	                               NULL, NULL, &err);
	CHECK_ERR(err, "clEnqueueMapBuffer");
	float *mb = clEnqueueMapBuffer(cl.queue, db, CL_TRUE, CL_MAP_READ, 0, bytes, 0,
	                               NULL, NULL, &err);
	CHECK_ERR(err, "clEnqueueMapBuffer");
	int bad = vex_compare_floats("a", ma, ra, n, 1e-5f, 1e-6f) != 0;
	bad |= vex_compare_floats("b", mb, rb, n, 1e-5f, 1e-6f) != 0;
	vex_out o;
	vex_out_open(&o, a.out);
	vex_out_write(&o, ma, bytes);
	vex_out_write(&o, mb, bytes);
	vex_out_close(&o);
	CHECK(clEnqueueUnmapMemObject(cl.queue, da, ma, 0, NULL, NULL));
	CHECK(clEnqueueUnmapMemObject(cl.queue, db, mb, 0, NULL, NULL));
	CHECK(clFinish(cl.queue));

	clReleaseMemObject(da);
	clReleaseMemObject(db);
	clReleaseKernel(k1);
	clReleaseKernel(k2);
	clReleaseProgram(prog);
	vex_release(&cl);
	free(path);
	free(ha);
	free(ra);
	free(rb);
	if (bad) {
		fprintf(stderr, "pipeline: FAILED\n");
		return 1;
	}
	if (!a.quiet)
		fprintf(stderr, "pipeline: ok\n");
	return 0;
}
