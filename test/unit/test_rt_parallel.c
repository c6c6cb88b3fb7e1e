/* SPDX-License-Identifier: MIT */
/*
 * test_rt_parallel.c - vrt_parallel when threads cannot be started: every
 * share still runs exactly once (on the calling thread), and only the
 * threads that started are joined (issue 7 item 9: joining one that
 * never started is undefined behaviour, a crash in practice); the pool
 * of workers shared by concurrent callers; copies of many runs as one job
 * (vrt_copy_runs), shares cutting runs anywhere.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vrt.h"

#include "check.h"

enum { N = 1000 };

/* Each index counted by whichever thread ran its share; shares are
 * disjoint, so the counts need no lock. */
static void count(void *ctx, size_t begin, size_t end)
{
	unsigned char *seen = ctx;
	for (size_t i = begin; i < end; i++)
		seen[i]++;
}

static void run(unsigned nthreads, unsigned long fail_nth)
{
	unsigned char seen[N];
	memset(seen, 0, sizeof seen);
	vrt_parallel_test(nthreads, fail_nth);
	/* work: large enough to be split. */
	vrt_parallel(N, (size_t)1 << 30, count, seen);
	for (size_t i = 0; i < N; i++)
		if (seen[i] != 1) {
			fprintf(stderr, "threads %u, failing start %lu: index %zu ran %u times\n",
			        nthreads, fail_nth, i, seen[i]);
			failures++;
			break;
		}
}

/* vrt_fill of n bytes of a ps-byte pattern at dst+1 (an odd address)
 * against the plain loop, the bytes around it untouched. */
static void fill(unsigned nthreads, size_t ps, size_t n)
{
	unsigned char pat[128];
	for (size_t i = 0; i < ps; i++)
		pat[i] = (unsigned char)(i * 31 + ps);
	unsigned char *got = malloc(n + 2), *want = malloc(n + 2);
	CHECK(got && want);
	if (got && want) {
		memset(got, 0xa5, n + 2);
		memset(want, 0xa5, n + 2);
		for (size_t i = 0; i < n; i += ps)
			memcpy(want + 1 + i, pat, ps);
		vrt_parallel_test(nthreads, 0);
		vrt_fill(got + 1, pat, ps, n);
		if (memcmp(got, want, n + 2) != 0) {
			fprintf(stderr, "fill: %u threads, pattern %zu, %zu bytes differ\n",
			        nthreads, ps, n);
			failures++;
		}
	}
	free(got);
	free(want);
}

/* vrt_copy_rect of region r between two rectangles of their own pitches
 * against the row-by-row loop; the rest of dst untouched. */
static void rect(unsigned nthreads, const size_t r[3], size_t srp, size_t ssp,
                 size_t drp, size_t dsp)
{
	const size_t so[3] = {3, 1, 1}, dof[3] = {5, 2, 0};
	size_t sn = vrt_rect_end(so, r, srp, ssp), dn = vrt_rect_end(dof, r, drp, dsp);
	unsigned char *src = malloc(sn), *got = malloc(dn), *want = malloc(dn);
	CHECK(src && got && want);
	if (src && got && want) {
		for (size_t i = 0; i < sn; i++)
			src[i] = (unsigned char)(i * 13 + 5);
		memset(got, 0x5a, dn);
		memset(want, 0x5a, dn);
		for (size_t z = 0; z < r[2]; z++)
			for (size_t y = 0; y < r[1]; y++)
				memcpy(want + (dof[2] + z) * dsp + (dof[1] + y) * drp + dof[0],
				       src + (so[2] + z) * ssp + (so[1] + y) * srp + so[0], r[0]);
		vrt_parallel_test(nthreads, 0);
		vrt_copy_rect(got, dof, drp, dsp, src, so, srp, ssp, r);
		if (memcmp(got, want, dn) != 0) {
			fprintf(stderr, "rect: %u threads, region %zux%zux%zu differs\n", nthreads,
			        r[0], r[1], r[2]);
			failures++;
		}
	}
	free(src);
	free(got);
	free(want);
}

/* Overlapping rectangles of one buffer, rows moved down by one: the
 * result of the rows copied in order, as one memmove each. */
static void rect_overlap(void)
{
	const size_t r[3] = {4096, 3000, 1}, so[3] = {0, 0, 0}, dof[3] = {0, 1, 0};
	size_t rp = 4096, n = rp * 3001;
	unsigned char *got = malloc(n), *want = malloc(n);
	CHECK(got && want);
	if (got && want) {
		for (size_t i = 0; i < n; i++)
			got[i] = want[i] = (unsigned char)(i / rp * 7 + i);
		for (size_t y = 0; y < r[1]; y++)
			memmove(want + (y + 1) * rp, want + y * rp, r[0]);
		vrt_parallel_test(8, 0);
		vrt_copy_rect(got, dof, rp, rp * 3001, got, so, rp, rp * 3001, r);
		CHECK(memcmp(got, want, n) == 0);
	}
	free(got);
	free(want);
}

/* Several threads splitting jobs at once: one on the pool at a time,
 * the others on threads of their own; every index once per job. */
static void *concurrent_jobs(void *arg)
{
	unsigned char seen[N];
	int *bad = arg;
	for (int job = 0; job < 200; job++) {
		memset(seen, 0, sizeof seen);
		vrt_parallel(N, (size_t)1 << 30, count, seen);
		for (size_t i = 0; i < N; i++)
			if (seen[i] != 1)
				*bad = 1;
	}
	return NULL;
}

static void concurrent(void)
{
	pthread_t tid[4];
	int bad[4] = {0};
	vrt_parallel_test(6, 0);
	for (int i = 0; i < 4; i++)
		CHECK(pthread_create(&tid[i], NULL, concurrent_jobs, &bad[i]) == 0);
	for (int i = 0; i < 4; i++) {
		pthread_join(tid[i], NULL);
		CHECK(!bad[i]);
	}
}

/* nruns runs of random lengths (some empty, some one byte) from a
 * source to scattered places of a destination, with nthreads threads:
 * every run's bytes arrive, nothing between them is written. */
static void runs(unsigned nthreads, size_t nruns, size_t maxlen)
{
	size_t n = nruns * (maxlen + 7);
	unsigned char *src = malloc(n), *dst = malloc(n), *want = malloc(n);
	vrt_copy_run *r = malloc((nruns ? nruns : 1) * sizeof *r);
	CHECK(src && dst && want && r);
	if (src && dst && want && r) {
		unsigned long x = 12345;
		for (size_t i = 0; i < n; i++)
			src[i] = (unsigned char)(i * 13 + 5);
		memset(dst, 0xee, n);
		memset(want, 0xee, n);
		size_t at = 0;
		for (size_t i = 0; i < nruns; i++) {
			x = x * 6364136223846793005ul + 1442695040888963407ul;
			size_t len = (x >> 33) % (maxlen + 1), gap = (x >> 20) % 7;
			/* Destinations in reverse order of sources. */
			size_t d = n - at - len - gap;
			r[i] = (vrt_copy_run){dst + d, src + at, len};
			memcpy(want + d, src + at, len);
			at += len + gap;
		}
		vrt_parallel_test(nthreads, 0);
		vrt_copy_runs(r, nruns);
		CHECK(memcmp(dst, want, n) == 0);
	}
	free(src), free(dst), free(want), free(r);
}

int main(void)
{
	/* Every thread that could fail, alone, with several threads: the
	 * first (whose handle a later join would read), a middle one, the
	 * last; then none. */
	for (unsigned long f = 1; f <= 7; f++)
		run(8, f);
	run(3, 1);
	run(8, 0);
	run(2, 1);
	/* A large copy split over threads, with one failing to start. */
	size_t n = (size_t)16 << 20;
	unsigned char *a = malloc(n), *b = malloc(n);
	CHECK(a && b);
	if (a && b) {
		for (size_t i = 0; i < n; i++)
			a[i] = (unsigned char)(i * 7 + 3);
		vrt_parallel_test(4, 1);
		vrt_copy(b, a, n);
		CHECK(memcmp(a, b, n) == 0);
	}
	free(a);
	free(b);
	/* Fills: large enough to split (shares of odd pattern counts), a
	 * single pattern, and one thread. */
	for (size_t ps = 1; ps <= 128; ps *= 2)
		fill(8, ps, ((size_t)9 << 20) + 3 * ps);
	fill(3, 16, 16);
	fill(1, 4, (size_t)9 << 20);
	/* Rectangles: 2-D and 3-D, large enough to split (12 MiB), rows
	 * narrower than the pitches; one thread; overlapping. */
	const size_t r2[3] = {3000, 4099, 1}, r3[3] = {1500, 97, 89}, r1[3] = {10, 3, 2};
	rect(8, r2, 3100, 3100 * 4100, 3001, 3001 * 4099);
	rect(8, r3, 1600, 1600 * 100, 1501, 1501 * 98);
	rect(1, r1, 16, 64, 12, 40);
	rect_overlap();
	/* Runs: many short ones split over 8 threads (their 12+ MiB), a
	 * few long ones, one thread, one run, none. */
	runs(8, 100000, 255);
	runs(8, 5, (size_t)4 << 20);
	runs(1, 1000, 100);
	runs(8, 1, (size_t)9 << 20);
	runs(8, 0, 10);
	concurrent();
	vrt_parallel_test(0, 0);
	return failures ? 1 : 0;
}
