/* SPDX-License-Identifier: MIT */
/*
 * nbody - STEPS all-pairs steps of N bodies (default 16K bodies, 1 step),
 * positions and velocities ping-ponged between two buffers each.
 * usage: nbody [-o OUT] [-q] [N [STEPS]]
 *
 * Prints `nbody: bytes=B seconds=S` (five float4 arrays). The last step
 * is checked for up to 512 evenly spread bodies against a double
 * precision sum over all bodies, starting from that step's inputs (read
 * back from the device when STEPS > 1). OUT receives the final positions
 * then velocities.
 */
#include "vast_example.h"

#define LOCAL 256
#define SAMPLES 512

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 2, .sizes = { 16384, 1 } };
	vex_parse_args(&a, argc, argv, "[N [STEPS]]");
	size_t n = a.sizes[0], steps = a.sizes[1];
	if (n > 0xffffffffu)
		vex_die("N must be below 2^32");
	size_t bytes = n * 4 * sizeof(float);
	float dt = 0.001f, eps2 = 0.01f;

	float *pos = vex_malloc(bytes), *vel = vex_malloc(bytes);
	float *npos = vex_malloc(bytes), *nvel = vex_malloc(bytes), *acc = vex_malloc(bytes);
	vex_rng r = vex_rng_seed(23);
	for (size_t i = 0; i < n; i++) {
		for (int c = 0; c < 3; c++) {
			pos[4 * i + c] = vex_randf(&r, -1, 1);
			vel[4 * i + c] = vex_randf(&r, -0.1f, 0.1f);
		}
		pos[4 * i + 3] = vex_randf(&r, 0.5f, 1.0f);
		vel[4 * i + 3] = 0;
	}

	vex_cl cl;
	vex_init(&cl, a.quiet);
	char *path = vex_kernel_path(a.argv0, "nbody.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel k = vex_kernel(prog, "nbody");
	cl_mem dpos[2], dvel[2];
	for (int b = 0; b < 2; b++) {
		dpos[b] = vex_buffer(&cl, CL_MEM_READ_WRITE, bytes, NULL);
		dvel[b] = vex_buffer(&cl, CL_MEM_READ_WRITE, bytes, NULL);
	}
	cl_mem dacc = vex_buffer(&cl, CL_MEM_WRITE_ONLY, bytes, NULL);
	cl_uint un = (cl_uint)n;
	VEX_ARG(k, 4, dacc);
	VEX_ARG(k, 5, un);
	VEX_ARG(k, 6, dt);
	VEX_ARG(k, 7, eps2);

	size_t local = LOCAL, global = (n + LOCAL - 1) / LOCAL * LOCAL;
	double t = vex_now();
	CHECK(clEnqueueWriteBuffer(cl.queue, dpos[0], CL_FALSE, 0, bytes, pos, 0, NULL, NULL));
	CHECK(clEnqueueWriteBuffer(cl.queue, dvel[0], CL_FALSE, 0, bytes, vel, 0, NULL, NULL));
	for (size_t s = 0; s < steps; s++) {
		int in = (int)(s & 1), out = !in;
		VEX_ARG(k, 0, dpos[in]);
		VEX_ARG(k, 1, dvel[in]);
		VEX_ARG(k, 2, dpos[out]);
		VEX_ARG(k, 3, dvel[out]);
		CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
	}
	int last = (int)(steps & 1);
	CHECK(clEnqueueReadBuffer(cl.queue, dpos[last], CL_FALSE, 0, bytes, npos, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(cl.queue, dvel[last], CL_FALSE, 0, bytes, nvel, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(cl.queue, dacc, CL_FALSE, 0, bytes, acc, 0, NULL, NULL));
	if (steps > 1) {
		CHECK(clEnqueueReadBuffer(cl.queue, dpos[!last], CL_FALSE, 0, bytes, pos, 0, NULL, NULL));
		CHECK(clEnqueueReadBuffer(cl.queue, dvel[!last], CL_FALSE, 0, bytes, vel, 0, NULL, NULL));
	}
	CHECK(clFinish(cl.queue));
	t = vex_now() - t;

	/* rsqrt is within a few ulp and the sum runs over n terms in float. */
	size_t step = n > SAMPLES ? n / SAMPLES : 1, bad = 0, checked = 0;
	double tol = 1e-5 + 1.2e-7 * (double)n;
	for (size_t i = 0; i < n; i += step, checked++) {
		double ref[3] = { 0, 0, 0 }, mag = 0;
		for (size_t j = 0; j < n; j++) {
			double d[3], r2 = eps2;
			for (int c = 0; c < 3; c++) {
				d[c] = (double)pos[4 * j + c] - pos[4 * i + c];
				r2 += d[c] * d[c];
			}
			double f = pos[4 * j + 3] / (r2 * sqrt(r2));
			for (int c = 0; c < 3; c++) {
				ref[c] += d[c] * f;
				mag += fabs(d[c] * f);
			}
		}
		int ok = 1;
		for (int c = 0; c < 3; c++) {
			double gv = vel[4 * i + c] + (double)acc[4 * i + c] * dt;
			double gp = pos[4 * i + c] + gv * dt;
			ok &= fabs(acc[4 * i + c] - ref[c]) <= tol * mag;
			ok &= fabs(nvel[4 * i + c] - gv) <= 1e-6 * (1 + fabs(gv));
			ok &= fabs(npos[4 * i + c] - gp) <= 1e-6 * (1 + fabs(gp));
		}
		ok &= npos[4 * i + 3] == pos[4 * i + 3];
		if (!ok) {
			if (bad < 5)
				fprintf(stderr, "body %zu: acc (%g %g %g), expected (%g %g %g)\n", i,
				        (double)acc[4 * i], (double)acc[4 * i + 1],
				        (double)acc[4 * i + 2], ref[0], ref[1], ref[2]);
			bad++;
		}
	}
	if (a.out) {
		vex_out o;
		vex_out_open(&o, a.out);
		vex_out_write(&o, npos, bytes);
		vex_out_write(&o, nvel, bytes);
		vex_out_close(&o);
	}
	printf("nbody: n=%zu steps=%zu bytes=%zu seconds=%.6f checked=%zu\n", n, steps,
	       5 * bytes, t, checked);

	for (int b = 0; b < 2; b++) {
		clReleaseMemObject(dpos[b]);
		clReleaseMemObject(dvel[b]);
	}
	clReleaseMemObject(dacc);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	vex_release(&cl);
	free(path);
	free(pos);
	free(vel);
	free(npos);
	free(nvel);
	free(acc);
	if (bad) {
		fprintf(stderr, "nbody: FAILED (%zu of %zu sampled bodies differ)\n", bad, checked);
		return 1;
	}
	if (!a.quiet)
		fprintf(stderr, "nbody: ok\n");
	return 0;
}
