/* SPDX-License-Identifier: MIT */
/*
 * trace.c - VAST_TRACE=FILE.json: a timeline of every phase.
 *
 * The file is in Chrome's trace-event format (what Perfetto and
 * chrome://tracing open): {"traceEvents": [...]} of complete events
 * ("ph":"X", ts and dur in microseconds) plus one "thread_name" metadata
 * event per track. Each host thread that records a phase gets a track of
 * its own, and so does each of the runtime's own queues.
 *
 * Host phases are timed on the host's monotonic clock (vrt_now_ms).
 * Device phases come from event profiling (OpenCL 1.2 §5.12, the queues
 * are created with CL_QUEUE_PROFILING_ENABLE) and are mapped onto the host
 * clock with one offset per queue, measured when the queue gets its track:
 * a marker's CL_PROFILING_COMMAND_QUEUED against the host time just after
 * it was enqueued. The offset errs late by at most that enqueue's
 * duration (tens of microseconds on a loaded host), written into the
 * track's metadata as clock_error_us; one queue's commands keep their
 * order and never overlap.
 *
 * Events are kept in memory under a mutex and written by an atexit
 * handler to FILE.json.tmp, then renamed over FILE.json; or, when
 * SIGINT or SIGTERM ends the run, by the thread that handles it
 * (signals.c). Every process writes its own: "%p" in the name stands for
 * its pid (as in LLVM_PROFILE_FILE), and its events carry its pid, so
 * traces of the programs of one script can be opened together. The path
 * is checked at start: one that cannot be written is reported then, and
 * nothing is traced.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/base.h"

typedef struct tevent {
	const char *name, *kernel; /* kernel: interned, may be NULL */
	unsigned tid;
	double ts, dur;            /* microseconds */
	long range;
	unsigned long long bytes;
	size_t nranges;            /* a launch's plan: its ranges and frame sets */
	unsigned sets;
} tevent;

typedef struct track {
	cl_command_queue q; /* NULL: a host thread */
	unsigned tid;
	char name[32];
	double offset_us;   /* host = device + offset */
	double error_us;    /* the offset errs late by at most this */
} track;

#define MAX_TRACKS 64
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static tevent *events;
static size_t nevents, cap;
static track tracks[MAX_TRACKS];
static unsigned ntracks, nthreads;
static char **kernels; /* interned kernel names */
static size_t nkernels;
static int registered;
static int written; /* atomic: vrt_trace_rearm runs in a signal handler */
static __thread unsigned my_tid; /* 0: this thread has no track yet */
static char *path;      /* vrt_cfg.trace with %p expanded, for path_pid */
static long path_pid;

static void write_trace(void);

static const char *intern(const char *k)
{
	if (!k)
		return NULL;
	for (size_t i = 0; i < nkernels; i++)
		if (!strcmp(kernels[i], k))
			return kernels[i];
	char **g = vrt_realloc(kernels, (nkernels + 1) * sizeof *g);
	if (!g)
		return NULL;
	kernels = g;
	if (!(kernels[nkernels] = vrt_strdup(k)))
		return NULL;
	return kernels[nkernels++];
}

/* Called with mu held. */
static track *new_track(cl_command_queue q, const char *name)
{
	if (ntracks == MAX_TRACKS)
		return NULL;
	track *t = &tracks[ntracks++];
	t->q = q;
	t->tid = ntracks;
	snprintf(t->name, sizeof t->name, "%s", name);
	if (!registered) {
		registered = 1;
		atexit(write_trace);
	}
	return t;
}

/* Called with mu held; the event, or NULL when it could not be kept. */
static tevent *add(const char *name, const char *kernel, unsigned tid, double ts, double dur,
                long range, unsigned long long bytes)
{
	if (VRT_GROW(&events, &cap, nevents + 1))
		return NULL; /* the trace loses an event; the program goes on */
	events[nevents] = (tevent){name, intern(kernel), tid, ts, dur, range, bytes, 0, 0};
	return &events[nevents++];
}

/* Called with mu held: the calling thread's track, 0 when none is left. */
static unsigned my_track(void)
{
	if (!my_tid) {
		char nm[32];
		snprintf(nm, sizeof nm, "host thread %u", ++nthreads);
		track *t = new_track(NULL, nm);
		my_tid = t ? t->tid : 0;
	}
	return my_tid;
}

void vrt_trace_as(const char *name)
{
	if (!vrt_cfg.trace)
		return;
	pthread_mutex_lock(&mu);
	unsigned tid = 0;
	for (unsigned i = 0; i < ntracks && !tid; i++)
		if (!tracks[i].q && !strcmp(tracks[i].name, name))
			tid = tracks[i].tid;
	if (!tid) {
		track *t = new_track(NULL, name);
		tid = t ? t->tid : 0;
	}
	my_tid = tid;
	pthread_mutex_unlock(&mu);
}

void vrt_trace_plan(const char *kernel, double t0, double t1, size_t nranges, unsigned sets)
{
	if (!vrt_cfg.trace)
		return;
	pthread_mutex_lock(&mu);
	tevent *e = my_track() ? add("plan", kernel, my_tid, t0 * 1e3, (t1 - t0) * 1e3, -1, 0) : NULL;
	if (e) {
		e->nranges = nranges;
		e->sets = sets;
	}
	pthread_mutex_unlock(&mu);
}

void vrt_trace_host(const char *name, const char *kernel, double t0, double t1, long range,
                    unsigned long long bytes)
{
	if (!vrt_cfg.trace)
		return;
	pthread_mutex_lock(&mu);
	if (my_track())
		add(name, kernel, my_tid, t0 * 1e3, (t1 - t0) * 1e3, range, bytes);
	pthread_mutex_unlock(&mu);
}

static cl_ulong prof(cl_event e, cl_profiling_info what)
{
	cl_ulong t = 0;
	vrt_real.clGetEventProfilingInfo(e, what, sizeof t, &t, NULL);
	return t;
}

/* A few markers: the one whose enqueue took least time bounds the offset
 * best (the first command on a new queue may pay for its set-up). */
void vrt_trace_queue(cl_command_queue q, const char *name)
{
	if (!vrt_cfg.trace)
		return;
	double best = -1, offset = 0;
	for (int i = 0; i < 8; i++) {
		cl_event m = NULL;
		double before = vrt_now_ms() * 1e3;
		if (vrt_real.clEnqueueMarkerWithWaitList(q, 0, NULL, &m) != CL_SUCCESS)
			return;
		double after = vrt_now_ms() * 1e3;
		vrt_real.clWaitForEvents(1, &m);
		double dev = (double)prof(m, CL_PROFILING_COMMAND_QUEUED) / 1e3;
		vrt_real.clReleaseEvent(m);
		if (best < 0 || after - before < best) {
			best = after - before;
			offset = after - dev;
		}
	}
	pthread_mutex_lock(&mu);
	track *t = new_track(q, name);
	if (t) {
		t->offset_us = offset;
		t->error_us = best;
	}
	pthread_mutex_unlock(&mu);
}

void vrt_trace_device(const char *name, const char *kernel, cl_command_queue q,
                      cl_event first, cl_event last, long range, unsigned long long bytes)
{
	if (!vrt_cfg.trace || !first)
		return;
	double t0 = (double)prof(first, CL_PROFILING_COMMAND_START) / 1e3;
	double t1 = (double)prof(last ? last : first, CL_PROFILING_COMMAND_END) / 1e3;
	pthread_mutex_lock(&mu);
	for (unsigned i = 0; i < ntracks; i++)
		if (tracks[i].q == q) {
			add(name, kernel, tracks[i].tid, t0 + tracks[i].offset_us,
			    t1 > t0 ? t1 - t0 : 0, range, bytes);
			break;
		}
	pthread_mutex_unlock(&mu);
}

/* A JSON string of a kernel name (identifiers, but quote anyway). */
static void put_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if ((unsigned char)*s >= 0x20)
			fputc(*s, f);
	}
	fputc('"', f);
}

/* VAST_TRACE with every "%p" replaced by pid (vrt_malloc'd), or NULL. */
static char *expand(const char *pattern, long pid)
{
	char num[24];
	int nn = snprintf(num, sizeof num, "%ld", pid);
	size_t n = 1;
	for (const char *p = pattern; *p; p++)
		n += p[0] == '%' && p[1] == 'p' ? (p++, (size_t)nn) : 1;
	char *out = vrt_malloc(n), *o = out;
	if (!out)
		return NULL;
	for (const char *p = pattern; *p; p++) {
		if (p[0] == '%' && p[1] == 'p') {
			memcpy(o, num, (size_t)nn);
			o += nn;
			p++;
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	return out;
}

/* The trace's path for this process (a child forked after the start
 * writes its own); called with mu held. */
static const char *trace_path(void)
{
	long pid = (long)getpid();
	if (!path || path_pid != pid) {
		char *p = expand(vrt_cfg.trace, pid);
		if (!p)
			return NULL;
		vrt_free(path);
		path = p;
		path_pid = pid;
	}
	return path;
}

/* Why p cannot be written as the trace is (write_events): NULL when it
 * can. A regular file, or none yet, is written beside and renamed over,
 * so its directory must be writable too. */
static const char *unwritable(const char *p)
{
	struct stat st;
	if (stat(p, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return "it is a directory";
		if (access(p, W_OK))
			return strerror(errno);
		if (!S_ISREG(st.st_mode))
			return NULL; /* written through (/dev/stdout, a FIFO) */
	} else if (errno != ENOENT) {
		return strerror(errno);
	}
	const char *slash = strrchr(p, '/');
	char *dir = slash ? vrt_strdup(p) : NULL;
	if (slash && !dir)
		return NULL; /* unknown: found out at exit */
	if (dir)
		dir[slash - p + (slash == p)] = '\0';
	int bad = access(dir ? dir : ".", W_OK | X_OK);
	const char *why = bad ? strerror(errno) : NULL;
	vrt_free(dir);
	return why;
}

void vrt_trace_start(void)
{
	if (!vrt_cfg.trace)
		return;
	pthread_mutex_lock(&mu);
	const char *p = trace_path();
	const char *why = p ? unwritable(p) : NULL;
	if (why) {
		vrt_log(VRT_LOG_WARN, "cannot write the trace '%s': %s; tracing nothing", p, why);
		vrt_cfg.trace = NULL;
	}
	pthread_mutex_unlock(&mu);
}

/* Writes the events kept so far; called with mu held. */
static void write_events(void)
{
	const char *p = trace_path();
	if (!p) {
		vrt_log(VRT_LOG_WARN, "cannot write the trace '%s': out of memory", vrt_cfg.trace);
		return;
	}
	size_t n = strlen(p);
	char *tmp = vrt_malloc(n + 5);
	FILE *f = NULL;
	/* A trace that is not a regular file (/dev/stdout, a FIFO) is written
	 * through: renamed over, it would be replaced by a file. */
	struct stat st;
	int through = lstat(p, &st) == 0 && !S_ISREG(st.st_mode);
	if (tmp) {
		memcpy(tmp, p, n);
		memcpy(tmp + n, ".tmp", 5);
		f = fopen(through ? p : tmp, "w");
	}
	if (!f) {
		vrt_log(VRT_LOG_WARN, "cannot write the trace '%s'", p);
		vrt_free(tmp);
		return;
	}
	long pid = (long)getpid();
	fputs("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n", f);
	for (unsigned i = 0; i < ntracks; i++)
		fprintf(f, "{\"ph\":\"M\",\"pid\":%ld,\"tid\":%u,\"name\":\"thread_name\","
		        "\"args\":{\"name\":\"%s\",\"clock_error_us\":%.3f}},\n", pid, tracks[i].tid,
		        tracks[i].name, tracks[i].error_us);
	for (size_t i = 0; i < nevents; i++) {
		const tevent *e = &events[i];
		fprintf(f, "{\"ph\":\"X\",\"pid\":%ld,\"tid\":%u,\"name\":\"%s\",\"cat\":\"%s\","
		        "\"ts\":%.3f,\"dur\":%.3f,\"args\":{", pid, e->tid, e->name,
		        e->range >= 0 ? "range" : "launch", e->ts, e->dur);
		fprintf(f, "\"range\":%ld,\"bytes\":%llu", e->range, e->bytes);
		if (e->sets)
			fprintf(f, ",\"ranges\":%zu,\"sets\":%u", e->nranges, e->sets);
		if (e->kernel) {
			fputs(",\"kernel\":", f);
			put_str(f, e->kernel);
		}
		fputs("}},\n", f);
	}
	/* The metadata event closes the list without a trailing comma. */
	fprintf(f, "{\"ph\":\"M\",\"pid\":%ld,\"name\":\"process_name\",\"args\":{\"name\":", pid);
	put_str(f, vrt_program_name());
	fputs("}}\n]}\n", f);
	int bad = ferror(f);
	bad |= fclose(f) != 0;
	if (bad || (!through && rename(tmp, p) != 0)) {
		vrt_log(VRT_LOG_WARN, "cannot write the trace '%s'", p);
		if (!through)
			remove(tmp);
	}
	vrt_free(tmp);
}

static void write_trace(void)
{
	vrt_retired_wait(); /* their commands are traced too */
	pthread_mutex_lock(&mu);
	if (!__atomic_load_n(&written, __ATOMIC_SEQ_CST) && vrt_cfg.trace)
		write_events();
	__atomic_store_n(&written, 1, __ATOMIC_SEQ_CST);
	vrt_free(events);
	events = NULL;
	nevents = cap = 0;
	for (size_t i = 0; i < nkernels; i++)
		vrt_free(kernels[i]);
	vrt_free(kernels);
	kernels = NULL;
	nkernels = 0;
	vrt_free(path);
	path = NULL;
	pthread_mutex_unlock(&mu);
}

void vrt_trace_rearm(void)
{
	/* Without mu: the thread the signal interrupted may hold it. */
	__atomic_store_n(&written, 0, __ATOMIC_SEQ_CST);
}

void vrt_trace_signal(void)
{
	/* The executors may still be running: what they traced so far. The
	 * events are kept: a program that goes on writes them all at exit. */
	pthread_mutex_lock(&mu);
	if (!__atomic_load_n(&written, __ATOMIC_SEQ_CST) && vrt_cfg.trace && ntracks)
		write_events();
	__atomic_store_n(&written, 1, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&mu);
}
