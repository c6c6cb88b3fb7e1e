/* SPDX-License-Identifier: MIT */
/*
 * revisit - a runtime that keeps pages on the device between launches
 * must not use one the host changed since (issue 10). STEPS rounds of a
 * pointwise step from buffer A into B and back from B into A; after
 * every round but each third, the host changes one float of every 1 KiB
 * of A, alternately by a write (clEnqueueWriteBuffer of all of A after
 * reading it) and through a map, so every page of A the device may still
 * hold is stale. The third rounds leave A alone: there the kept pages
 * are the host's.
 * usage: revisit [-o OUT] [-k revisit.cl] [N [STEPS]]
 * Defaults 262144 floats per buffer, 30 steps. OUT receives A, then B.
 */
#include "vast_example.h"

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 2, .sizes = { 262144, 30 } };
	vex_parse_args(&a, argc, argv, "[N [STEPS]]");
	cl_uint n = (cl_uint)a.sizes[0];
	size_t steps = a.sizes[1], bytes = (size_t)n * sizeof(float);
	if (n % 256)
		vex_die("N must be a multiple of 256");

	float *host = vex_malloc(2 * bytes);
	vex_rng r = vex_rng_seed(7);
	for (cl_uint i = 0; i < n; i++)
		host[i] = vex_randf(&r, 0, 100);

	vex_cl cl;
	vex_init(&cl, a.quiet);
	char *path = vex_kernel_path(a.argv0, "revisit.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel k = vex_kernel(prog, "advance");
	cl_mem A = vex_buffer(&cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, host);
	cl_mem B = vex_buffer(&cl, CL_MEM_READ_WRITE, bytes, NULL);
	cl_float half = 0.5f;
	size_t local = 256, global = n;
	double t = vex_now();
	for (size_t s = 0; s < steps; s++) {
		cl_mem from[2] = { A, B }, to[2] = { B, A };
		for (int d = 0; d < 2; d++) {
			VEX_ARG(k, 0, from[d]);
			VEX_ARG(k, 1, to[d]);
			VEX_ARG(k, 2, n);
			VEX_ARG(k, 3, half);
			CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
		}
		if (s % 3 == 2)
			continue;
		float v = (float)(s + 1);
		if (s % 3 == 0) {
			CHECK(clEnqueueReadBuffer(cl.queue, A, CL_TRUE, 0, bytes, host, 0, NULL, NULL));
			for (cl_uint i = (cl_uint)s % 256; i < n; i += 256)
				host[i] += v;
			CHECK(clEnqueueWriteBuffer(cl.queue, A, CL_TRUE, 0, bytes, host, 0, NULL, NULL));
		} else {
			cl_int err;
			float *p = clEnqueueMapBuffer(cl.queue, A, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
			                              bytes, 0, NULL, NULL, &err);
			CHECK_ERR(err, "clEnqueueMapBuffer");
			for (cl_uint i = (cl_uint)s % 256; i < n; i += 256)
				p[i] -= v;
			CHECK(clEnqueueUnmapMemObject(cl.queue, A, p, 0, NULL, NULL));
		}
	}
	CHECK(clEnqueueReadBuffer(cl.queue, A, CL_TRUE, 0, bytes, host, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(cl.queue, B, CL_TRUE, 0, bytes, host + n, 0, NULL, NULL));
	t = vex_now() - t;
	if (!a.quiet)
		fprintf(stderr, "revisit: %u floats, %zu steps, %.3f ms\n", n, steps, t * 1e3);

	vex_out o;
	vex_out_open(&o, a.out);
	vex_out_write(&o, host, 2 * bytes);
	vex_out_close(&o);

	clReleaseMemObject(A);
	clReleaseMemObject(B);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	vex_release(&cl);
	free(path);
	free(host);
	return 0;
}
