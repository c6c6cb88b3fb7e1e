/* SPDX-License-Identifier: MIT */
/*
 * host_builds.c - what a program may do around clBuildProgram, which the
 * driver's build does not see and vastcc's analysis (in the background)
 * must not either. Builds jit_header.cl (SCALE from scale.h in the
 * working directory), then, by MODE:
 *   plain:      nothing more;
 *   later:      rewrites scale.h (SCALE 3) once the build returned;
 *   chdir:      moves to another directory (./elsewhere, made here);
 *   both:       both;
 *   refused:    builds again while another thread makes the kernel, once
 *               WAIT-FILE exists (then DONE-FILE is made): the second
 *               build may be refused (OpenCL 1.2 §5.6.2), which is said
 *               on stderr only; without WAIT-FILE, the build then the
 *               kernel;
 *   concurrent: two threads build it at once (each result on stderr);
 * then c = a * SCALE + b over 1M floats with vadd; writes c to OUT.
 * Usage: host_builds OUT jit_header.cl MODE [WAIT-FILE DONE-FILE]
 */
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_host.h"

static rt_cl c;
static const char *wait_file, *done_file;
static cl_kernel made;

static void *make_kernel(void *arg)
{
	(void)arg;
	for (int i = 0; wait_file && access(wait_file, F_OK) != 0 && i < 60 * 100; i++)
		usleep(10 * 1000);
	cl_int err;
	made = clCreateKernel(c.prog, "vadd", &err);
	CHECK(err);
	if (done_file) {
		FILE *f = fopen(done_file, "w");
		if (f)
			fclose(f);
	}
	return NULL;
}

static void *build(void *arg)
{
	cl_int err = clBuildProgram(c.prog, 1, &c.dev, "", NULL, NULL);
	fprintf(stderr, "build %s: %d\n", (const char *)arg, err);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 4)
		return 2;
	const char *mode = argv[3];
	wait_file = argc > 4 ? argv[4] : NULL;
	done_file = argc > 5 ? argv[5] : NULL;
	cl_int err;
	if (!strcmp(mode, "concurrent")) {
		/* rt_setup less its build: two threads build at once. */
		CHECK(clGetPlatformIDs(1, &c.plat, NULL));
		CHECK(clGetDeviceIDs(c.plat, CL_DEVICE_TYPE_ALL, 1, &c.dev, NULL));
		c.ctx = clCreateContext(NULL, 1, &c.dev, NULL, NULL, &err);
		CHECK(err);
		c.q = clCreateCommandQueue(c.ctx, c.dev, 0, &err);
		CHECK(err);
		size_t len;
		char *src = rt_read_file(argv[2], &len);
		const char *s = src;
		c.prog = clCreateProgramWithSource(c.ctx, 1, &s, &len, &err);
		CHECK(err);
		free(src);
		pthread_t t1, t2;
		pthread_create(&t1, NULL, build, "1");
		pthread_create(&t2, NULL, build, "2");
		pthread_join(t1, NULL);
		pthread_join(t2, NULL);
	} else {
		rt_setup(&c, argv[2], "");
	}
	if (!strcmp(mode, "later") || !strcmp(mode, "both")) {
		FILE *h = fopen("scale.h", "w");
		if (!h || fputs("#define SCALE 3.0f\n", h) < 0 || fclose(h))
			return 1;
	}
	if (!strcmp(mode, "chdir") || !strcmp(mode, "both")) {
		if ((mkdir("elsewhere", 0700) && access("elsewhere", F_OK)) || chdir("elsewhere"))
			return 1;
	}
	if (!strcmp(mode, "refused") && !wait_file) {
		/* Nothing to wait for: one after the other (a driver may
		 * refuse a kernel of a program being built). */
		build("again");
		make_kernel(NULL);
	} else if (!strcmp(mode, "refused")) {
		pthread_t t;
		pthread_create(&t, NULL, make_kernel, NULL);
		build("again");
		pthread_join(t, NULL);
	} else {
		made = clCreateKernel(c.prog, "vadd", &err);
		CHECK(err);
	}

	cl_uint n = 1u << 20;
	size_t bytes = n * sizeof(float);
	float *ha = malloc(bytes), *hb = malloc(bytes), *hc = malloc(bytes);
	if (!ha || !hb || !hc)
		return 1;
	for (cl_uint i = 0; i < n; i++) {
		ha[i] = (float)i * 0.5f;
		hb[i] = 1.0f / (float)(i + 1);
	}
	cl_mem a = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, ha, &err);
	CHECK(err);
	cl_mem b = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, hb, &err);
	CHECK(err);
	cl_mem cc = clCreateBuffer(c.ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
	CHECK(err);
	CHECK(clSetKernelArg(made, 0, sizeof a, &a));
	CHECK(clSetKernelArg(made, 1, sizeof b, &b));
	CHECK(clSetKernelArg(made, 2, sizeof cc, &cc));
	CHECK(clSetKernelArg(made, 3, sizeof n, &n));
	size_t g = n, l = 64;
	CHECK(clEnqueueNDRangeKernel(c.q, made, 1, NULL, &g, &l, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(c.q, cc, CL_TRUE, 0, bytes, hc, 0, NULL, NULL));
	FILE *out = fopen(argv[1], "wb");
	if (!out)
		return 1;
	rt_write(out, hc, bytes);
	if (fclose(out))
		return 1;
	CHECK(clReleaseKernel(made));
	CHECK(clReleaseMemObject(a));
	CHECK(clReleaseMemObject(b));
	CHECK(clReleaseMemObject(cc));
	rt_teardown(&c);
	free(ha), free(hb), free(hc);
	return 0;
}
