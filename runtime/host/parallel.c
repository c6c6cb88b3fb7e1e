/* SPDX-License-Identifier: MIT */
/*
 * parallel.c - host copies on several threads.
 *
 * One thread copies at 5-10 GB/s; the link moves 55 GB/s from pinned
 * memory (DESIGN §3). Every large copy between the program's memory, the
 * host copies and the staging buffer is split over up to VRT_MAX_THREADS
 * threads (fewer on smaller machines), each taking one contiguous share;
 * so is every large fill (clEnqueueFillBuffer, and the zeroing of a new
 * buffer's host copy), which one thread writes at a few GB/s, and every
 * large rectangle copy (the Rect transfers), a share being whole rows.
 * The threads are a pool, started at the first such copy and kept: the
 * ring moves plain memory in 32 MiB chunks (ring.c), each a copy of a
 * millisecond or two, against 15 thread starts of tens of microseconds
 * each. The caller takes shares too, so a job ends even with no worker
 * (one that could not start, or a forked child's). One job at a time
 * uses a pool; there are a few (the transfers of several devices at
 * once copy at once), and a copy made while all are busy starts
 * threads of its own.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "host/host.h"

/* The H100's host has 16 cores: copies into the program's fresh memory
 * (its first touch, page faults) scale with them: blackscholes at 4 GiB,
 * budget 1 GiB, ran 0.33-0.38 s with 8 threads, 0.22-0.23 s with 16. */
#define VRT_MAX_THREADS 16
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

static unsigned forced_threads;
static unsigned long fail_countdown;

/* Whether the thread start a test asked to fail is this one: atomic,
 * copies start threads on several devices' transfer threads at once. */
static int countdown(void)
{
	unsigned long c = __atomic_load_n(&fail_countdown, __ATOMIC_RELAXED);
	while (c && !__atomic_compare_exchange_n(&fail_countdown, &c, c - 1, 0, __ATOMIC_RELAXED,
	                                         __ATOMIC_RELAXED))
		;
	return c == 1;
}

void vrt_parallel_test(unsigned nthreads, unsigned long fail_nth)
{
	forced_threads = nthreads;
	fail_countdown = fail_nth;
}

static unsigned threads(void)
{
	static unsigned n;
	if (forced_threads)
		return forced_threads < VRT_MAX_THREADS ? forced_threads : VRT_MAX_THREADS;
	if (!n) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);
		n = c < 1 ? 1 : c > VRT_MAX_THREADS ? VRT_MAX_THREADS : (unsigned)c;
	}
	return n;
}

/* pthread_create, or a failure a test asked for. */
static int start(pthread_t *tid, share *sh)
{
	if (countdown())
		return -1;
	return pthread_create(tid, NULL, run_share, sh);
}

/* A pool: workers wait for a new generation, then take shares by
 * index until none is left. Guarded by mu; busy is held by the job.
 * Several pools, so that the transfers of several devices at once
 * (batch.c: a thread each, each copying through its ring) each have
 * threads waiting rather than start theirs for every chunk. */
typedef struct pool {
	pthread_mutex_t busy, mu;
	pthread_cond_t go, done;
	unsigned workers;
	unsigned long gen;
	void (*fn)(void *ctx, size_t begin, size_t end);
	void *ctx;
	size_t n;
	unsigned nsh, next, finished;
} pool;
#define VRT_POOLS 4
#define POOL_INIT                                                                              \
	{PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,        \
	 PTHREAD_COND_INITIALIZER, 0, 0, NULL, NULL, 0, 0, 0, 0}
static pool pools[VRT_POOLS] = {POOL_INIT, POOL_INIT, POOL_INIT, POOL_INIT};

/* Runs p's current job's shares until none is left; p->mu held. */
static void take_shares(pool *p)
{
	while (p->next < p->nsh) {
		unsigned i = p->next++, t = p->nsh;
		void (*fn)(void *, size_t, size_t) = p->fn;
		void *ctx = p->ctx;
		size_t n = p->n;
		pthread_mutex_unlock(&p->mu);
		fn(ctx, n * i / t, n * (i + 1) / t);
		pthread_mutex_lock(&p->mu);
		if (++p->finished == p->nsh)
			pthread_cond_broadcast(&p->done);
	}
}

static void *worker(void *arg)
{
	pool *p = arg;
	pthread_mutex_lock(&p->mu);
	for (unsigned long seen = 0;;) {
		while (p->gen == seen)
			pthread_cond_wait(&p->go, &p->mu);
		seen = p->gen;
		take_shares(p);
	}
	return NULL;
}

/* pthread_create of a detached worker of p, or a failure a test asked for. */
static int start_worker(pool *p)
{
	pthread_t tid;
	if (countdown())
		return -1;
	if (pthread_create(&tid, NULL, worker, p))
		return -1;
	pthread_detach(tid);
	return 0;
}

/* fn over [0, n) in t shares on p, the caller taking some. */
static void on_pool(pool *p, size_t n, unsigned t,
                    void (*fn)(void *ctx, size_t begin, size_t end), void *ctx)
{
	pthread_mutex_lock(&p->mu);
	while (p->workers + 1 < t && start_worker(p) == 0)
		p->workers++;
	p->fn = fn;
	p->ctx = ctx;
	p->n = n;
	p->nsh = t;
	p->next = p->finished = 0;
	p->gen++;
	pthread_cond_broadcast(&p->go);
	take_shares(p);
	while (p->finished < p->nsh)
		pthread_cond_wait(&p->done, &p->mu);
	pthread_mutex_unlock(&p->mu);
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
	for (unsigned i = 0; i < VRT_POOLS; i++)
		if (pthread_mutex_trylock(&pools[i].busy) == 0) {
			on_pool(&pools[i], n, t, fn, ctx);
			pthread_mutex_unlock(&pools[i].busy);
			return;
		}
	share sh[VRT_MAX_THREADS];
	pthread_t tid[VRT_MAX_THREADS];
	int started[VRT_MAX_THREADS];
	/* The caller takes the last share itself, and any share whose
	 * thread could not start; only started threads are joined. */
	for (unsigned i = 0; i + 1 < t; i++) {
		sh[i] = (share){fn, ctx, n * i / t, n * (i + 1) / t};
		started[i] = start(&tid[i], &sh[i]) == 0;
		if (!started[i])
			fn(ctx, sh[i].begin, sh[i].end);
	}
	fn(ctx, n * (t - 1) / t, n);
	for (unsigned i = 0; i + 1 < t; i++)
		if (started[i])
			pthread_join(tid[i], NULL);
}

/* Copying into fresh memory is bound by its page faults: on the H100's
 * host, 16 threads filled a fresh GiB at 13.0 GB/s with 4 KiB pages, 24.5
 * with 2 MiB ones, 50.6 once touched (THP there is "madvise"). */
#define HUGE_PAGE ((uintptr_t)2 << 20)

void vrt_advise_huge(void *p, size_t n)
{
	uintptr_t begin = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	uintptr_t end = ((uintptr_t)p + n) & ~(HUGE_PAGE - 1);
	if (n >= VRT_PAR_MIN && begin < end)
		madvise((void *)begin, end - begin, MADV_HUGEPAGE);
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

typedef struct runs_job {
	const vrt_copy_run *runs;
	const size_t *at; /* at[i]: bytes of the runs before run i */
	size_t nruns;
} runs_job;

/* Bytes [begin, end) of the runs laid end to end. */
static void runs_share(void *ctx, size_t begin, size_t end)
{
	runs_job *j = ctx;
	size_t lo = 0, hi = j->nruns; /* the run holding byte `begin` */
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (j->at[mid] <= begin)
			lo = mid;
		else
			hi = mid;
	}
	for (size_t i = lo; i < j->nruns && begin < end; i++) {
		size_t off = begin - j->at[i], n = j->runs[i].n - off;
		if (n > end - begin)
			n = end - begin;
		memcpy((unsigned char *)j->runs[i].dst + off,
		       (const unsigned char *)j->runs[i].src + off, n);
		begin += n;
	}
}

void vrt_copy_runs(const vrt_copy_run *runs, size_t nruns)
{
	size_t total = 0;
	size_t *at = nruns > 1 ? vrt_malloc((nruns + 1) * sizeof *at) : NULL;
	if (!at) { /* one run, or no memory: one copy each */
		for (size_t i = 0; i < nruns; i++)
			vrt_copy(runs[i].dst, runs[i].src, runs[i].n);
		return;
	}
	for (size_t i = 0; i < nruns; i++) {
		at[i] = total;
		total += runs[i].n;
	}
	at[nruns] = total;
	runs_job j = {runs, at, nruns};
	vrt_parallel(total, total, runs_share, &j);
	vrt_free(at);
}

/* Copies gathered to run as one parallel job (vrt_copy_runs): a range of
 * a column-major matrix is 16 runs of each slot (spmv-ell's col and val),
 * each copy on its own paid a wake of the pool. */
void vrt_batch_add(vrt_copy_batch *b, void *dst, const void *src, size_t n)
{
	if (VRT_GROW(&b->runs, &b->cap, b->n + 1)) {
		vrt_copy(dst, src, n); /* no memory: this one now */
		return;
	}
	b->runs[b->n++] = (vrt_copy_run){dst, src, n};
}

size_t vrt_batch_bytes(const vrt_copy_batch *b)
{
	size_t bytes = 0;
	for (size_t i = 0; i < b->n; i++)
		bytes += b->runs[i].n;
	return bytes;
}

void vrt_batch_run(vrt_copy_batch *b)
{
	vrt_copy_runs(b->runs, b->n);
	vrt_free(b->runs);
	*b = (vrt_copy_batch){0};
}

typedef struct fill_job {
	unsigned char *dst;
	const unsigned char *pat;
	size_t ps;
} fill_job;

/* Shares are counted in whole patterns, so each starts in phase: one
 * copy of the pattern, then doubling copies of what is already there
 * (memcpy of large blocks rather than one small memcpy per pattern). */
static void fill_share(void *ctx, size_t begin, size_t end)
{
	fill_job *j = ctx;
	unsigned char *d = j->dst + begin * j->ps;
	size_t n = (end - begin) * j->ps;
	if (j->ps == 1) {
		memset(d, j->pat[0], n);
		return;
	}
	memcpy(d, j->pat, j->ps);
	for (size_t done = j->ps; done < n;) {
		size_t c = done < n - done ? done : n - done;
		memcpy(d + done, d, c);
		done += c;
	}
}

void vrt_fill(void *dst, const void *pat, size_t ps, size_t n)
{
	if (n == 0)
		return;
	fill_job j = {dst, pat, ps};
	vrt_parallel(n / ps, n, fill_share, &j);
}

typedef struct rect_job {
	unsigned char *dst;
	const unsigned char *src;
	const size_t *dof, *sof, *r;
	size_t drp, dsp, srp, ssp;
} rect_job;

static void rect_share(void *ctx, size_t begin, size_t end)
{
	rect_job *j = ctx;
	for (size_t i = begin; i < end; i++) {
		size_t z = i / j->r[1], y = i % j->r[1];
		memmove(j->dst + (j->dof[2] + z) * j->dsp + (j->dof[1] + y) * j->drp + j->dof[0],
		        j->src + (j->sof[2] + z) * j->ssp + (j->sof[1] + y) * j->srp + j->sof[0],
		        j->r[0]);
	}
}

/* The first byte of a rectangle, from its base. */
static size_t rect_first(const size_t *o, size_t rp, size_t sp)
{
	return o[2] * sp + o[1] * rp + o[0];
}

size_t vrt_rect_end(const size_t *o, const size_t *r, size_t rp, size_t sp)
{
	return (o[2] + r[2] - 1) * sp + (o[1] + r[1] - 1) * rp + o[0] + r[0];
}

void vrt_copy_rect(unsigned char *dst, const size_t *dof, size_t drp, size_t dsp,
                   const unsigned char *src, const size_t *sof, size_t srp, size_t ssp,
                   const size_t *r)
{
	rect_job j = {dst, src, dof, sof, r, drp, dsp, srp, ssp};
	size_t rows = r[1] * r[2];
	/* Rows of overlapping rectangles (one buffer) must go in order, as
	 * memmove's would: on one thread. */
	const unsigned char *d0 = dst + rect_first(dof, drp, dsp), *d1 = dst + vrt_rect_end(dof, r, drp, dsp);
	const unsigned char *s0 = src + rect_first(sof, srp, ssp), *s1 = src + vrt_rect_end(sof, r, srp, ssp);
	int overlap = d0 < s1 && s0 < d1;
	vrt_parallel(rows, overlap ? 0 : rows * r[0], rect_share, &j);
}
