/* SPDX-License-Identifier: MIT */
/*
 * sobelfilter - Sobel edge magnitude of a W x H RGBA8 image (default
 * 4096 x 4096). usage: sobelfilter [-o OUT] [-q] [-m] [W [H]]
 *
 * Prints `sobelfilter: bytes=B seconds=S`. Exact check against the CPU:
 * every pixel up to 16M pixels, else 1M random pixels. OUT receives the
 * filtered image.
 */
#include "vast_example.h"

#define TILE 16
#define FULL_CHECK (16u << 20)
#define SAMPLES (1u << 20)

static int px(const cl_uint *img, size_t w, size_t h, long x, long y, int c)
{
	x = x < 0 ? 0 : x >= (long)w ? (long)w - 1 : x;
	y = y < 0 ? 0 : y >= (long)h ? (long)h - 1 : y;
	return (int)((img[(size_t)y * w + (size_t)x] >> (8 * c)) & 0xff);
}

static cl_uint sobel_ref(const cl_uint *img, size_t w, size_t h, size_t ux, size_t uy)
{
	long x = (long)ux, y = (long)uy;
	cl_uint res = 0;
	for (int c = 0; c < 4; c++) {
		int gx = (px(img, w, h, x + 1, y - 1, c) + 2 * px(img, w, h, x + 1, y, c) +
		          px(img, w, h, x + 1, y + 1, c)) -
		         (px(img, w, h, x - 1, y - 1, c) + 2 * px(img, w, h, x - 1, y, c) +
		          px(img, w, h, x - 1, y + 1, c));
		int gy = (px(img, w, h, x - 1, y + 1, c) + 2 * px(img, w, h, x, y + 1, c) +
		          px(img, w, h, x + 1, y + 1, c)) -
		         (px(img, w, h, x - 1, y - 1, c) + 2 * px(img, w, h, x, y - 1, c) +
		          px(img, w, h, x + 1, y - 1, c));
		int m = (abs(gx) + abs(gy)) >> 1;
		res |= (cl_uint)(m > 255 ? 255 : m) << (8 * c);
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
	char *path = vex_kernel_path(a.argv0, "sobelfilter.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel k = vex_kernel(prog, "sobelfilter");
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
		cl_uint want = sobel_ref(in, w, h, i % w, i / w);
		if (out[i] != want) {
			if (bad < 5)
				fprintf(stderr, "pixel (%zu,%zu) = %08x, expected %08x\n", i % w,
				        i / w, out[i], want);
			bad++;
		}
	}
	vex_write_output(a.out, out, bytes);
	printf("sobelfilter: w=%zu h=%zu bytes=%zu seconds=%.6f checked=%zu\n", w, h,
	       2 * bytes, t, checked);

	vex_array_release(&cl, &ain);
	vex_array_release(&cl, &aout);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	vex_release(&cl);
	free(path);
	if (bad) {
		fprintf(stderr, "sobelfilter: FAILED (%zu of %zu pixels differ)\n", bad, checked);
		return 1;
	}
	if (!a.quiet)
		fprintf(stderr, "sobelfilter: ok\n");
	return 0;
}
