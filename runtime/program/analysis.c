/* SPDX-License-Identifier: MIT */
/*
 * analysis.c - vastcc's analysis of a program, in the background.
 *
 * clBuildProgram builds the original kernels as the driver alone would
 * and nothing more; what vastcc makes of the source (jit.c: a child
 * process, or the cache) is needed only by a launch that may page, and
 * most programs never page. So the analysis is queued here and run by a
 * small pool of threads while the program goes on; a launch that needs
 * it waits for it (and runs it itself when no thread has taken it yet),
 * and one that fits never does. An application that builds fifty
 * programs at its start would start fifty compilers at once: the pool
 * has at most half the machine's processors (at least one, at most
 * eight) running.
 *
 * At exit, what nothing waited for is cancelled, not waited for: queued
 * analyses are dropped, running compilers are killed (vrt_jit_cancel),
 * and the threads joined; the cache then lacks those programs, which the
 * next run analyses.
 *
 * Thread-safety: every function may be called from any thread, with or
 * without the runtime's lock, but vrt_analysis_wait, which may run the
 * analysis (vrt_jit_run takes the lock briefly): call it without. The
 * pool's state is under its own mutex, which is never held while an
 * analysis runs nor while a job is freed (that removes its directory),
 * and is taken after the runtime's lock, never before it. An analysis is
 * counted: the program's reference, the pool's until it has run, and
 * one per thread that waits for it (vrt_analysis_ref).
 */
#define _GNU_SOURCE /* pthread_timedjoin_np */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "program/program.h"

enum { AN_QUEUED, AN_RUNNING, AN_DONE };

struct vrt_analysis {
	/* Under pool.mu. */
	vrt_jit_job *job;            /* what runs; NULL once it ran or was dropped */
	int state;                   /* AN_* */
	int refs;                    /* the program's, the pool's until done, waiters' */
	struct vrt_analysis *next;   /* in the queue */
	int res;                     /* VRT_JIT_* */
	const vast_program_info *program;
	char *log;
	char why[1024];
};

#define POOL_MAX 8

static struct {
	pthread_mutex_t mu;
	pthread_cond_t work, done;
	vrt_analysis *head, *tail;
	pthread_t threads[POOL_MAX];
	unsigned nthreads, idle, limit;
	int closing;
	int registered; /* the exit handler */
} pool = { .mu = PTHREAD_MUTEX_INITIALIZER,
            .work = PTHREAD_COND_INITIALIZER,
            .done = PTHREAD_COND_INITIALIZER };

/* a's job, which its holder frees after pool.mu: a job that did not run
 * has a directory to remove (jit.c). pool.mu held. */
static vrt_jit_job *take_job(vrt_analysis *a)
{
	vrt_jit_job *j = a->job;
	a->job = NULL;
	return j;
}

/* Drops one reference; pool.mu held. Its job, when it frees a, is the
 * caller's to free (take_job). */
static vrt_jit_job *unref(vrt_analysis *a)
{
	if (--a->refs)
		return NULL;
	vrt_jit_job *j = take_job(a);
	vrt_free(a->log);
	vrt_free(a);
	return j;
}

/* Runs a (taken off the queue, AN_RUNNING) without pool.mu, then records
 * its outcome; a's job is run once and freed. */
static void run(vrt_analysis *a)
{
	const vast_program_info *prog = NULL;
	char *log = NULL, why[sizeof a->why] = "";
	double t0 = vrt_now_ms();
	/* Nothing else touches the job of a running analysis. */
	int res = vrt_jit_run(a->job, &prog, &log, why, sizeof why);
	vrt_log(VRT_LOG_DEBUG, "program: vastcc's analysis took %.0f ms%s", vrt_now_ms() - t0,
	        res == VRT_JIT_OK ? "" : " and failed");
	pthread_mutex_lock(&pool.mu);
	vrt_jit_job *j = take_job(a);
	a->res = res;
	a->program = prog;
	a->log = log;
	memcpy(a->why, why, sizeof why);
	a->state = AN_DONE;
	pthread_cond_broadcast(&pool.done);
	pthread_mutex_unlock(&pool.mu);
	vrt_jit_job_free(j);
}

static void *worker(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&pool.mu);
	for (;;) {
		pool.idle++;
		while (!pool.head && !pool.closing)
			pthread_cond_wait(&pool.work, &pool.mu);
		pool.idle--;
		if (pool.closing)
			break;
		vrt_analysis *a = pool.head;
		pool.head = a->next;
		if (!pool.head)
			pool.tail = NULL;
		a->state = AN_RUNNING;
		pthread_mutex_unlock(&pool.mu);
		run(a);
		pthread_mutex_lock(&pool.mu);
		unref(a); /* the pool's: it ran, no job left */
	}
	pthread_mutex_unlock(&pool.mu);
	return NULL;
}

/* At exit: nothing may wait for an analysis any more. The queued ones
 * are dropped, the running compilers killed, the threads joined (a
 * second at most each: one stuck elsewhere is left to the exit). */
static void pool_close(void)
{
	pthread_mutex_lock(&pool.mu);
	pool.closing = 1;
	while (pool.head) {
		vrt_analysis *a = pool.head;
		pool.head = a->next;
		a->state = AN_DONE;
		a->res = VRT_JIT_UNAVAILABLE;
		snprintf(a->why, sizeof a->why, "cancelled at exit");
		vrt_jit_job *j = take_job(a);
		unref(a);
		/* Freed after the mutex, one at a time. */
		pthread_mutex_unlock(&pool.mu);
		vrt_jit_job_free(j);
		pthread_mutex_lock(&pool.mu);
	}
	pool.tail = NULL;
	pthread_cond_broadcast(&pool.work);
	pthread_cond_broadcast(&pool.done);
	unsigned n = pool.nthreads;
	pool.nthreads = 0;
	pthread_mutex_unlock(&pool.mu);
	vrt_jit_cancel();
	for (unsigned i = 0; i < n; i++) {
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += 1;
		if (pthread_timedjoin_np(pool.threads[i], NULL, &until) != 0)
			pthread_detach(pool.threads[i]);
	}
}

/* How many analyses run at once: half the processors, 1 to POOL_MAX
 * (each is a compiler process beside the program and its driver). */
static unsigned pool_limit(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN) / 2;
	return n < 1 ? 1 : n > POOL_MAX ? POOL_MAX : (unsigned)n;
}

vrt_analysis *vrt_analysis_start(vrt_jit_job *job)
{
	vrt_analysis *a = vrt_calloc(1, sizeof *a);
	if (!a) {
		vrt_jit_job_free(job);
		return NULL;
	}
	a->job = job;
	a->refs = 2;
	a->state = AN_QUEUED;
	pthread_mutex_lock(&pool.mu);
	if (pool.closing) {
		/* Exiting: nothing to gain, and no thread to run it. */
		a->state = AN_DONE;
		a->res = VRT_JIT_UNAVAILABLE;
		snprintf(a->why, sizeof a->why, "cancelled at exit");
		a->refs = 1;
		a->job = NULL;
		pthread_mutex_unlock(&pool.mu);
		vrt_jit_job_free(job);
		return a;
	}
	if (!pool.registered) {
		pool.registered = 1;
		pool.limit = pool_limit();
		/* After the driver's own handlers were registered (its
		 * context exists): ours runs before them. */
		atexit(pool_close);
	}
	if (pool.tail)
		pool.tail->next = a;
	else
		pool.head = a;
	pool.tail = a;
	if (pool.idle == 0 && pool.nthreads < pool.limit &&
	    pthread_create(&pool.threads[pool.nthreads], NULL, worker, NULL) == 0)
		pool.nthreads++;
	/* No thread at all (none could be made): the one that needs it
	 * runs it (vrt_analysis_wait). */
	pthread_cond_signal(&pool.work);
	pthread_mutex_unlock(&pool.mu);
	return a;
}

void vrt_analysis_ref(vrt_analysis *a)
{
	pthread_mutex_lock(&pool.mu);
	a->refs++;
	pthread_mutex_unlock(&pool.mu);
}

int vrt_analysis_done(vrt_analysis *a)
{
	pthread_mutex_lock(&pool.mu);
	int done = a->state == AN_DONE;
	pthread_mutex_unlock(&pool.mu);
	return done;
}

int vrt_analysis_wait(vrt_analysis *a)
{
	pthread_mutex_lock(&pool.mu);
	if (a->state == AN_QUEUED) {
		/* Nobody took it yet: this thread has nothing better to do. */
		vrt_analysis **at = &pool.head, *prev = NULL;
		while (*at != a)
			prev = *at, at = &(*at)->next;
		*at = a->next;
		if (pool.tail == a)
			pool.tail = prev;
		a->state = AN_RUNNING;
		pthread_mutex_unlock(&pool.mu);
		run(a);
		pthread_mutex_lock(&pool.mu);
		int res = a->res;
		unref(a); /* the pool's: it ran, no job left; the caller's holds a */
		pthread_mutex_unlock(&pool.mu);
		return res;
	}
	while (a->state != AN_DONE)
		pthread_cond_wait(&pool.done, &pool.mu);
	int res = a->res;
	pthread_mutex_unlock(&pool.mu);
	return res;
}

int vrt_analysis_result(vrt_analysis *a, const vast_program_info **out, char **log, char *why,
                        size_t n)
{
	pthread_mutex_lock(&pool.mu);
	int res = a->state == AN_DONE ? a->res : -1;
	if (res >= 0) {
		*out = a->program;
		*log = a->log;
		a->log = NULL;
		snprintf(why, n, "%s", a->why);
	}
	pthread_mutex_unlock(&pool.mu);
	return res;
}

void vrt_analysis_drop(vrt_analysis *a)
{
	if (!a)
		return;
	vrt_jit_job *j = NULL;
	pthread_mutex_lock(&pool.mu);
	if (a->state == AN_QUEUED && a->refs == 2) {
		/* Never started, and nothing will want it (no waiter holds
		 * it): not run at all. */
		vrt_analysis **at = &pool.head, *prev = NULL;
		while (*at != a)
			prev = *at, at = &(*at)->next;
		*at = a->next;
		if (pool.tail == a)
			pool.tail = prev;
		a->state = AN_DONE;
		a->res = VRT_JIT_UNAVAILABLE;
		j = take_job(a);
		unref(a); /* the pool's */
	}
	unref(a);
	pthread_mutex_unlock(&pool.mu);
	vrt_jit_job_free(j);
}
