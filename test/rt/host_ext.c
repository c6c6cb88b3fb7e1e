/* SPDX-License-Identifier: MIT */
/*
 * host_ext.c - functions found by name (clGetExtensionFunctionAddress and
 * ...ForPlatform), called with the program's own objects.
 *
 * Writes to argv[1] what must be the same with the runtime as without:
 * the driver's extension functions that take none of its objects
 * (clIcdGetPlatformIDsKHR, clCreateProgramWithILKHR, the loader's
 * clGetICDLoaderInfoOCLICD), and names nobody has. Prints to stdout what may differ, for ext.sh to judge: the core
 * functions asked for by name, a vendor extension the runtime does not
 * know (clSetContentSizeBufferPoCL), and a cl_khr_command_buffer copy
 * between two buffers, which must either copy or fail, never succeed
 * without copying.
 * Usage: host_ext OUT vadd.cl
 */
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS /* clGetExtensionFunctionAddress */
#include "rt_host.h"

#include <CL/cl_ext.h>

static FILE *out;

static void *by_name(rt_cl *c, const char *name)
{
	return clGetExtensionFunctionAddressForPlatform(c->plat, name);
}

/* Same with and without the runtime. */
static void compared(rt_cl *c)
{
	/* The loader's and the driver's platform queries. */
	clIcdGetPlatformIDsKHR_fn icd = (clIcdGetPlatformIDsKHR_fn)by_name(c, "clIcdGetPlatformIDsKHR");
	cl_uint np = 0;
	if (icd)
		fprintf(out, "clIcdGetPlatformIDsKHR: %d, %u platforms\n", icd(0, NULL, &np), np);
	else
		fprintf(out, "clIcdGetPlatformIDsKHR: none\n");
	typedef cl_int (CL_API_CALL *loader_info_fn)(cl_uint, size_t, void *, size_t *);
	loader_info_fn li = (loader_info_fn)clGetExtensionFunctionAddress("clGetICDLoaderInfoOCLICD");
	char name[256] = "";
	if (li)
		fprintf(out, "clGetICDLoaderInfoOCLICD: %d '%s'\n",
		        li(3 /* CL_ICDL_NAME */, sizeof name, name, NULL), name);
	else
		fprintf(out, "clGetICDLoaderInfoOCLICD: none\n");

	/* A program from intermediate code (here not any: the driver's
	 * error), in the driver's context. */
	typedef cl_program (CL_API_CALL *il_fn)(cl_context, const void *, size_t, cl_int *);
	il_fn il = (il_fn)by_name(c, "clCreateProgramWithILKHR");
	static const unsigned junk[4] = {1, 2, 3, 4};
	cl_int err = 1;
	if (il) {
		cl_program p = il(c->ctx, junk, sizeof junk, &err);
		fprintf(out, "clCreateProgramWithILKHR: %s, %d\n", p ? "made" : "none", err);
		if (p)
			CHECK(clReleaseProgram(p));
	} else {
		fprintf(out, "clCreateProgramWithILKHR: none\n");
	}
	/* The loader dispatches it through the kernel (dispatch.def); PoCL
	 * has none to call. */
	fprintf(out, "clGetKernelSubGroupInfoKHR: %s\n",
	        by_name(c, "clGetKernelSubGroupInfoKHR") ? "found" : "none");

	/* Core names, by platform: the runtime hands out none the platform
	 * does not (a program probes clCreateCommandQueueWithProperties to
	 * tell OpenCL 2.0 from 1.2), however it classes the name
	 * (clCreateFromGLTexture2D is core, though it ends in a capital). */
	static const char *const core[] = {"clCreateBuffer", "clCreateCommandQueueWithProperties",
	                                   "clGetPlatformInfo", "clCreateFromGLTexture2D"};
	for (size_t i = 0; i < sizeof core / sizeof *core; i++)
		fprintf(out, "%s for the platform: %s\n", core[i],
		        by_name(c, core[i]) ? "found" : "none");

	/* The driver has none of these. */
	static const char *const absent[] = {"clNoSuchFunctionVAST", "clCreateCommandQueueWithPropertiesKHR"};
	for (size_t i = 0; i < sizeof absent / sizeof *absent; i++)
		fprintf(out, "%s: %s\n", absent[i], by_name(c, absent[i]) ? "found" : "none");
}

/* Core functions by name: the one a direct call reaches, or none where
 * the loader has none (ext.sh compares with the plain run). */
static void core(rt_cl *c)
{
	static const struct {
		const char *name;
		void *direct;
	} fns[] = {
		{"clCreateBuffer", (void *)clCreateBuffer},         /* the runtime defines it */
		{"clEnqueueReadImage", (void *)clEnqueueReadImage}, /* passes it on */
		{"clGetPlatformInfo", (void *)clGetPlatformInfo},   /* the loader's */
	};
	for (size_t i = 0; i < sizeof fns / sizeof *fns; i++) {
		void *f = clGetExtensionFunctionAddress(fns[i].name);
		printf("%s by name: %s\n", fns[i].name,
		       !f ? "none" : f == fns[i].direct ? "direct" : "other");
	}
	/* A buffer made through the name works as one made directly. */
	typedef cl_mem (CL_API_CALL *create_fn)(cl_context, cl_mem_flags, size_t, void *, cl_int *);
	create_fn create = (create_fn)clGetExtensionFunctionAddress("clCreateBuffer");
	if (create) {
		cl_int err, x = 42, y = 0;
		cl_mem m = create(c->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof x, &x, &err);
		CHECK(err);
		CHECK(clEnqueueReadBuffer(c->q, m, CL_TRUE, 0, sizeof y, &y, 0, NULL, NULL));
		CHECK(clReleaseMemObject(m));
		printf("clCreateBuffer by name: holds %d\n", y);
	}
	printf("clSetContentSizeBufferPoCL: %s\n",
	       by_name(c, "clSetContentSizeBufferPoCL") ? "found" : "none");
}

/* A copy of a to b recorded in a command buffer and run (OpenCL
 * extension cl_khr_command_buffer). */
static void command_buffer(rt_cl *c, cl_mem a, cl_mem b, const int *want, size_t bytes)
{
	clCreateCommandBufferKHR_fn create =
		(clCreateCommandBufferKHR_fn)by_name(c, "clCreateCommandBufferKHR");
	clCommandCopyBufferKHR_fn copy = (clCommandCopyBufferKHR_fn)by_name(c, "clCommandCopyBufferKHR");
	clFinalizeCommandBufferKHR_fn finalize =
		(clFinalizeCommandBufferKHR_fn)by_name(c, "clFinalizeCommandBufferKHR");
	clEnqueueCommandBufferKHR_fn enqueue =
		(clEnqueueCommandBufferKHR_fn)by_name(c, "clEnqueueCommandBufferKHR");
	clReleaseCommandBufferKHR_fn release =
		(clReleaseCommandBufferKHR_fn)by_name(c, "clReleaseCommandBufferKHR");
	if (!create || !copy || !finalize || !enqueue || !release) {
		printf("command buffer: none\n");
		return;
	}
	cl_int err = 1;
	cl_command_buffer_khr cb = create(1, &c->q, NULL, &err);
	if (!cb) {
		printf("command buffer: create %d\n", err);
		/* The copy is refused too, every time. */
		for (int i = 0; i < 2; i++)
			printf("command buffer: copy %d\n",
			       copy(NULL, NULL, a, b, 0, 0, bytes, 0, NULL, NULL, NULL));
		return;
	}
	cl_int e[3];
	e[0] = copy(cb, NULL, a, b, 0, 0, bytes, 0, NULL, NULL, NULL);
	e[1] = finalize(cb);
	e[2] = enqueue(0, NULL, cb, 0, NULL, NULL);
	CHECK(clFinish(c->q));
	CHECK(release(cb));
	int *got = calloc(1, bytes);
	if (!got)
		exit(1);
	CHECK(clEnqueueReadBuffer(c->q, b, CL_TRUE, 0, bytes, got, 0, NULL, NULL));
	int same = !memcmp(got, want, bytes);
	free(got);
	if (e[0] == CL_SUCCESS && e[1] == CL_SUCCESS && e[2] == CL_SUCCESS)
		printf("command buffer: %s\n", same ? "copied" : "succeeded without copying");
	else
		printf("command buffer: copy %d, finalize %d, enqueue %d\n", e[0], e[1], e[2]);
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	rt_cl c;
	rt_setup(&c, argv[2], "-D UNUSED=1");
	out = fopen(argv[1], "w");
	if (!out)
		return 1;
	cl_int err;
	enum { N = 1024 };
	int ha[N];
	for (int i = 0; i < N; i++)
		ha[i] = i * 7 + 1;
	cl_mem a = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof ha, ha, &err);
	CHECK(err);
	cl_mem b = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE, sizeof ha, NULL, &err);
	CHECK(err);
	compared(&c);
	core(&c);
	command_buffer(&c, a, b, ha, sizeof ha);
	CHECK(clReleaseMemObject(a));
	CHECK(clReleaseMemObject(b));
	rt_teardown(&c);
	return fclose(out) != 0;
}
