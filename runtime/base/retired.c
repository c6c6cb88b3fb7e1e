/* SPDX-License-Identifier: MIT */
/*
 * retired.c - the executors of released queues, counted until they end.
 *
 * clReleaseCommandQueue waits for nothing (OpenCL 1.2 §5.1): the last
 * release retires the queue's executor (queue.c), whose thread runs what
 * is still queued and then ends. The process's exit must wait for those
 * threads before the runtime's report and trace are written (stats.c,
 * trace.c: the executors update what they print) and before the driver's
 * own teardown. This file holds only that count, below everything that
 * waits on it, so the report and the trace need not know about queues.
 * Thread-safe: one mutex.
 */
#include <pthread.h>
#include <time.h>

#include "base/base.h"

static pthread_mutex_t retired_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t retired_cv = PTHREAD_COND_INITIALIZER;
static unsigned retired_live;        /* retired executors still running */
static unsigned long retired_steps;  /* commands they have run */
static int retired_abandoned; /* a wait gave up: the next ones do not wait */

void vrt_retired_start(void)
{
	pthread_mutex_lock(&retired_mu);
	retired_live++;
	pthread_mutex_unlock(&retired_mu);
}

void vrt_retired_step(void)
{
	pthread_mutex_lock(&retired_mu);
	retired_steps++;
	pthread_cond_broadcast(&retired_cv);
	pthread_mutex_unlock(&retired_mu);
}

void vrt_retired_end(void)
{
	pthread_mutex_lock(&retired_mu);
	retired_live--;
	pthread_cond_broadcast(&retired_cv);
	pthread_mutex_unlock(&retired_mu);
}

/* How long the exit waits for retired executors that run nothing: their
 * next command waits for an event nobody will complete (a user event the
 * program never set), and the process must still end. */
#define VRT_EXIT_STALL_S 10

void vrt_retired_wait(void)
{
	pthread_mutex_lock(&retired_mu);
	while (retired_live && !retired_abandoned) {
		unsigned long steps = retired_steps;
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += VRT_EXIT_STALL_S;
		int timed_out = 0;
		while (retired_live && retired_steps == steps && !timed_out)
			timed_out = pthread_cond_timedwait(&retired_cv, &retired_mu, &until) != 0;
		if (retired_live && retired_steps == steps) {
			vrt_log(VRT_LOG_WARN, "%u released queue(s) still hold commands that ran nothing for %d s; exiting without them",
			        retired_live, VRT_EXIT_STALL_S);
			retired_abandoned = 1;
		}
	}
	pthread_mutex_unlock(&retired_mu);
}
