/* SPDX-License-Identifier: MIT */
/*
 * padout - a guarded pure output in a padded image (padout.cl; default
 * 700 x 500, pitch W). usage: padout [-o OUT] [-q] [W [H [PITCH]]]
 *
 * The output buffer holds PITCH x (H + 2) pixels, all set by the host to
 * a pattern first; the kernel writes the W x H image in it. Exact check
 * against the CPU of every pixel, padding included (it must keep the
 * pattern). OUT receives the whole output buffer.
 */
#include "vast_example.h"

#define TILE 16

static cl_uint pattern(size_t i)
{
	return (cl_uint)(i * 2654435761u) ^ 0xa5a5a5a5u;
}

static cl_uint want_at(const cl_uint *in, size_t w, size_t h, size_t pitch, size_t i)
{
	size_t x = i % pitch, y = i / pitch;
	if (x >= w || y >= h)
		return pattern(i);
	cl_uint v = in[y * w + x];
	return v ^ (in[y * w + v % w] >> 1);
}

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 3, .sizes = { 700, 500, 0 } };
	vex_parse_args(&a, argc, argv, "[W [H [PITCH]]]");
	size_t w = a.sizes[0], h = a.sizes[1], pitch = a.sizes[2] ? a.sizes[2] : w;
	if (!w || !h || w > 0x7fffffff || h > 0x7fffffff || pitch < w || pitch > 0x7fffffff)
		vex_die("want 0 < W <= PITCH < 2^31 and 0 < H < 2^31");
	size_t nin = w * h, nout = pitch * (h + 2);
	size_t in_bytes = nin * sizeof(cl_uint), out_bytes = nout * sizeof(cl_uint);

	cl_uint *in = vex_malloc(in_bytes), *out = vex_malloc(out_bytes);
	vex_rng r = vex_rng_seed(3);
	for (size_t i = 0; i < nin; i++)
		in[i] = vex_rand32(&r);
	for (size_t i = 0; i < nout; i++)
		out[i] = pattern(i);

	vex_cl cl;
	vex_init(&cl, a.quiet);
	char *path = vex_kernel_path(a.argv0, "padout.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel k = vex_kernel(prog, "padout");
	cl_mem din = vex_buffer(&cl, CL_MEM_READ_ONLY, in_bytes, NULL);
	cl_mem dout = vex_buffer(&cl, CL_MEM_WRITE_ONLY, out_bytes, NULL);
	cl_uint uw = (cl_uint)w, uh = (cl_uint)h, up = (cl_uint)pitch;
	VEX_ARG(k, 0, din);
	VEX_ARG(k, 1, dout);
	VEX_ARG(k, 2, uw);
	VEX_ARG(k, 3, uh);
	VEX_ARG(k, 4, up);

	size_t local[2] = { TILE, TILE };
	size_t global[2] = { (w + TILE - 1) / TILE * TILE, (h + TILE - 1) / TILE * TILE };
	double t = vex_now();
	CHECK(clEnqueueWriteBuffer(cl.queue, din, CL_FALSE, 0, in_bytes, in, 0, NULL, NULL));
	CHECK(clEnqueueWriteBuffer(cl.queue, dout, CL_FALSE, 0, out_bytes, out, 0, NULL, NULL));
	CHECK(clEnqueueNDRangeKernel(cl.queue, k, 2, NULL, global, local, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(cl.queue, dout, CL_FALSE, 0, out_bytes, out, 0, NULL, NULL));
	CHECK(clFinish(cl.queue));
	t = vex_now() - t;

	size_t bad = 0;
	for (size_t i = 0; i < nout; i++) {
		cl_uint want = want_at(in, w, h, pitch, i);
		if (out[i] != want) {
			if (bad < 5)
				fprintf(stderr, "pixel (%zu,%zu) = %08x, expected %08x\n", i % pitch,
				        i / pitch, out[i], want);
			bad++;
		}
	}
	vex_write_output(a.out, out, out_bytes);
	printf("padout: w=%zu h=%zu pitch=%zu bytes=%zu seconds=%.6f checked=%zu\n", w, h, pitch,
	       in_bytes + out_bytes, t, nout);

	clReleaseMemObject(din);
	clReleaseMemObject(dout);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	vex_release(&cl);
	free(path);
	free(in);
	free(out);
	if (bad) {
		fprintf(stderr, "padout: FAILED (%zu of %zu pixels differ)\n", bad, nout);
		return 1;
	}
	if (!a.quiet)
		fprintf(stderr, "padout: ok\n");
	return 0;
}
