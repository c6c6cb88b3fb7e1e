/* SPDX-License-Identifier: MIT */
/*
 * parallel.c - host copies on several threads.
 *
 * One thread copies at 5-10 GB/s; the link moves 55 GB/s from pinned
 * memory (DESIGN §3). Every large copy between the program's memory, the
 * host copies and the staging buffer is split over up to VRT_MAX_THREADS
 * threads (fewer on smaller machines), each taking one contiguous share.
 * Threads are made per call: a copy worth splitting takes milliseconds,
 * a thread start microseconds.
 */
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "vrt.h"

#define VRT_MAX_THREADS 8
/* Below this a copy stays on the calling thread. */
#define VRT_PAR_MIN (8u << 20)

typedef struct share {
	void (*fn)(void *ctx, size_t begin, size_t end);
	void *ctx;
	size_t begin, end;
} share;

static void *run_share(void *p)
{
	share *s = p;
	s->fn(s->ctx, s->begin, s->end);
	return NULL;
}

static unsigned threads(void)
{
	static unsigned n;
	if (!n) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);
		n = c < 1 ? 1 : c > VRT_MAX_THREADS ? VRT_MAX_THREADS : (unsigned)c;
	}
	return n;
}

void vrt_parallel(size_t n, size_t work, void (*fn)(void *ctx, size_t begin, size_t end),
                  void *ctx)
{
	unsigned t = threads();
	if (t > n)
		t = (unsigned)n;
	if (work < VRT_PAR_MIN || t < 2) {
		fn(ctx, 0, n);
		return;
	}
	share sh[VRT_MAX_THREADS];
	pthread_t tid[VRT_MAX_THREADS];
	unsigned started = 0;
	for (unsigned i = 0; i < t; i++) {
		sh[i] = (share){fn, ctx, n * i / t, n * (i + 1) / t};
		/* The caller takes the last share itself. */
		if (i + 1 < t && pthread_create(&tid[i], NULL, run_share, &sh[i]) == 0)
			started = i + 1;
		else if (i + 1 < t)
			fn(ctx, sh[i].begin, sh[i].end); /* no thread: do it here */
	}
	fn(ctx, sh[t - 1].begin, sh[t - 1].end);
	for (unsigned i = 0; i < started; i++)
		if (i + 1 < t)
			pthread_join(tid[i], NULL);
}

typedef struct copy_job {
	unsigned char *dst;
	const unsigned char *src;
} copy_job;

static void copy_share(void *ctx, size_t begin, size_t end)
{
	copy_job *j = ctx;
	memcpy(j->dst + begin, j->src + begin, end - begin);
}

void vrt_copy(void *dst, const void *src, size_t n)
{
	const unsigned char *d = dst, *s = src;
	if (d < s + n && s < d + n) { /* overlapping: one thread, memmove */
		memmove(dst, src, n);
		return;
	}
	copy_job j = {dst, src};
	vrt_parallel(n, n, copy_share, &j);
}
