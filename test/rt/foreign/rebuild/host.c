/* SPDX-License-Identifier: MIT */
/*
 * rebuild - the error paths real programs take: kernels created before
 * the program is built and after a failed build, clBuildProgram called a
 * second time with corrected options, a program retained and released
 * around its kernels, buffers retained by helper code and reference
 * counts checked, clEnqueueFillBuffer, clEnqueueTask, a rectangle read.
 * usage: rebuild OUT
 */
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 200000
#define ROWS 1000
#define COLS 160

#define DIE(what, err)                                                   \
	do {                                                             \
		fprintf(stderr, "rebuild: %s failed: %d (line %d)\n", what, \
		        (int)(err), __LINE__);                           \
		exit(1);                                                 \
	} while (0)

static int destroyed;
static void CL_CALLBACK on_destroy(cl_mem m, void *user)
{
	(void)m;
	*(int *)user += 1;
}

/* Helper code that holds on to a buffer for a while. */
static cl_mem keep(cl_mem m)
{
	cl_int err = clRetainMemObject(m);
	if (err != CL_SUCCESS)
		DIE("clRetainMemObject", err);
	return m;
}

static cl_uint refcount(cl_mem m)
{
	cl_uint rc = 0;
	cl_int err = clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof rc, &rc, NULL);
	if (err != CL_SUCCESS)
		DIE("clGetMemObjectInfo", err);
	return rc;
}

int main(int argc, char **argv)
{
	cl_int err;
	if (argc < 2) {
		fprintf(stderr, "usage: rebuild OUT\n");
		return 1;
	}
	cl_platform_id plat;
	cl_device_id dev;
	if ((err = clGetPlatformIDs(1, &plat, NULL)) != CL_SUCCESS)
		DIE("clGetPlatformIDs", err);
	if ((err = clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL)) != CL_SUCCESS)
		DIE("clGetDeviceIDs", err);
	cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	if (!ctx)
		DIE("clCreateContext", err);
	cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
	if (!q)
		DIE("clCreateCommandQueue", err);

	/* The source in two pieces, with lengths (the second NUL-terminated). */
	FILE *f = fopen("kernels.cl", "rb");
	if (!f)
		DIE("fopen kernels.cl", 0);
	fseek(f, 0, SEEK_END);
	size_t len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	char *text = malloc(len + 1);
	if (fread(text, 1, len, f) != len)
		DIE("fread", 0);
	text[len] = 0;
	fclose(f);
	size_t half = len / 2;
	const char *parts[2] = { text, text + half };
	size_t lens[2] = { half, 0 };
	cl_program prog = clCreateProgramWithSource(ctx, 2, parts, lens, &err);
	if (!prog)
		DIE("clCreateProgramWithSource", err);

	int log_results[4];
	/* Kernels before any build: CL_INVALID_PROGRAM_EXECUTABLE. */
	cl_kernel early = clCreateKernel(prog, "axpy_every_other", &err);
	log_results[0] = early == NULL && err == CL_INVALID_PROGRAM_EXECUTABLE;
	/* A first build with incomplete options fails... */
	err = clBuildProgram(prog, 1, &dev, "-DSCALE=3.0f", NULL, NULL);
	log_results[1] = err == CL_BUILD_PROGRAM_FAILURE;
	if (err == CL_BUILD_PROGRAM_FAILURE) {
		size_t n = 0;
		clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
		char *log = malloc(n + 1);
		clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, n, log, NULL);
		log[n] = 0;
		log_results[1] &= strstr(log, "OFFSET must be defined") != NULL;
		free(log);
	}
	/* ...so do kernels of it... */
	early = clCreateKernel(prog, "axpy_every_other", &err);
	log_results[2] = early == NULL && err == CL_INVALID_PROGRAM_EXECUTABLE;
	/* ...and the second build, with what the program meant, works. */
	err = clBuildProgram(prog, 1, &dev, "-DSCALE=3.0f  -D OFFSET=0.5f", NULL, NULL);
	if (err != CL_SUCCESS)
		DIE("second clBuildProgram", err);
	size_t nk = 0;
	clGetProgramInfo(prog, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL);
	log_results[3] = nk == 2;
	for (int i = 0; i < 4; i++)
		if (!log_results[i]) {
			fprintf(stderr, "rebuild: error-path check %d failed\n", i);
			return 1;
		}

	cl_kernel axpy = clCreateKernel(prog, "axpy_every_other", &err);
	if (!axpy)
		DIE("clCreateKernel axpy", err);
	/* The kernel keeps its program alive: release ours early. */
	clRetainProgram(prog);
	clReleaseProgram(prog);
	cl_kernel rows = clCreateKernel(prog, "rows_sum", &err);
	if (!rows)
		DIE("clCreateKernel rows", err);
	clReleaseProgram(prog);
	cl_program owner = NULL;
	clGetKernelInfo(rows, CL_KERNEL_PROGRAM, sizeof owner, &owner, NULL);
	if (owner != prog)
		DIE("CL_KERNEL_PROGRAM", 0);

	float *hx = malloc(N * sizeof(float));
	for (int i = 0; i < N; i++)
		hx[i] = (float)(i % 1000) * 0.001f;
	cl_mem x = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(float), hx, &err);
	cl_mem y = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 2 * N * sizeof(float), NULL, &err);
	if (!x || !y)
		DIE("clCreateBuffer", err);
	clSetMemObjectDestructorCallback(x, on_destroy, &destroyed);
	/* y = 1.25 everywhere; the kernel rewrites only the even elements. */
	cl_float pattern = 1.25f;
	if ((err = clEnqueueFillBuffer(q, y, &pattern, sizeof pattern, 0, 2 * N * sizeof(float), 0, NULL, NULL)))
		DIE("clEnqueueFillBuffer", err);
	cl_mem held = keep(x);
	cl_uint n = N;
	clSetKernelArg(axpy, 0, sizeof(cl_mem), &held);
	clSetKernelArg(axpy, 1, sizeof(cl_mem), &y);
	clSetKernelArg(axpy, 2, sizeof n, &n);
	cl_uint rc_after_args = refcount(x);
	size_t gws = N, lws = 250;
	for (int pass = 0; pass < 2; pass++)
		if ((err = clEnqueueNDRangeKernel(q, axpy, 1, NULL, &gws, &lws, 0, NULL, NULL)))
			DIE("clEnqueueNDRangeKernel axpy", err);
	clReleaseMemObject(held);
	/* Not part of the output: implementations may count commands in
	 * flight (PoCL does). */
	cl_uint rc_x = refcount(x);

	/* A matrix whose rows are the first ROWS*COLS floats of y. */
	cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, ROWS * COLS * sizeof(float), NULL, &err);
	cl_mem sums = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, ROWS * sizeof(float), NULL, &err);
	if ((err = clEnqueueCopyBuffer(q, y, m, 0, 0, ROWS * COLS * sizeof(float), 0, NULL, NULL)))
		DIE("clEnqueueCopyBuffer", err);
	cl_uint cols = COLS;
	clSetKernelArg(rows, 0, sizeof(cl_mem), &m);
	clSetKernelArg(rows, 1, sizeof(cl_mem), &sums);
	clSetKernelArg(rows, 2, sizeof cols, &cols);
	size_t nrows = ROWS;
	if ((err = clEnqueueNDRangeKernel(q, rows, 1, NULL, &nrows, NULL, 0, NULL, NULL)))
		DIE("clEnqueueNDRangeKernel rows", err);
	/* A single work-item task over the same kernel (row 0 again). */
	if ((err = clEnqueueTask(q, rows, 0, NULL, NULL)))
		DIE("clEnqueueTask", err);

	float *hy = malloc(2 * N * sizeof(float));
	float *hs = malloc(ROWS * sizeof(float));
	float block[8][4];
	if ((err = clEnqueueReadBuffer(q, y, CL_TRUE, 0, 2 * N * sizeof(float), hy, 0, NULL, NULL)) ||
	    (err = clEnqueueReadBuffer(q, sums, CL_TRUE, 0, ROWS * sizeof(float), hs, 0, NULL, NULL)))
		DIE("clEnqueueReadBuffer", err);
	/* Columns 10..13 of rows 100..107 of the matrix. */
	size_t bo[3] = { 10 * sizeof(float), 100, 0 }, ho[3] = { 0, 0, 0 };
	size_t region[3] = { 4 * sizeof(float), 8, 1 };
	if ((err = clEnqueueReadBufferRect(q, m, CL_TRUE, bo, ho, region, COLS * sizeof(float), 0,
	                                   sizeof block[0], 0, block, 0, NULL, NULL)))
		DIE("clEnqueueReadBufferRect", err);

	FILE *out = fopen(argv[1], "wb");
	int ok = out && fwrite(hy, sizeof(float), 2 * N, out) == 2 * N &&
	         fwrite(hs, sizeof(float), ROWS, out) == ROWS &&
	         fwrite(block, sizeof block, 1, out) == 1 &&
	         fwrite(&rc_after_args, sizeof rc_after_args, 1, out) == 1;
	if (out && fclose(out))
		ok = 0;
	fprintf(stderr, "rebuild: y[0]=%g y[1]=%g sum[0]=%g refcounts %u %u\n", hy[0], hy[1], hs[0],
	        rc_after_args, rc_x);

	clReleaseKernel(axpy);
	clReleaseKernel(rows);
	clReleaseMemObject(x);
	clReleaseMemObject(y);
	clReleaseMemObject(m);
	clReleaseMemObject(sums);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	if (destroyed != 1) {
		fprintf(stderr, "rebuild: destructor callback ran %d times\n", destroyed);
		ok = 0;
	}
	free(text);
	free(hx);
	free(hy);
	free(hs);
	return ok ? 0 : 1;
}
