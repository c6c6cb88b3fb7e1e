/* SPDX-License-Identifier: MIT */
/*
 * clbuild.c - builds OpenCL C files on the first available OpenCL device
 * (PoCL in CI) with clBuildProgram and prints the build log on failure.
 * The test suite runs it over every program vastcc emitted, so generated
 * code that a real OpenCL compiler rejects fails the suite.
 *
 * usage: vast-clbuild [-o "build options"] file.cl...
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	if (!s || fread(s, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(s);
		return NULL;
	}
	fclose(f);
	s[n] = '\0';
	*len = (size_t)n;
	return s;
}

int main(int argc, char **argv)
{
	const char *options = "";
	int first = 1;
	if (argc > 2 && !strcmp(argv[1], "-o")) {
		options = argv[2];
		first = 3;
	}
	cl_platform_id platform;
	cl_device_id device;
	cl_int err = clGetPlatformIDs(1, &platform, NULL);
	if (err == CL_SUCCESS)
		err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
	if (err != CL_SUCCESS) {
		fprintf(stderr, "vast-clbuild: no OpenCL device (error %d)\n", err);
		return 2;
	}
	cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
	if (err != CL_SUCCESS) {
		fprintf(stderr, "vast-clbuild: clCreateContext failed (%d)\n", err);
		return 2;
	}
	int failed = 0;
	for (int i = first; i < argc; i++) {
		size_t len;
		char *src = read_file(argv[i], &len);
		if (!src) {
			fprintf(stderr, "%s: error: cannot read\n", argv[i]);
			failed++;
			continue;
		}
		const char *srcs[] = {src};
		cl_program prog = clCreateProgramWithSource(ctx, 1, srcs, &len, &err);
		if (err == CL_SUCCESS)
			err = clBuildProgram(prog, 1, &device, options, NULL, NULL);
		if (err != CL_SUCCESS) {
			size_t n = 0;
			clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
			char *log = malloc(n + 1);
			clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
			log[n] = '\0';
			fprintf(stderr, "%s: error: clBuildProgram failed (%d)\n%s\n", argv[i], err, log);
			free(log);
			failed++;
		}
		clReleaseProgram(prog);
		free(src);
	}
	clReleaseContext(ctx);
	return failed ? 1 : 0;
}
