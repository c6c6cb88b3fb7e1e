/* SPDX-License-Identifier: MIT */
/*
 * test_rt_analysis.c - vastcc's analysis in the background (analysis.c,
 * program.c): several threads wait for one program's analysis at once,
 * as launches from several host threads do. The first to return takes
 * it into the program and drops the program's reference; the others
 * must still hold theirs (under ASan, a waiter without one reads freed
 * memory). The analysis really runs: a compiler that fails
 * (VAST_COMPILER=/bin/false), so each one forks and waits a little.
 * Needs an OpenCL device (PoCL); none is a skip (77).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vrt.h"

#include "check.h"

enum { WAITERS = 4, ROUNDS = 40 };

static pthread_barrier_t start;

static void *waiter(void *arg)
{
	vrt_program *p = arg;
	pthread_barrier_wait(&start);
	vrt_program_analysis_wait(p);
	return NULL;
}

static void waiters_on_one_analysis(cl_context ctx, cl_device_id dev)
{
	const char *src = "__kernel void k(__global int *a) { a[get_global_id(0)] = 1; }";
	for (int round = 0; round < ROUNDS; round++) {
		cl_int err;
		cl_program prog = vrt_api_clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
		CHECK(prog && err == CL_SUCCESS);
		if (!prog)
			return;
		CHECK(vrt_api_clBuildProgram(prog, 1, &dev, "", NULL, NULL) == CL_SUCCESS);
		vrt_program *p = vrt_program_of(prog);
		vrt_lock();
		int started = p->analysis != NULL;
		vrt_unlock();
		CHECK(started);
		pthread_t t[WAITERS];
		pthread_barrier_init(&start, NULL, WAITERS);
		for (int i = 0; i < WAITERS; i++)
			CHECK(pthread_create(&t[i], NULL, waiter, p) == 0);
		for (int i = 0; i < WAITERS; i++)
			pthread_join(t[i], NULL);
		pthread_barrier_destroy(&start);
		/* Taken in once: the compiler failed, so the program is native. */
		vrt_lock();
		CHECK(p->analysis == NULL);
		CHECK(p->info == NULL);
		vrt_unlock();
		CHECK(vrt_api_clReleaseProgram(prog) == CL_SUCCESS);
	}
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	char dir[256];
	snprintf(dir, sizeof dir, "%s/vast-analysis-test-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	/* Before the runtime reads its settings: nothing cached, the
	 * compiler's private directories in ours. */
	setenv("VAST_COMPILER", "/bin/false", 1);
	setenv("VAST_CACHE", "0", 1);
	setenv("VAST_CACHE_DIR", dir, 1);
	setenv("TMPDIR", dir, 1);
	unsetenv("VAST_MODE");
	unsetenv("VAST_JIT");
	cl_platform_id plat;
	cl_device_id dev;
	cl_int err;
	if (clGetPlatformIDs(1, &plat, NULL) != CL_SUCCESS ||
	    clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) {
		fprintf(stderr, "no OpenCL device: skipped\n");
		rmdir(dir);
		return 77;
	}
	cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	CHECK(ctx && err == CL_SUCCESS);
	if (ctx) {
		waiters_on_one_analysis(ctx, dev);
		clReleaseContext(ctx);
	}
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd))
		failures++;
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures != 0;
}
