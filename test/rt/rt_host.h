/* SPDX-License-Identifier: MIT */
/*
 * rt_host.h - the boilerplate of the test host programs: plain OpenCL 1.2
 * host code, as a user would write it (they know nothing of vastcc).
 */
#ifndef RT_HOST_H
#define RT_HOST_H
#ifndef CL_TARGET_OPENCL_VERSION /* host_cl12.c asks for 2.0 */
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(x)                                                                 \
	do {                                                                     \
		cl_int e_ = (x);                                                 \
		if (e_ != CL_SUCCESS) {                                          \
			fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, e_); \
			exit(1);                                                 \
		}                                                                \
	} while (0)

static char *rt_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	if (!s || fread(s, 1, (size_t)n, f) != (size_t)n)
		exit(1);
	s[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return s;
}

typedef struct rt_cl {
	cl_platform_id plat;
	cl_device_id dev;
	cl_context ctx;
	cl_command_queue q;
	cl_program prog;
} rt_cl;

static void rt_setup(rt_cl *c, const char *path, const char *opts)
{
	cl_int err;
	CHECK(clGetPlatformIDs(1, &c->plat, NULL));
	CHECK(clGetDeviceIDs(c->plat, CL_DEVICE_TYPE_ALL, 1, &c->dev, NULL));
	c->ctx = clCreateContext(NULL, 1, &c->dev, NULL, NULL, &err);
	CHECK(err);
	c->q = clCreateCommandQueue(c->ctx, c->dev, 0, &err);
	CHECK(err);
	size_t len;
	char *src = rt_read_file(path, &len);
	const char *s = src;
	c->prog = clCreateProgramWithSource(c->ctx, 1, &s, &len, &err);
	CHECK(err);
	free(src);
	err = clBuildProgram(c->prog, 1, &c->dev, opts, NULL, NULL);
	if (err != CL_SUCCESS) {
		char log[16384] = "";
		clGetProgramBuildInfo(c->prog, c->dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
		fprintf(stderr, "build failed: %d\n%s\n", err, log);
		exit(1);
	}
}

static void rt_teardown(rt_cl *c)
{
	CHECK(clReleaseProgram(c->prog));
	CHECK(clReleaseCommandQueue(c->q));
	CHECK(clReleaseContext(c->ctx));
}

static inline void rt_write(FILE *f, const void *p, size_t n)
{
	if (fwrite(p, 1, n, f) != n) {
		perror("write");
		exit(1);
	}
}
#endif
