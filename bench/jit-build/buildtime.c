/* SPDX-License-Identifier: MIT */
/*
 * buildtime - how long clBuildProgram takes on one kernel file.
 *
 *   usage: buildtime [-n N] [-k NAME] KERNEL.cl [OPTIONS]
 *          buildtime -l LIST
 *
 * Creates a context on the first GPU of any platform (else the first
 * device of any platform), then N times (default 5): a fresh program
 * object from the file's exact bytes, clBuildProgram with OPTIONS timed
 * with clock_gettime(CLOCK_MONOTONIC), the program released. Prints
 *   device=NAME
 *   build_s=T        (one line per build, in order)
 *   median_s=T
 * With -k NAME, each build is followed by a first launch of kernel NAME,
 * and first_s=T (build, kernel and launch to its end) is printed beside
 * build_s, median_s the median of those: its arguments are made from
 * clGetKernelArgInfo (a 4 MiB zeroed buffer for each __global or
 * __constant pointer, 1 KiB of __local, 64 for an integer scalar, 1.0 for
 * a floating one; the build gets -cl-kernel-arg-info), its geometry 4 work-groups a used dimension of its
 * reqd_work_group_size, else 1024 work-items.
 * With -l LIST, a program's start instead: LIST has one kernel file a
 * line, "PATH [OPTIONS]"; each is read, made a program of its own
 * (clCreateProgramWithSource), built (clBuildProgram with OPTIONS and
 * -cl-kernel-arg-info), and the first kernel it names launched once as
 * -k does, one program after the other in one process, as an
 * application that builds its kernel files at its start. Prints
 *   programs=N  build_s=T (the builds' sum)  launch_s=T (the launches')
 *   total_s=T   (from the first read to the last launch's end)
 * and exits 1 when any build or launch fails, naming it.
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

/* Sets every argument of k (see the header); 0, or -1 saying why. */
static int set_args(cl_context ctx, cl_kernel k, cl_mem *bufs, cl_uint *nbufs)
{
	static char zeros[4 << 20];
	cl_uint n = 0;
	cl_int err;
	*nbufs = 0;
	if (clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof n, &n, NULL) != CL_SUCCESS)
		return -1;
	for (cl_uint i = 0; i < n; i++) {
		cl_kernel_arg_address_qualifier aq;
		char type[256] = "";
		if (clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL) ||
		    clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL)) {
			fprintf(stderr, "buildtime: no argument info for argument %u\n", i);
			return -1;
		}
		if (aq == CL_KERNEL_ARG_ADDRESS_GLOBAL || aq == CL_KERNEL_ARG_ADDRESS_CONSTANT) {
			cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
			                          sizeof zeros, zeros, &err);
			if (!m)
				return -1;
			bufs[(*nbufs)++] = m;
			err = clSetKernelArg(k, i, sizeof m, &m);
		} else if (aq == CL_KERNEL_ARG_ADDRESS_LOCAL) {
			err = clSetKernelArg(k, i, 1024, NULL);
		} else if (strstr(type, "double")) {
			double v = 1.0;
			err = clSetKernelArg(k, i, sizeof v, &v);
		} else if (strstr(type, "float")) {
			float v = 1.0f;
			err = clSetKernelArg(k, i, sizeof v, &v);
		} else if (strstr(type, "long") || strstr(type, "size_t")) {
			cl_long v = 64;
			err = clSetKernelArg(k, i, sizeof v, &v);
		} else if (strstr(type, "short")) {
			cl_short v = 64;
			err = clSetKernelArg(k, i, sizeof v, &v);
		} else if (strstr(type, "char")) {
			cl_char v = 64;
			err = clSetKernelArg(k, i, sizeof v, &v);
		} else {
			cl_int v = 64;
			err = clSetKernelArg(k, i, sizeof v, &v);
		}
		if (err != CL_SUCCESS || *nbufs >= 64) {
			fprintf(stderr, "buildtime: argument %u (%s): %d\n", i, type, err);
			return -1;
		}
	}
	return 0;
}

/* Creates kernel `name` of prog and runs it once to its end; 0 or -1. */
static int first_launch(cl_context ctx, cl_device_id dev, cl_program prog, const char *name)
{
	cl_int err;
	cl_mem bufs[64];
	cl_uint nbufs = 0;
	int rc = -1;
	cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
	cl_kernel k = q ? clCreateKernel(prog, name, &err) : NULL;
	if (!k) {
		fprintf(stderr, "buildtime: kernel '%s': %d\n", name, err);
		goto out;
	}
	if (set_args(ctx, k, bufs, &nbufs))
		goto out;
	size_t reqd[3] = { 0, 0, 0 }, g[3] = { 1024, 1, 1 };
	clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof reqd, reqd, NULL);
	cl_uint dim = reqd[0] ? (reqd[2] > 1 ? 3 : reqd[1] > 1 ? 2 : 1) : 1;
	for (cl_uint d = 0; reqd[0] && d < 3; d++)
		g[d] = 4 * reqd[d];
	if ((err = clEnqueueNDRangeKernel(q, k, dim, NULL, g, reqd[0] ? reqd : NULL, 0, NULL,
	                                  NULL)) != CL_SUCCESS ||
	    (err = clFinish(q)) != CL_SUCCESS) {
		fprintf(stderr, "buildtime: launch of '%s': %d\n", name, err);
		goto out;
	}
	rc = 0;
out:
	while (nbufs)
		clReleaseMemObject(bufs[--nbufs]);
	if (k)
		clReleaseKernel(k);
	if (q)
		clReleaseCommandQueue(q);
	return rc;
}

/* -l LIST: every program of LIST built and its first kernel launched
 * once, in one process (see the header); 0 or 1. */
static int run_list(cl_context ctx, cl_device_id dev, const char *list)
{
	FILE *f = fopen(list, "r");
	if (!f) {
		perror(list);
		return 1;
	}
	char line[4096];
	double build = 0, launch = 0, t0 = now();
	int programs = 0, rc = 0;
	while (!rc && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		char *path = line + strspn(line, " \t");
		if (!*path || *path == '#')
			continue;
		char *opts = path + strcspn(path, " \t");
		if (*opts)
			*opts++ = '\0';
		char options[4200];
		snprintf(options, sizeof options, "%s -cl-kernel-arg-info", opts);
		size_t len;
		char *src = read_file(path, &len);
		if (!src) {
			perror(path);
			rc = 1;
			break;
		}
		cl_int err;
		const char *s = src;
		double b0 = now();
		cl_program prog = clCreateProgramWithSource(ctx, 1, &s, &len, &err);
		if (!prog || (err = clBuildProgram(prog, 1, &dev, options, NULL, NULL)) != CL_SUCCESS) {
			fprintf(stderr, "buildtime: %s: build failed: %d\n", path, err);
			rc = 1;
		}
		double b1 = now();
		char names[4096] = "";
		if (!rc && clGetProgramInfo(prog, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL) !=
		               CL_SUCCESS)
			names[0] = '\0';
		names[strcspn(names, ";")] = '\0';
		if (!rc && (!*names || first_launch(ctx, dev, prog, names))) {
			fprintf(stderr, "buildtime: %s: no kernel, or its launch failed\n", path);
			rc = 1;
		}
		build += b1 - b0;
		launch += now() - b1;
		programs++;
		if (prog)
			clReleaseProgram(prog);
		free(src);
	}
	fclose(f);
	if (!rc)
		printf("programs=%d\nbuild_s=%.6f\nlaunch_s=%.6f\ntotal_s=%.6f\n", programs, build,
		       launch, now() - t0);
	return rc;
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
	const char *kname = NULL, *list = NULL;
	while ((opt = getopt(argc, argv, "+n:k:l:")) != -1) {
		if (opt == 'k') {
			kname = optarg;
		} else if (opt == 'l') {
			list = optarg;
		} else if (opt != 'n' || (n = atoi(optarg)) < 1) {
			fprintf(stderr, "usage: %s [-n N] [-k NAME] KERNEL.cl [OPTIONS]\n", argv[0]);
			return 2;
		}
	}
	if (list ? optind != argc : optind >= argc || argc - optind > 2) {
		fprintf(stderr, "usage: %s [-n N] [-k NAME] KERNEL.cl [OPTIONS]\n"
		        "       %s -l LIST\n", argv[0], argv[0]);
		return 2;
	}
	if (list) {
		cl_device_id dev;
		cl_int err;
		if (!pick_device(&dev)) {
			fprintf(stderr, "buildtime: no OpenCL device\n");
			return 1;
		}
		cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
		if (!ctx) {
			fprintf(stderr, "buildtime: clCreateContext failed: %d\n", err);
			return 1;
		}
		int rc = run_list(ctx, dev, list);
		clReleaseContext(ctx);
		return rc;
	}
	const char *path = argv[optind], *options = optind + 1 < argc ? argv[optind + 1] : "";
	/* set_args reads the arguments' types, which a driver may keep only
	 * when asked (PoCL does); the same for both builds. */
	char *with_info = malloc(strlen(options) + 32);
	if (!with_info)
		return 1;
	sprintf(with_info, "%s%s", options, kname ? " -cl-kernel-arg-info" : "");
	options = with_info;
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
			if (kname && first_launch(ctx, dev, prog, kname))
				rc = 1;
			else if (kname)
				printf("first_s=%.6f\n", t[i] = now() - t0);
		}
		clReleaseProgram(prog);
	}
	if (!rc) {
		qsort(t, (size_t)n, sizeof *t, cmp_double);
		printf("median_s=%.6f\n", n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2);
	}
	free(t);
	free(src);
	free(with_info);
	clReleaseContext(ctx);
	return rc;
}
