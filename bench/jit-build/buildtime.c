/* SPDX-License-Identifier: MIT */
/*
 * buildtime - how long clBuildProgram takes on one kernel file.
 *
 *   usage: buildtime [-n N] KERNEL.cl [OPTIONS]
 *
 * Creates a context on the first GPU of any platform (else the first
 * device of any platform), then N times (default 5): a fresh program
 * object from the file's exact bytes, clBuildProgram with OPTIONS timed
 * with clock_gettime(CLOCK_MONOTONIC), the program released. Prints
 *   device=NAME
 *   build_s=T        (one line per build, in order)
 *   median_s=T
 * Plain OpenCL host code: built with cc it measures the driver, built with
 * vastcc it measures what the runtime adds (compile at clBuildProgram, or
 * a cache hit). bench/jit-build/run.sh runs it.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;
	if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, f) == (size_t)n) {
		*len = (size_t)n;
	} else {
		free(buf);
		buf = NULL;
	}
	if (f)
		fclose(f);
	return buf;
}

/* The first GPU of any platform, else the first device of any platform. */
static int pick_device(cl_device_id *dev)
{
	cl_platform_id plats[16];
	cl_uint np = 0;
	if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS || np == 0)
		return 0;
	if (np > 16)
		np = 16;
	for (cl_uint i = 0; i < np; i++)
		if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_GPU, 1, dev, NULL) == CL_SUCCESS)
			return 1;
	for (cl_uint i = 0; i < np; i++)
		if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 1, dev, NULL) == CL_SUCCESS)
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	int opt, n = 5;
	while ((opt = getopt(argc, argv, "+n:")) != -1) {
		if (opt != 'n' || (n = atoi(optarg)) < 1) {
			fprintf(stderr, "usage: %s [-n N] KERNEL.cl [OPTIONS]\n", argv[0]);
			return 2;
		}
	}
	if (optind >= argc || argc - optind > 2) {
		fprintf(stderr, "usage: %s [-n N] KERNEL.cl [OPTIONS]\n", argv[0]);
		return 2;
	}
	const char *path = argv[optind], *options = optind + 1 < argc ? argv[optind + 1] : "";
	size_t len;
	char *src = read_file(path, &len);
	if (!src) {
		perror(path);
		return 1;
	}

	cl_device_id dev;
	cl_int err;
	if (!pick_device(&dev)) {
		fprintf(stderr, "buildtime: no OpenCL device\n");
		return 1;
	}
	char name[256] = "";
	clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
	cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	if (!ctx) {
		fprintf(stderr, "buildtime: clCreateContext failed: %d\n", err);
		return 1;
	}
	printf("device=%s\n", name);

	double *t = malloc((size_t)n * sizeof *t);
	int rc = 0;
	for (int i = 0; i < n && !rc; i++) {
		const char *s = src;
		cl_program prog = clCreateProgramWithSource(ctx, 1, &s, &len, &err);
		if (!prog) {
			fprintf(stderr, "buildtime: clCreateProgramWithSource failed: %d\n", err);
			rc = 1;
			break;
		}
		double t0 = now();
		err = clBuildProgram(prog, 1, &dev, options, NULL, NULL);
		t[i] = now() - t0;
		if (err != CL_SUCCESS) {
			char log[16384] = "";
			clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
			fprintf(stderr, "buildtime: clBuildProgram failed: %d\n%s\n", err, log);
			rc = 1;
		} else {
			printf("build_s=%.6f\n", t[i]);
		}
		clReleaseProgram(prog);
	}
	if (!rc) {
		qsort(t, (size_t)n, sizeof *t, cmp_double);
		printf("median_s=%.6f\n", n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2);
	}
	free(t);
	free(src);
	clReleaseContext(ctx);
	return rc;
}
