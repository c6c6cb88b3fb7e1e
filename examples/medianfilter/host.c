/* SPDX-License-Identifier: MIT */
/*
 * medianfilter - 3x3 median filter of a W x H RGBA8 image (default
 * 4096 x 4096). usage: medianfilter [-o OUT] [-q] [-m] [W [H]]
 *
 * Prints `medianfilter: bytes=B seconds=S`. Exact check against the CPU:
 * every pixel up to 16M pixels, else 1M random pixels. OUT receives the
 * filtered image.
 */
#include "vast_example.h"

#define TILE 16
#define FULL_CHECK (16u << 20)
#define SAMPLES (1u << 20)

static cl_uint median_ref(const cl_uint *img, size_t w, size_t h, size_t x, size_t y)
{
	cl_uint res = 0;
	for (int c = 0; c < 4; c++) {
		unsigned v[9];
		int n = 0;
		for (long dy = -1; dy <= 1; dy++)
			for (long dx = -1; dx <= 1; dx++) {
				long xx = (long)x + dx, yy = (long)y + dy;
				xx = xx < 0 ? 0 : xx >= (long)w ? (long)w - 1 : xx;
				yy = yy < 0 ? 0 : yy >= (long)h ? (long)h - 1 : yy;
				v[n++] = (img[(size_t)yy * w + (size_t)xx] >> (8 * c)) & 0xff;
			}
		for (int i = 1; i < 9; i++)   /* insertion sort */
			for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
				unsigned t = v[j];
				v[j] = v[j - 1];
				v[j - 1] = t;
			}
		res |= (cl_uint)v[4] << (8 * c);
	}
	return res;
}

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 2, .sizes = { 4096, 0 } };
	vex_parse_args(&a, argc, argv, "[W [H]]");
	size_t w = a.sizes[0], h = a.sizes[1] ? a.sizes[1] : w;
	if (w > 0x7fffffff || h > 0x7fffffff)
		vex_die("W and H must be below 2^31");
	size_t npix = w * h, bytes = npix * sizeof(cl_uint);

	vex_cl cl;
	vex_init(&cl, a.quiet);
	char *path = vex_kernel_path(a.argv0, "medianfilter.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel k = vex_kernel(prog, "medianfilter");
	vex_array ain = vex_array_create(&cl, a.mapped, CL_MEM_READ_ONLY, bytes, 1);
	vex_array aout = vex_array_create(&cl, a.mapped, CL_MEM_WRITE_ONLY, bytes, 0);
	cl_mem din = ain.mem, dout = aout.mem;
	cl_uint *in = ain.host;
	vex_rng r = vex_rng_seed(11);
	for (size_t i = 0; i < npix; i++)
		in[i] = vex_rand32(&r);
	cl_uint uw = (cl_uint)w, uh = (cl_uint)h;
	VEX_ARG(k, 0, din);
	VEX_ARG(k, 1, dout);
	VEX_ARG(k, 2, uw);
	VEX_ARG(k, 3, uh);

	size_t local[2] = { TILE, TILE };
	size_t global[2] = { (w + TILE - 1) / TILE * TILE, (h + TILE - 1) / TILE * TILE };
	double t = vex_now();
	vex_array_send(&cl, &ain);
	CHECK(clEnqueueNDRangeKernel(cl.queue, k, 2, NULL, global, local, 0, NULL, NULL));
	vex_array_fetch(&cl, &aout);
	CHECK(clFinish(cl.queue));
	t = vex_now() - t;
	vex_array_regain(&cl, &ain);
	CHECK(clFinish(cl.queue));
	in = ain.host;
	const cl_uint *out = aout.host;

	size_t bad = 0, checked = npix <= FULL_CHECK ? npix : SAMPLES;
	vex_rng s = vex_rng_seed(5);
	for (size_t n = 0; n < checked; n++) {
		size_t i = npix <= FULL_CHECK ? n : (size_t)(vex_rand64(&s) % npix);
		cl_uint want = median_ref(in, w, h, i % w, i / w);
		if (out[i] != want) {
			if (bad < 5)
				fprintf(stderr, "pixel (%zu,%zu) = %08x, expected %08x\n", i % w,
				        i / w, out[i], want);
			bad++;
		}
	}
	vex_write_output(a.out, out, bytes);
	printf("medianfilter: w=%zu h=%zu bytes=%zu seconds=%.6f checked=%zu\n", w, h,
	       2 * bytes, t, checked);

	vex_array_release(&cl, &ain);
	vex_array_release(&cl, &aout);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	vex_release(&cl);
	free(path);
	if (bad) {
		fprintf(stderr, "medianfilter: FAILED (%zu of %zu pixels differ)\n", bad, checked);
		return 1;
	}
	if (!a.quiet)
		fprintf(stderr, "medianfilter: ok\n");
	return 0;
}
