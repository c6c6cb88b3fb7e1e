/* SPDX-License-Identifier: MIT */
/*
 * fdtd3d - ITERS steps of the radius-2 stencil over a DX x DY x DZ volume
 * (default 128^3, 2 steps), ping-ponged between two buffers.
 * usage: fdtd3d [-o OUT] [-q] [DX [DY [DZ [ITERS]]]]
 *
 * Prints `fdtd3d: bytes=B seconds=S` (both volumes). A point's value after
 * ITERS steps depends only on its radius 2*ITERS neighbourhood, so random
 * sample points are checked by evaluating that cone recursively in double
 * precision. OUT receives the final volume.
 */
#include "vast_example.h"

#define RADIUS 2
#define TX 32
#define TY 8

static const float C0 = 0.4f, C1 = 0.07f, C2 = 0.03f;
static size_t DX, DY, DZ;
static const float *IN;

static int boundary(long x, long y, long z)
{
	return x < RADIUS || x >= (long)DX - RADIUS || y < RADIUS ||
	       y >= (long)DY - RADIUS || z < RADIUS || z >= (long)DZ - RADIUS;
}

/* The value at (x,y,z) after t steps; boundary points never change. */
static double cone(long x, long y, long z, int t)
{
	if (t == 0 || boundary(x, y, z))
		return IN[((size_t)z * DY + (size_t)y) * DX + (size_t)x];
	double s1 = 0, s2 = 0;
	for (int d = -1; d <= 1; d += 2) {
		s1 += cone(x + d, y, z, t - 1) + cone(x, y + d, z, t - 1) + cone(x, y, z + d, t - 1);
		s2 += cone(x + 2 * d, y, z, t - 1) + cone(x, y + 2 * d, z, t - 1) +
		      cone(x, y, z + 2 * d, t - 1);
	}
	return C0 * cone(x, y, z, t - 1) + C1 * s1 + C2 * s2;
}

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 4, .sizes = { 128, 0, 0, 2 } };
	vex_parse_args(&a, argc, argv, "[DX [DY [DZ [ITERS]]]]");
	DX = a.sizes[0];
	DY = a.sizes[1] ? a.sizes[1] : DX;
	DZ = a.sizes[2] ? a.sizes[2] : DX;
	size_t iters = a.sizes[3];
	if (DX > 0x7fffffff || DY > 0x7fffffff || DZ > 0x7fffffff || iters > 16)
		vex_die("dimensions must be below 2^31 and ITERS at most 16");
	size_t npts = DX * DY * DZ, bytes = npts * sizeof(float);

	float *in = vex_malloc(bytes), *out = vex_malloc(bytes);
	vex_rng r = vex_rng_seed(31);
	for (size_t i = 0; i < npts; i++)
		in[i] = vex_randf(&r, 0, 1);
	IN = in;

	vex_cl cl;
	vex_init(&cl, a.quiet);
	char *path = vex_kernel_path(a.argv0, "fdtd3d.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel k = vex_kernel(prog, "fdtd3d");
	cl_mem buf[2] = { vex_buffer(&cl, CL_MEM_READ_WRITE, bytes, NULL),
	                  vex_buffer(&cl, CL_MEM_READ_WRITE, bytes, NULL) };
	cl_uint ux = (cl_uint)DX, uy = (cl_uint)DY, uz = (cl_uint)DZ;
	VEX_ARG(k, 2, ux);
	VEX_ARG(k, 3, uy);
	VEX_ARG(k, 4, uz);
	VEX_ARG(k, 5, C0);
	VEX_ARG(k, 6, C1);
	VEX_ARG(k, 7, C2);

	size_t local[2] = { TX, TY };
	size_t global[2] = { (DX + TX - 1) / TX * TX, (DY + TY - 1) / TY * TY };
	double t = vex_now();
	CHECK(clEnqueueWriteBuffer(cl.queue, buf[0], CL_FALSE, 0, bytes, in, 0, NULL, NULL));
	for (size_t it = 0; it < iters; it++) {
		VEX_ARG(k, 0, buf[it & 1]);
		VEX_ARG(k, 1, buf[!(it & 1)]);
		CHECK(clEnqueueNDRangeKernel(cl.queue, k, 2, NULL, global, local, 0, NULL, NULL));
	}
	CHECK(clEnqueueReadBuffer(cl.queue, buf[iters & 1], CL_FALSE, 0, bytes, out, 0,
	                          NULL, NULL));
	CHECK(clFinish(cl.queue));
	t = vex_now() - t;

	/* 13^ITERS evaluations per sample: keep the check near 2e7 of them. */
	size_t samples = 4096, cost = 1;
	for (size_t i = 0; i < iters; i++)
		cost *= 13;
	if (samples * cost > 20000000)
		samples = 20000000 / cost > 16 ? 20000000 / cost : 16;
	size_t bad = 0;
	vex_rng s = vex_rng_seed(37);
	for (size_t n = 0; n < samples; n++) {
		size_t i = (size_t)(vex_rand64(&s) % npts);
		/* Half the samples near the faces, where the edge cases are. */
		if (n & 1) {
			size_t x = i % DX, y = i / DX % DY, z = i / (DX * DY);
			x = (n & 2) ? x % 4 : DX - 1 - x % 4;
			if (x >= DX)
				x = 0;
			i = (z * DY + y) * DX + x;
		}
		double want = cone((long)(i % DX), (long)(i / DX % DY), (long)(i / (DX * DY)),
		                   (int)iters);
		if (!(fabs(out[i] - want) <= 1e-5)) {
			if (bad < 5)
				fprintf(stderr, "point (%zu,%zu,%zu) = %.9g, expected %.9g\n", i % DX,
				        i / DX % DY, i / (DX * DY), (double)out[i], want);
			bad++;
		}
	}
	vex_write_output(a.out, out, bytes);
	printf("fdtd3d: dims=%zux%zux%zu iters=%zu bytes=%zu seconds=%.6f checked=%zu\n", DX,
	       DY, DZ, iters, 2 * bytes, t, samples);

	clReleaseMemObject(buf[0]);
	clReleaseMemObject(buf[1]);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	vex_release(&cl);
	free(path);
	free(in);
	free(out);
	if (bad) {
		fprintf(stderr, "fdtd3d: FAILED (%zu of %zu sampled points differ)\n", bad, samples);
		return 1;
	}
	if (!a.quiet)
		fprintf(stderr, "fdtd3d: ok\n");
	return 0;
}
