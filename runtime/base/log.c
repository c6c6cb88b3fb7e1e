/* SPDX-License-Identifier: MIT */
/*
 * log.c - messages on stderr, prefixed "vast: ", filtered by VAST_LOG.
 *
 * Warnings always print (they tell the user a kernel ran natively or a
 * launch failed and why); info and debug only when asked for, each after
 * the seconds since the process started ("vast: info: [1.234] ..."), to
 * line them up with a trace or the program's own output. At VAST_LOG=info
 * a line already printed is not printed again: a program of 2,000
 * launches said the same few lines 2,000 times. VAST_LOG=debug prints
 * every one.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "base/base.h"

/* Set once, as the configuration is read, before any thread but the
 * first can log. */
static int max_level = VRT_LOG_WARN;
static struct timespec start;

/* The lines printed at info level, by hash (FNV-1a): an open-addressed
 * set that stops remembering when full, so a long run's distinct lines
 * cost at most its size. */
#define SEEN_SLOTS 4096
static pthread_mutex_t seen_mu = PTHREAD_MUTEX_INITIALIZER;
static uint64_t seen[SEEN_SLOTS];
static unsigned nseen;

__attribute__((constructor)) static void note_start(void)
{
	clock_gettime(CLOCK_MONOTONIC, &start);
}

void vrt_log_set_level(int level)
{
	max_level = level;
}

int vrt_log_level(void)
{
	return max_level;
}

/* 1 when the line was printed before; else remembers it. */
static int said_before(const char *line)
{
	uint64_t h = 1469598103934665603ull;
	for (const unsigned char *p = (const unsigned char *)line; *p; p++)
		h = (h ^ *p) * 1099511628211ull;
	h |= 1; /* 0 marks an empty slot */
	int before = 0;
	pthread_mutex_lock(&seen_mu);
	for (unsigned i = (unsigned)(h % SEEN_SLOTS), n = 0; n < SEEN_SLOTS;
	     i = (i + 1) % SEEN_SLOTS, n++) {
		if (seen[i] == h) {
			before = 1;
			break;
		}
		if (!seen[i]) {
			if (nseen + 1 < SEEN_SLOTS) { /* one slot stays empty: lookups end */
				seen[i] = h;
				nseen++;
			}
			break;
		}
	}
	pthread_mutex_unlock(&seen_mu);
	return before;
}

void vrt_log(int level, const char *fmt, ...)
{
	if (level > max_level)
		return;
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (level == VRT_LOG_INFO && max_level == VRT_LOG_INFO && said_before(buf))
		return;
	/* One fputs per line, so lines of concurrent threads do not mix. */
	char line[1100];
	if (level == VRT_LOG_WARN) {
		snprintf(line, sizeof line, "vast: warning: %s\n", buf);
	} else {
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		double secs = (double)(now.tv_sec - start.tv_sec) + (now.tv_nsec - start.tv_nsec) / 1e9;
		snprintf(line, sizeof line, "vast: %s: [%.3f] %s\n",
		         level == VRT_LOG_INFO ? "info" : "debug", secs, buf);
	}
	fputs(line, stderr);
}

const char *vrt_cl_error_name(cl_int err)
{
	switch (err) {
#define E(x) case x: return #x;
	E(CL_SUCCESS) E(CL_DEVICE_NOT_FOUND) E(CL_MEM_OBJECT_ALLOCATION_FAILURE)
	E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY) E(CL_BUILD_PROGRAM_FAILURE)
	E(CL_INVALID_VALUE) E(CL_INVALID_CONTEXT) E(CL_INVALID_COMMAND_QUEUE)
	E(CL_INVALID_MEM_OBJECT) E(CL_INVALID_PROGRAM) E(CL_INVALID_KERNEL_NAME)
	E(CL_INVALID_KERNEL) E(CL_INVALID_ARG_INDEX) E(CL_INVALID_ARG_VALUE)
	E(CL_INVALID_ARG_SIZE) E(CL_INVALID_KERNEL_ARGS) E(CL_INVALID_WORK_DIMENSION)
	E(CL_INVALID_WORK_GROUP_SIZE) E(CL_INVALID_WORK_ITEM_SIZE)
	E(CL_INVALID_GLOBAL_OFFSET) E(CL_INVALID_OPERATION)
	E(CL_INVALID_BUFFER_SIZE) E(CL_INVALID_GLOBAL_WORK_SIZE)
	E(CL_INVALID_PROGRAM_EXECUTABLE) E(CL_INVALID_BUILD_OPTIONS)
	E(CL_INVALID_EVENT_WAIT_LIST) E(CL_INVALID_HOST_PTR)
	E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) E(CL_PROFILING_INFO_NOT_AVAILABLE)
#undef E
	default: return "CL_(unknown error)";
	}
}
