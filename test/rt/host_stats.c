/* SPDX-License-Identifier: MIT */
/*
 * host_stats.c - programs for the runtime's statistics, trace and
 * progress line (stats.sh):
 *   queue N   enqueues N launches of vadd without waiting, then reads c
 *             back (a blocking read): every launch but the first waits in
 *             the queue behind the others;
 *   loop      launches vadd and waits for it, for ever, saying "ready" on
 *             stdout after the first (a run to kill);
 *   graceful  one launch, "ready", then waits in sigsuspend() (pause()
 *             without its race) until a SIGTERM or SIGINT handler of its
 *             own, installed before its first OpenCL call (so the
 *             driver's, if it installs one, passes the signal on to it),
 *             sets a flag; then reads c back and exits 0 if the handler
 *             ran on this thread, else 1. Both signals are blocked over
 *             its OpenCL calls, so that every thread started then (the
 *             driver's, the runtime's) leaves them to this one;
 *   read      the same, waiting in a blocking read() of a pipe nobody
 *             writes, its handler installed without SA_RESTART (the read
 *             fails with EINTR) once the driver is loaded but before the
 *             runtime's start: the handler the runtime finds is the
 *             program's, and it must see the kill's siginfo (SI_USER);
 *   twice     as read, waiting in sigsuspend(), but the handler also
 *             resets the signal to SIG_DFL (press again to force quit):
 *             after the first it says "once" and waits for ever, the
 *             second ends it;
 *   locked    as read, waiting in sigsuspend() with stderr locked
 *             (flockfile): the report, written there, waits for this
 *             thread, which waits for its handler;
 *   big       one launch of vadd on 16 MiB buffers (paged in many ranges
 *             at a small budget: the progress line).
 * Usage: host_stats vadd.cl MODE [N]
 */
#define _GNU_SOURCE /* syscall */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_host.h"

static volatile sig_atomic_t stop, stop_code, on_this_thread, reset_to_default;

/* What the program's own handler saw, checked by main once it stops. */
static void on_stop(int sig, siginfo_t *info, void *uc)
{
	(void)uc;
	stop_code = info->si_code;
	on_this_thread = (pid_t)syscall(SYS_gettid) == getpid();
	if (reset_to_default)
		signal(sig, SIG_DFL);
	stop = 1;
}

/* Until the handler ran: in sigsuspend(), or in a read() that only a
 * signal ends. 0 when it ran on this thread (want_si_user: with the
 * kill's siginfo). */
static int wait_for_stop(int in_read, int want_si_user, const sigset_t *open)
{
	if (in_read) {
		int fd[2];
		if (pipe(fd))
			return 1;
		pthread_sigmask(SIG_SETMASK, open, NULL);
		while (!stop) {
			char b;
			if (read(fd[0], &b, 1) < 0 && errno != EINTR)
				return 1;
		}
		close(fd[0]);
		close(fd[1]);
	} else {
		while (!stop)
			sigsuspend(open);
	}
	if (!on_this_thread) {
		fputs("the handler ran on another thread than the one waiting\n", stderr);
		return 1;
	}
	if (want_si_user && stop_code != SI_USER) {
		fprintf(stderr, "the handler saw si_code=%d, want SI_USER\n", (int)stop_code);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	const char *mode = argv[2];
	int in_read = !strcmp(mode, "read"), twice = !strcmp(mode, "twice");
	int locked = !strcmp(mode, "locked");
	int handles = in_read || twice || locked || !strcmp(mode, "graceful");
	int after_driver = in_read || twice || locked;
	sigset_t open;
	if (after_driver) {
		/* The driver loaded, and its handlers installed, as PoCL's LLVM
		 * does; the runtime starts at the first call it defines. */
		cl_platform_id plat;
		cl_device_id dev;
		CHECK(clGetPlatformIDs(1, &plat, NULL));
		CHECK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
	}
	if (handles) {
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_sigaction = on_stop;
		sa.sa_flags = SA_SIGINFO; /* no SA_RESTART: read() fails with EINTR */
		sigemptyset(&sa.sa_mask);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGINT, &sa, NULL);
		reset_to_default = twice;
		sigset_t both;
		sigemptyset(&both);
		sigaddset(&both, SIGTERM);
		sigaddset(&both, SIGINT);
		pthread_sigmask(SIG_BLOCK, &both, &open);
	}
	rt_cl c;
	rt_setup(&c, argv[1], "-D UNUSED=1");
	cl_uint n = !strcmp(mode, "big") ? 1u << 22 : 1u << 14;
	size_t bytes = n * sizeof(float);
	float *ha = malloc(bytes), *hc = malloc(bytes);
	if (!ha || !hc)
		return 1;
	for (cl_uint i = 0; i < n; i++)
		ha[i] = (float)i;
	cl_int err;
	cl_mem a = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, ha, &err);
	CHECK(err);
	cl_mem b = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, ha, &err);
	CHECK(err);
	cl_mem cc = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
	CHECK(err);
	cl_kernel k = clCreateKernel(c.prog, "vadd", &err);
	CHECK(err);
	CHECK(clSetKernelArg(k, 0, sizeof a, &a));
	CHECK(clSetKernelArg(k, 1, sizeof b, &b));
	CHECK(clSetKernelArg(k, 2, sizeof cc, &cc));
	CHECK(clSetKernelArg(k, 3, sizeof n, &n));
	size_t g = n, l = 64;
	if (!strcmp(mode, "queue")) {
		long launches = argc > 3 ? atol(argv[3]) : 2000;
		for (long i = 0; i < launches; i++)
			CHECK(clEnqueueNDRangeKernel(c.q, k, 1, NULL, &g, &l, 0, NULL, NULL));
	} else if (handles) {
		CHECK(clEnqueueNDRangeKernel(c.q, k, 1, NULL, &g, &l, 0, NULL, NULL));
		CHECK(clFinish(c.q));
		puts("ready");
		fflush(stdout);
		if (locked)
			flockfile(stderr);
		int bad = wait_for_stop(in_read, after_driver, &open);
		if (locked)
			funlockfile(stderr);
		if (bad)
			return 1;
		if (twice) {
			puts("once");
			fflush(stdout);
			for (;;)
				sigsuspend(&open);
		}
	} else if (!strcmp(mode, "loop")) {
		for (int first = 1;; first = 0) {
			CHECK(clEnqueueNDRangeKernel(c.q, k, 1, NULL, &g, &l, 0, NULL, NULL));
			CHECK(clFinish(c.q));
			if (first) {
				puts("ready");
				fflush(stdout);
			}
		}
	} else if (!strcmp(mode, "big")) {
		CHECK(clEnqueueNDRangeKernel(c.q, k, 1, NULL, &g, &l, 0, NULL, NULL));
	} else {
		return 2;
	}
	CHECK(clEnqueueReadBuffer(c.q, cc, CL_TRUE, 0, bytes, hc, 0, NULL, NULL));
	for (cl_uint i = 0; i < n; i++)
		if (hc[i] != 2.0f * (float)i) {
			fprintf(stderr, "c[%u] = %g, want %g\n", i, hc[i], 2.0 * i);
			return 1;
		}
	CHECK(clReleaseKernel(k));
	CHECK(clReleaseMemObject(a));
	CHECK(clReleaseMemObject(b));
	CHECK(clReleaseMemObject(cc));
	rt_teardown(&c);
	free(ha);
	free(hc);
	return 0;
}
