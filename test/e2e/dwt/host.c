/* SPDX-License-Identifier: MIT */
/*
 * dwt - dwt.cl's fdwt53 over an SX x SY image of ints, as dwt2d launches
 * it: WIN_X work-items a group, each group two windows of WIN_Y rows.
 * Writes the output buffer to OUT, for test/e2e/dwt.sh.
 * usage: dwt OUT SX SY
 */
#include "rt_host.h"

#define WIN_X 32
#define WIN_Y 8

int main(int argc, char **argv)
{
	if (argc != 4)
		return 2;
	int sx = atoi(argv[2]), sy = atoi(argv[3]), steps = 2;
	if (sx < WIN_X || sy < 1)
		return 2;
	rt_cl c;
	rt_setup(&c, "dwt.cl", NULL);
	cl_int err;
	cl_kernel k = clCreateKernel(c.prog, "fdwt53", &err);
	CHECK(err);
	size_t n = (size_t)sx * (size_t)sy;
	int *img = malloc(n * sizeof *img), *res = calloc(n, sizeof *res);
	if (!img || !res)
		return 1;
	for (size_t i = 0; i < n; i++) { /* pixels in [-128, 127], as dwt2d's */
		unsigned h = (unsigned)i * 2654435761u;
		h ^= h >> 15;
		h *= 0x2c1b3c6du;
		h ^= h >> 12;
		img[i] = (int)(h >> 24) - 128;
	}
	cl_mem in = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof *img,
	                           img, &err);
	CHECK(err);
	cl_mem out = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof *res,
	                            res, &err);
	CHECK(err);
	size_t gx = (size_t)(sx + WIN_X - 1) / WIN_X, gy = (size_t)(sy + WIN_Y * steps - 1) / (WIN_Y * steps);
	size_t global[2] = { gx * WIN_X, gy }, local[2] = { WIN_X, 1 };
	CHECK(clSetKernelArg(k, 0, sizeof in, &in));
	CHECK(clSetKernelArg(k, 1, sizeof out, &out));
	CHECK(clSetKernelArg(k, 2, sizeof sx, &sx));
	CHECK(clSetKernelArg(k, 3, sizeof sy, &sy));
	CHECK(clSetKernelArg(k, 4, sizeof steps, &steps));
	CHECK(clEnqueueNDRangeKernel(c.q, k, 2, NULL, global, local, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(c.q, out, CL_TRUE, 0, n * sizeof *res, res, 0, NULL, NULL));
	FILE *f = fopen(argv[1], "wb");
	if (!f || fwrite(res, sizeof *res, n, f) != n || fclose(f))
		return 1;
	free(img);
	free(res);
	CHECK(clReleaseMemObject(in));
	CHECK(clReleaseMemObject(out));
	CHECK(clReleaseKernel(k));
	rt_teardown(&c);
	return 0;
}
