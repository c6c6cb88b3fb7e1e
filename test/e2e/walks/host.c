/* SPDX-License-Identifier: MIT */
/*
 * walks - one of walks.cl's kernels on data of a few MB, written as a
 * program that does not know vastcc: one buffer per array, blocking reads.
 * Sizes are chosen so that one work-group's 4 KiB pages exceed a tenth of
 * the data while its bytes fit (issue 9: gemm's B alone is over half of a
 * quarter budget). The output buffer, whose initial bytes are not all
 * overwritten by transpose's guard-free tail, starts from a pattern so a
 * page filled wrongly shows.
 * usage: walks CASE OUT   (CASE: gemm atx colsum transpose tposeodd stencil
 *                        clampfar minfar maxfar minstore bumpsum twopitch
 *                        colbump leftcols)
 * bumpsum: bump adds 1 to the first 16 rows of colsum's matrix, then
 * colsum sums it: a program whose second kernel reads what its first
 * wrote (and may have left on the device).
 * WALKS_REPEAT=N launches the kernel N times (default 1), the same bytes
 * each time: later launches may reuse the first one's plan.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(x)                                                              \
	do {                                                                  \
		cl_int e_ = (x);                                              \
		if (e_ != CL_SUCCESS) {                                       \
			fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, e_); \
			exit(1);                                              \
		}                                                             \
	} while (0)

typedef struct {
	const char *name;
	size_t in[2], out;   /* elements of 4 bytes; in[1] 0: one input */
	int scalars[3];      /* int arguments after the buffers */
	unsigned nscalars;
	size_t gws[2], lws[2];
	const char *kernel; /* NULL: name */
	int bump;           /* > 0: bump these elements of in[0] first */
	int rw;             /* the kernel writes in[0] too */
} walk;

/* gemm: A 64 x 256, B 256 x 1024 (1 MiB of 1.3), C 64 x 1024.
 * atx: A 512 x 1024, x 512. colsum: 512 x 1000 ints (rows of 4000 bytes).
 * transpose: 1000 x 640 (rows of out 2560 bytes apart). stencil: 1024 x 600.
 * clampfar, minfar, maxfar, minstore: in 512 x 1024, out 512 x 2048. */
static const walk walks[] = {
	{ "gemm", { 64 * 256, 256 * 1024 }, 64 * 1024, { 64, 256, 1024 }, 3, { 1024, 64 }, { 16, 16 } },
	{ "atx", { 512 * 1024, 512 }, 1024, { 512, 1024 }, 2, { 1024, 1 }, { 64, 1 } },
	{ "colsum", { 512 * 1000, 0 }, 1000, { 512, 1000 }, 2, { 1024, 1 }, { 64, 1 } },
	{ "transpose", { 1000 * 640, 0 }, 640 * 1000, { 1000, 640 }, 2, { 1008, 640 }, { 16, 16 } },
	{ "tposeodd", { 1000 * 640, 0 }, 640 * 1000, { 1000, 640 }, 2, { 1008, 640 }, { 16, 16 } },
	{ "stencil", { 1024 * 600, 0 }, 1024 * 600, { 1024, 600 }, 2, { 1024, 600 }, { 16, 8 } },
	{ "clampfar", { 512 * 1024, 0 }, 512 * 2048, { 1024 }, 1, { 2048, 512 }, { 64, 1 } },
	{ "minfar", { 512 * 1024, 0 }, 512 * 2048, { 1024 }, 1, { 2048, 512 }, { 64, 1 } },
	{ "maxfar", { 512 * 1024, 0 }, 512 * 2048, { 1024 }, 1, { 2048, 512 }, { 64, 1 } },
	{ "minstore", { 512 * 1024, 0 }, 512 * 2048, { 1024 }, 1, { 1024, 512 }, { 64, 1 } },
	{ "bumpsum", { 512 * 1000, 0 }, 1000, { 512, 1000 }, 2, { 1024, 1 }, { 64, 1 }, "colsum",
	  16 * 1000 },
	{ "twopitch", { 512 * 1000, 0 }, 1000, { 512, 1000 }, 2, { 1024, 1 }, { 64, 1 } },
	{ "colbump", { 512 * 1000, 0 }, 1000, { 512, 1000 }, 2, { 1024, 1 }, { 64, 1 }, NULL, 0, 1 },
	{ "leftcols", { 512 * 1000, 0 }, 1000, { 512, 1000 }, 2, { 1024, 1 }, { 64, 1 } },
};

static cl_mem buffer(cl_context ctx, cl_mem_flags fl, size_t n, unsigned seed)
{
	unsigned *v = malloc(n * 4);
	cl_int err;
	if (!v)
		exit(1);
	/* Small integers as floats: sums are exact in any order, so the
	 * native run is reproducible and the comparison is of bytes. */
	for (size_t i = 0; i < n; i++) {
		float f = (float)((i * 2654435761u + seed) % 17) - 8.0f;
		memcpy(&v[i], &f, 4);
	}
	cl_mem m = clCreateBuffer(ctx, fl | CL_MEM_COPY_HOST_PTR, n * 4, v, &err);
	CHECK(err);
	free(v);
	return m;
}

int main(int argc, char **argv)
{
	const walk *w = NULL;
	for (size_t i = 0; argc == 3 && i < sizeof walks / sizeof walks[0]; i++)
		if (!strcmp(argv[1], walks[i].name))
			w = &walks[i];
	if (!w) {
		fprintf(stderr, "usage: walks gemm|atx|colsum|transpose|tposeodd|stencil|clampfar|minfar|\n"
		                "maxfar|minstore|bumpsum|twopitch|colbump|leftcols OUT\n");
		return 2;
	}
	cl_platform_id plat;
	cl_device_id dev;
	cl_int err;
	CHECK(clGetPlatformIDs(1, &plat, NULL));
	CHECK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
	cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	CHECK(err);
	cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
	CHECK(err);

	FILE *f = fopen("walks.cl", "r");
	if (!f)
		return 1;
	static char src[16384];
	size_t len = fread(src, 1, sizeof src - 1, f);
	fclose(f);
	const char *srcp = src;
	cl_program prog = clCreateProgramWithSource(ctx, 1, &srcp, &len, &err);
	CHECK(err);
	CHECK(clBuildProgram(prog, 0, NULL, NULL, NULL, NULL));
	cl_kernel k = clCreateKernel(prog, w->kernel ? w->kernel : w->name, &err);
	CHECK(err);

	cl_uint a = 0;
	cl_mem in0 = buffer(ctx, w->bump || w->rw ? CL_MEM_READ_WRITE : CL_MEM_READ_ONLY, w->in[0], 1),
	       in1 = NULL;
	if (w->bump) {
		cl_kernel b = clCreateKernel(prog, "bump", &err);
		CHECK(err);
		size_t n = (size_t)w->bump, lws = 64;
		CHECK(clSetKernelArg(b, 0, sizeof in0, &in0));
		CHECK(clEnqueueNDRangeKernel(q, b, 1, NULL, &n, &lws, 0, NULL, NULL));
		clReleaseKernel(b);
	}
	CHECK(clSetKernelArg(k, a++, sizeof in0, &in0));
	if (w->in[1]) {
		in1 = buffer(ctx, CL_MEM_READ_ONLY, w->in[1], 2);
		CHECK(clSetKernelArg(k, a++, sizeof in1, &in1));
	}
	cl_mem out = buffer(ctx, CL_MEM_WRITE_ONLY, w->out, 3);
	CHECK(clSetKernelArg(k, a++, sizeof out, &out));
	for (unsigned i = 0; i < w->nscalars; i++)
		CHECK(clSetKernelArg(k, a++, sizeof(int), &w->scalars[i]));
	const char *rp = getenv("WALKS_REPEAT");
	for (int r = rp ? atoi(rp) : 1; r > 0; r--)
		CHECK(clEnqueueNDRangeKernel(q, k, 2, NULL, w->gws, w->lws, 0, NULL, NULL));
	float *res = malloc(w->out * 4);
	if (!res)
		return 1;
	CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, w->out * 4, res, 0, NULL, NULL));

	FILE *o = fopen(argv[2], "wb");
	if (!o || fwrite(res, 4, w->out, o) != w->out || fclose(o))
		return 1;
	clReleaseMemObject(in0);
	if (in1)
		clReleaseMemObject(in1);
	clReleaseMemObject(out);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	free(res);
	return 0;
}
