/* SPDX-License-Identifier: MIT */
/*
 * queue.c - the runtime's commands, run in queue order by one executor
 * per program command queue.
 *
 * An enqueue the runtime handles checks its arguments, captures what the
 * command needs (OpenCL 1.2 §5.2.2, §5.8: argument values as they are at
 * the enqueue; the objects retained until it completes) and submits it
 * here. A non-blocking command goes to its queue's executor thread,
 * created at the first one, and the enqueue returns at once; the
 * executor runs its commands one at a time in the order enqueued (an
 * out-of-order queue may run them in order, §5.11). A blocking command
 * waits for its turn there, or runs on the calling thread when nothing
 * is pending on the queue.
 *
 * Order with the driver's own commands on the same queue (the program's
 * forwarded enqueues, markers, barriers) comes from two markers the
 * runtime enqueues on the program's queue: `pre`, which the executor
 * waits for (and for the wait list) before running, and the
 * event handed to the program (event.c), which waits for a user event
 * the executor completes afterwards. `pre` is left out when nothing but
 * the runtime's own commands went on the queue since the last one: every
 * enqueue a program can make lands in the runtime (entrypoints.def,
 * foreign.def), and those it forwards mark their queue (`foreign`),
 * provided the process's calls all reach it (vrt_entries_interposed; no
 * extension's enqueue is handed out, extension.c). Two driver calls on the
 * program's thread and two on the executor's a command fewer, which on
 * NVIDIA's driver also slowed each other's calls (measured on the H100: a
 * cached native launch 42 -> 22 us of host time, a paged one 55 -> 30).
 * The work itself goes to a private queue of the executor, never to the
 * program's, whose head may be waiting for another executor that waits
 * for the big lock.
 *
 * A command runs under the big lock (vrt_lock); waiting for its wait
 * list does not.
 *
 * An executor lives as long as the program holds its queue: the runtime
 * counts the program's references of the queues it saw made (their
 * create, retain and release calls are its entry points), and the
 * release of the last one retires the executor, which runs what is
 * still queued and then ends, while the release returns at once (OpenCL
 * 1.2 §5.1: the commands complete, then the queue goes). The process's
 * exit waits for such executors (vrt_retired_wait) before the
 * runtime's reports and the driver's teardown, which they would race:
 * a program may release its queue and context and return from main with
 * commands still queued. The driver keeps the context alive meanwhile
 * (the queues and events retain it); the runtime keeps no record of its
 * own that a context's release ends. The executor
 * needs nothing of the program's queue by then: its work goes to its own
 * queue, and the markers it waits for and completes are events, which
 * hold the program's queue in the driver as long as they live. The
 * record leaves the list before the driver sees the last release: a
 * queue the driver makes later at the same address is another queue.
 *
 * A launch may leave its last device work in flight (tail.c): the
 * executor completes it (waits, checks, ends its event) only after it
 * ran the next command, so the device has that command's kernel queued
 * while the host waits, and runs the two back to back. At most one
 * command is in flight, and only a launch may run beside it: any other
 * command, one with a wait list, or one after a launch the program holds
 * an event of (its marker orders the program's queue) waits for it
 * first. A command in flight that fails fails the launch run beside it
 * too, which may have read what it wrote.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exec/exec.h"

typedef struct vrt_exec vrt_exec;
struct vrt_exec {
	cl_command_queue q;   /* the program's: the key (retained only when held) */
	cl_command_queue own; /* where the work goes; NULL until the first command */
	cl_context ctx;       /* q's */
	cl_device_id dev;
	cl_uint refs;         /* the program's references to q, when counted */
	int counted;          /* q was made through the runtime: refs is exact */
	int held;             /* not counted: the record holds a reference to q */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	vrt_cmd *head, *tail; /* head: running or next */
	vrt_cmd *inflight;    /* ran, its device work not yet seen to end */
	int thread_live;
	int retired;          /* out of the list: ends once its commands ran */
	int hurry;            /* someone waits for the queue to drain */
	int foreign;          /* the program's own commands went on q since `pre` */
	int long_run;         /* a run of whole writes outlasted wait_for_next */
	int coming;           /* enqueues under way on q (vrt_queue_coming) */
	pthread_t thread;
	vrt_exec *next;
};

static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
static vrt_exec *execs;


/* A record of q, without a queue or thread of its own yet; NULL without
 * memory. */
static vrt_exec *exec_new(cl_command_queue q, cl_context ctx, cl_device_id dev)
{
	vrt_exec *x = vrt_calloc(1, sizeof *x);
	if (!x)
		return NULL;
	x->q = q;
	x->ctx = ctx;
	x->dev = dev;
	x->foreign = 1; /* whatever the program put on q before */
	pthread_mutex_init(&x->mu, NULL);
	pthread_cond_init(&x->cv, NULL);
	return x;
}

/* Frees x, out of the list, its thread ended or never started. */
static void exec_free(vrt_exec *x)
{
	if (x->own)
		vrt_real.clReleaseCommandQueue(x->own);
	if (x->held)
		vrt_real.clReleaseCommandQueue(x->q);
	pthread_mutex_destroy(&x->mu);
	pthread_cond_destroy(&x->cv);
	vrt_free(x);
}

/* The link to q's record in the list (list_lock held). */
static vrt_exec **link_of(cl_command_queue q)
{
	vrt_exec **p;
	for (p = &execs; *p && (*p)->q != q; p = &(*p)->next)
		;
	return p;
}

/* q's executor, with its own queue, created (without its thread) when
 * absent. A queue the runtime did not see made has a record that holds
 * it, so that its address is not the key of another queue later. */
static cl_int exec_for(cl_command_queue q, vrt_exec **out)
{
	pthread_mutex_lock(&list_lock);
	vrt_exec *x = *link_of(q);
	cl_int err = CL_SUCCESS;
	if (!x) {
		cl_context ctx;
		cl_device_id dev;
		err = clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL);
		if (err == CL_SUCCESS)
			err = clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof dev, &dev, NULL);
		if (err == CL_SUCCESS && !(x = exec_new(q, ctx, dev)))
			err = CL_OUT_OF_HOST_MEMORY;
		if (x && (err = vrt_real.clRetainCommandQueue(q)) != CL_SUCCESS) {
			exec_free(x);
			x = NULL;
		} else if (x) {
			x->held = 1;
			x->next = execs;
			execs = x;
		}
	}
	/* Profiling for the kernels' own time (VAST_STATS=2). */
	if (x && !x->own)
		x->own = vrt_queue_create(x->ctx, x->dev,
		                          vrt_cfg.stats >= 2 ? CL_QUEUE_PROFILING_ENABLE : 0, &err);
	pthread_mutex_unlock(&list_lock);
	*out = err == CL_SUCCESS ? x : NULL;
	return err;
}

static void release_captures(vrt_cmd *c)
{
	for (cl_uint i = 0; i < c->nwait; i++)
		vrt_event_release(c->wait[i]);
	vrt_free(c->wait);
	c->wait = NULL;
	if (c->pre)
		vrt_real.clReleaseEvent(c->pre);
	c->pre = NULL;
}

/* The command running under the lock and its executor (start). */
static const vrt_cmd *running;
static vrt_exec *running_on;

/* Runs c on `own` once its wait list is complete; c->deferred when it
 * left device work in flight. */
static cl_int start(vrt_exec *x, vrt_cmd *c)
{
	cl_command_queue own = x->own;
	double t0 = vrt_now_ms();
	cl_int err = c->pre ? vrt_real.clWaitForEvents(1, &c->pre) : CL_SUCCESS;
	if (err == CL_SUCCESS && c->nwait)
		err = vrt_real.clWaitForEvents(c->nwait, c->wait);
	if (c->pre || c->nwait)
		vrt_trace_host("wait", "", t0, vrt_now_ms(), -1, 0);
	if (err != CL_SUCCESS || vrt_events_failed(c->nwait, c->wait))
		err = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
	vrt_event_submitted(c->ev);
	vrt_lock();
	vrt_event_started(c->ev);
	/* Whole writes left pending for a launch (pending.c): copied now
	 * unless c is that launch, or one of the whole writes queued before
	 * it (c->after), whatever c is and whichever queue; after c, all but
	 * what is left for c->after (so a launch, run or not, leaves none
	 * behind). */
	vrt_pend_settle_except(c->waits_for_next && c->after ? c->after : c);
	running = c;
	running_on = x;
	if (err == CL_SUCCESS)
		err = c->run(c, own);
	running = NULL;
	running_on = NULL;
	vrt_pend_settle_except(c->after);
	vrt_unlock();
	return err;
}

/* Ends c, which ran with result err: what it left in flight completed,
 * its events ended and its captures released. */
static cl_int complete(vrt_cmd *c, cl_int err)
{
	double t0 = vrt_now_ms();
	/* The program's enqueues need the lock: not held while waiting. */
	if (c->deferred && c->await)
		c->await(c);
	vrt_lock();
	if (c->deferred) {
		cl_int e = c->finish(c);
		err = err ? err : e;
		c->deferred = 0;
	}
	if (err != CL_SUCCESS && !c->blocking && c->fail)
		c->fail(c, err);
	c->drop(c);
	vrt_unlock();
	if (err != CL_SUCCESS)
		vrt_log(VRT_LOG_INFO, "a command failed: %s", vrt_cl_error_name(err));
	vrt_event_ended(c->ev, err);
	if (c->user) {
		clSetUserEventStatus(c->user, CL_COMPLETE);
		vrt_real.clReleaseEvent(c->user);
	}
	release_captures(c);
	vrt_trace_host("complete", "", t0, vrt_now_ms(), -1, 0);
	return err;
}

unsigned long vrt_queue_next(int (*is)(const vrt_cmd *c, const void *arg), const void *arg)
{
	if (!running || !running_on)
		return 0;
	vrt_exec *x = running_on;
	unsigned long d = 1, r = VRT_NEVER;
	pthread_mutex_lock(&x->mu);
	const vrt_cmd *n = running->next;
	if (!n)
		r = 0; /* nothing queued: nothing known */
	for (; n; n = n->next, d++)
		if (is(n, arg)) {
			r = d;
			break;
		}
	pthread_mutex_unlock(&x->mu);
	return r;
}

int vrt_queue_running(int (*is)(const vrt_cmd *c, const void *arg), const void *arg)
{
	return running && is(running, arg);
}

static int uses_mem(const vrt_cmd *c, const void *m)
{
	return c->uses && c->uses(c, m);
}

unsigned long vrt_queue_next_use(const vrt_mem *m)
{
	return vrt_queue_next(uses_mem, m);
}

void vrt_queue_behind(int (*fn)(void *ctx, const vrt_cmd *c), void *ctx)
{
	if (!running || !running_on)
		return;
	vrt_exec *x = running_on;
	pthread_mutex_lock(&x->mu);
	for (const vrt_cmd *n = running->next; n && fn(ctx, n); n = n->next)
		;
	pthread_mutex_unlock(&x->mu);
}

/* Runs c and ends it, on the calling thread. */
static cl_int execute(vrt_exec *x, vrt_cmd *c)
{
	return complete(c, start(x, c));
}

/* Ends the command in flight on x, if any (executor thread, x->mu not
 * held); its result, CL_SUCCESS when none. */
static cl_int settle(vrt_exec *x)
{
	vrt_cmd *c = x->inflight;
	if (!c)
		return CL_SUCCESS;
	cl_int err = complete(c, c->err);
	pthread_mutex_lock(&x->mu);
	x->inflight = NULL;
	pthread_cond_broadcast(&x->cv);
	pthread_mutex_unlock(&x->mu);
	vrt_free(c); /* never blocking (may_defer) */
	return err;
}

/* c may run while x's command in flight has not ended. */
static int may_overlap(const vrt_exec *x, const vrt_cmd *c)
{
	return c->overlaps && !c->nwait && !x->inflight->ev;
}

/* The first command after c that is no whole write like it (the one a
 * run of whole writes waits for, wait_for_next), or NULL. */
static vrt_cmd *chain_end(const vrt_cmd *c)
{
	vrt_cmd *n = c->next;
	while (n && n->waits_for_next)
		n = n->next;
	return n;
}

/* Runs x's head c, then ends the command in flight before it and,
 * unless c left work in flight itself, c. */
static void step(vrt_exec *x, vrt_cmd *c)
{
	if (x->inflight && !may_overlap(x, c))
		settle(x);
	c->may_defer = !c->blocking && c->finish && vrt_cfg.overlap;
	if (c->waits_for_next) { /* the only one that asks */
		pthread_mutex_lock(&x->mu);
		c->after = chain_end(c); /* queued behind it until it ran */
		pthread_mutex_unlock(&x->mu);
	}
	cl_int err = start(x, c);
	if (x->inflight)
		x->inflight->overlapped = 1;
	/* It ran beside a command that then failed: it may have read what
	 * that one wrote. */
	if (settle(x) != CL_SUCCESS && err == CL_SUCCESS)
		err = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
	if (c->deferred) {
		c->err = err;
		pthread_mutex_lock(&x->mu);
		x->inflight = c;
		pthread_mutex_unlock(&x->mu);
	} else {
		err = complete(c, err);
	}
	pthread_mutex_lock(&x->mu);
	x->head = c->next;
	if (!x->head)
		x->tail = NULL;
	if (c->blocking) {
		c->err = err;
		c->done = 1; /* the submitter frees it */
	} else if (!c->deferred) {
		vrt_free(c);
	}
	pthread_cond_broadcast(&x->cv);
	pthread_mutex_unlock(&x->mu);
}

/* A whole write the launch after it may copy itself, range by range
 * (pending.c), needs that launch queued when it runs: the program
 * enqueues it microseconds later, so the executor waits for the next
 * command up to VRT_WAIT_NEXT_US, less if the queue is drained meanwhile
 * (x->mu held). A program writes its inputs one after another, then
 * launches: the command after a run of such writes is the one each of
 * them waits for (chain_end); once a run outlasted the wait (a program
 * writing many buffers), the rest of it waits for the next command only,
 * as a single write does. Commands need not start before a flush
 * (OpenCL 1.2 §5.13), and nothing the program holds can wait for these
 * writes alone: they have no event. */
/* The program's next enqueue comes microseconds later, but on a loaded
 * machine (two cores running a parallel test suite) it took over 1 ms
 * at times. Waiting costs nothing the program sees: a flush or finish
 * cuts it (x->hurry), and commands need not start before one. */
#define VRT_WAIT_NEXT_US 10000

static void wait_for_next(vrt_exec *x, const vrt_cmd *c)
{
	if (!c->waits_for_next) {
		x->long_run = 0;
		return;
	}
	if (chain_end(c) || (x->long_run && c->next) || !vrt_cfg.overlap)
		return;
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += VRT_WAIT_NEXT_US * 1000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	/* An enqueue under way (a launch waiting for its program's
	 * variants, launch.c) is the next command: waited for whole. */
	while (!chain_end(c) && !(x->long_run && c->next) && !x->retired && !x->hurry &&
	       (x->coming ? pthread_cond_wait(&x->cv, &x->mu)
	                  : pthread_cond_timedwait(&x->cv, &x->mu, &until)) == 0)
		;
	if (!chain_end(c) && c->next)
		x->long_run = 1;
}

static void *executor(void *p)
{
	vrt_exec *x = p;
	pthread_mutex_lock(&x->mu);
	for (;;) {
		/* Nothing next: what is in flight ends now, not later. */
		while (!x->head && x->inflight) {
			pthread_mutex_unlock(&x->mu);
			settle(x);
			pthread_mutex_lock(&x->mu);
		}
		while (!x->head && !x->retired)
			pthread_cond_wait(&x->cv, &x->mu);
		if (!x->head)
			break;
		vrt_cmd *c = x->head;
		wait_for_next(x, c);
		pthread_mutex_unlock(&x->mu);
		step(x, c);
		pthread_mutex_lock(&x->mu);
		if (x->retired)
			vrt_retired_step();
	}
	pthread_mutex_unlock(&x->mu);
	/* Retired and drained: nothing else knows x any more. */
	pthread_detach(pthread_self());
	exec_free(x);
	vrt_retired_end();
	return NULL;
}


/* At exit, before the handlers registered earlier: the driver's (it made
 * the program's queue before its first executor starts, which registers
 * this) and, where registered earlier, the runtime's report and trace,
 * which wait first themselves (stats.c, trace.c). */
static void register_wait_at_exit(void)
{
	atexit(vrt_retired_wait);
}

/* The marker on the program's queue, with the wait list `w`, flushed:
 * the executor (another thread) waits for it, and a driver need not
 * submit a command nobody flushed (OpenCL 1.2 §5.13; NVIDIA's does not,
 * so a program's clFinish, which drains the executor first, waited for
 * ever behind a non-blocking write). */
static cl_int marker(cl_command_queue q, cl_uint n, const cl_event *w, cl_event *out)
{
	cl_int err = vrt_real.clEnqueueMarkerWithWaitList(q, n, w, out);
	return err == CL_SUCCESS ? vrt_real.clFlush(q) : err;
}

/* The command with the marker `event` (NULL: none) went to its
 * executor: the marker is flushed, as marker() does. The command stands
 * whatever the flush says. */
static void queued(cl_command_queue q, const cl_event *event)
{
	cl_int err = event ? vrt_real.clFlush(q) : CL_SUCCESS;
	if (err != CL_SUCCESS)
		vrt_log(VRT_LOG_WARN, "clFlush of a command's event marker failed (%s): its event may never complete",
		        vrt_cl_error_name(err));
}

/* c was never queued: its objects go back, as if never enqueued. */
static cl_int abandon(vrt_cmd *c, cl_int err)
{
	vrt_lock();
	c->drop(c);
	vrt_unlock();
	vrt_free(c);
	return err;
}

cl_int vrt_submit(vrt_cmd *c, cl_command_queue q, cl_command_type type, cl_bool blocking,
                  cl_uint nw, const cl_event *w, cl_event *event)
{
	vrt_exec *x;
	cl_int err = exec_for(q, &x);
	if (err == CL_SUCCESS && nw) {
		c->wait = vrt_malloc(nw * sizeof *w);
		if (!c->wait)
			err = CL_OUT_OF_HOST_MEMORY;
	}
	if (err != CL_SUCCESS)
		return abandon(c, err);
	/* q itself is not retained: the executor needs only its own queue
	 * and the events (see the top of this file). */
	for (cl_uint i = 0; i < nw; i++) {
		c->wait[i] = w[i];
		vrt_event_retain(w[i]);
	}
	c->nwait = nw;
	c->blocking = blocking;
	c->after = NULL; /* step() sets it */
	c->ev = event ? vrt_event_new(q, type) : NULL;
	if (event && !c->ev) {
		release_captures(c);
		return abandon(c, CL_OUT_OF_HOST_MEMORY);
	}
	/* After the program's earlier commands on q, where there may be any.
	 * Not with the wait list: the driver would fail the marker, and with
	 * it every later command of the queue, when one of the events fails;
	 * the executor waits for the list itself. */
	c->pre = NULL;
	if (__atomic_exchange_n(&x->foreign, 0, __ATOMIC_SEQ_CST) ||
	    !vrt_entries_interposed()) {
		err = marker(q, 0, NULL, &c->pre);
		if (err != CL_SUCCESS)
			__atomic_store_n(&x->foreign, 1, __ATOMIC_SEQ_CST);
	}
	pthread_mutex_lock(&x->mu);
	int idle = !x->head && !x->inflight;
	pthread_mutex_unlock(&x->mu);
	if (err == CL_SUCCESS && blocking && idle) {
		err = execute(x, c);
		if (event && c->ev) {
			/* Complete already: a marker with nothing to wait for. */
			cl_int e2 = marker(q, 0, NULL, event);
			if (e2 == CL_SUCCESS)
				vrt_event_bind(c->ev, *event);
			else
				err = err ? err : e2;
		}
		vrt_free(c);
		return err;
	}
	/* The program's event: a marker behind a user event the executor
	 * completes. Without one, nothing on q waits for the command (the
	 * next command of the runtime's waits in the executor): no user
	 * event, three driver calls fewer a command. */
	if (err == CL_SUCCESS && event) {
		cl_context ctx = NULL;
		clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof ctx, &ctx, NULL);
		c->user = clCreateUserEvent(ctx, &err);
	}
	/* Flushed once c is queued (queued): a driver that runs its queue
	 * in clFlush (Oclgrind) waits there for the user event, which only
	 * the executor completes. */
	if (err == CL_SUCCESS && event) {
		err = vrt_real.clEnqueueMarkerWithWaitList(q, 1, &c->user, event);
		if (err == CL_SUCCESS && c->ev)
			vrt_event_bind(c->ev, *event);
	}
	if (err != CL_SUCCESS) {
		/* Nothing was queued: undo, as if never enqueued. */
		if (c->user) {
			clSetUserEventStatus(c->user, CL_COMPLETE);
			vrt_real.clReleaseEvent(c->user);
		}
		vrt_event_ended(c->ev, err);
		release_captures(c);
		return abandon(c, err);
	}
	pthread_mutex_lock(&x->mu);
	if (!x->thread_live) {
		static pthread_once_t at_exit = PTHREAD_ONCE_INIT;
		pthread_once(&at_exit, register_wait_at_exit);
		if (pthread_create(&x->thread, NULL, executor, x) != 0) {
			pthread_mutex_unlock(&x->mu);
			/* Run it here instead: the queue stays in order. */
			err = execute(x, c);
			vrt_free(c);
			queued(q, event);
			return blocking ? err : CL_SUCCESS;
		}
		x->thread_live = 1;
	}
	if (x->tail)
		x->tail->next = c;
	else
		x->head = c;
	x->tail = c;
	pthread_cond_broadcast(&x->cv);
	if (!blocking) {
		pthread_mutex_unlock(&x->mu);
		queued(q, event);
		return CL_SUCCESS;
	}
	pthread_mutex_unlock(&x->mu);
	queued(q, event);
	pthread_mutex_lock(&x->mu);
	while (!c->done)
		pthread_cond_wait(&x->cv, &x->mu);
	pthread_mutex_unlock(&x->mu);
	err = c->err;
	vrt_free(c);
	return err;
}

cl_int vrt_queue_info(cl_command_queue q, cl_context *ctx, cl_device_id *dev)
{
	pthread_mutex_lock(&list_lock);
	vrt_exec *x = *link_of(q);
	if (x) {
		*ctx = x->ctx;
		*dev = x->dev;
	}
	pthread_mutex_unlock(&list_lock);
	if (x)
		return CL_SUCCESS;
	if (!q || clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof *ctx, ctx, NULL) != CL_SUCCESS ||
	    clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof *dev, dev, NULL) != CL_SUCCESS)
		return CL_INVALID_COMMAND_QUEUE;
	return CL_SUCCESS;
}

/* q's executor, NULL if none. */
static vrt_exec *exec_of(cl_command_queue q)
{
	pthread_mutex_lock(&list_lock);
	vrt_exec *x = *link_of(q);
	pthread_mutex_unlock(&list_lock);
	return x;
}

void vrt_queue_drain(cl_command_queue q)
{
	vrt_exec *x = exec_of(q);
	if (!x)
		return;
	pthread_mutex_lock(&x->mu);
	x->hurry++;
	pthread_cond_broadcast(&x->cv);
	while (x->head || x->inflight)
		pthread_cond_wait(&x->cv, &x->mu);
	x->hurry--;
	pthread_mutex_unlock(&x->mu);
}

void vrt_queue_coming(cl_command_queue q, int delta)
{
	vrt_exec *x = exec_of(q);
	if (!x)
		return;
	pthread_mutex_lock(&x->mu);
	/* Never below 0: a +1 before q had an executor counted nothing. */
	x->coming = x->coming + delta > 0 ? x->coming + delta : 0;
	pthread_cond_broadcast(&x->cv);
	pthread_mutex_unlock(&x->mu);
}

void vrt_queue_foreign(cl_command_queue q)
{
	pthread_mutex_lock(&list_lock);
	for (vrt_exec *x = execs; x; x = x->next)
		if (x->q == q)
			__atomic_store_n(&x->foreign, 1, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&list_lock);
}

cl_int vrt_forwarded(cl_command_queue q, cl_int err)
{
	vrt_queue_foreign(q);
	return err;
}

/* x, out of the list, ends once what is queued on it ran: its thread
 * frees it then, or the caller at once where it has none. Waits for
 * nothing; the process's exit waits for the thread
 * (vrt_retired_wait). */
static void retire(vrt_exec *x)
{
	pthread_mutex_lock(&x->mu);
	x->retired = 1;
	int live = x->thread_live;
	if (live) {
		/* Counted before the thread can see `retired` and end. */
		vrt_retired_start();
	}
	pthread_cond_broadcast(&x->cv);
	pthread_mutex_unlock(&x->mu);
	if (!live)
		exec_free(x);
}

/* The queues the program makes: counted from here on (see the top). */
static cl_command_queue made(cl_command_queue q, cl_context ctx, cl_device_id dev)
{
	vrt_exec *x = q ? exec_new(q, ctx, dev) : NULL;
	if (!x)
		return q; /* without memory: a record that holds q, if it gets one */
	x->counted = 1;
	x->refs = 1;
	pthread_mutex_lock(&list_lock);
	x->next = execs;
	execs = x;
	pthread_mutex_unlock(&list_lock);
	return q;
}

cl_command_queue vrt_api_clCreateCommandQueue(cl_context ctx, cl_device_id dev,
	cl_command_queue_properties props, cl_int *errcode_ret)
{
	if (vrt_init() != CL_SUCCESS) {
		SET_ERR(CL_OUT_OF_RESOURCES);
		return NULL;
	}
	return made(vrt_real.clCreateCommandQueue(ctx, dev, props, errcode_ret), ctx, dev);
}

cl_command_queue vrt_api_clCreateCommandQueueWithProperties(cl_context ctx, cl_device_id dev,
	const cl_queue_properties *props, cl_int *errcode_ret)
{
	if (vrt_init() != CL_SUCCESS) {
		SET_ERR(CL_OUT_OF_RESOURCES);
		return NULL;
	}
	if (vrt_real.clCreateCommandQueueWithProperties)
		return made(vrt_real.clCreateCommandQueueWithProperties(ctx, dev, props, errcode_ret),
		            ctx, dev);
	/* An OpenCL 1.2 loader, which lacks it (icd.c): CL_QUEUE_PROPERTIES
	 * alone is what clCreateCommandQueue takes; anything else has no
	 * 1.2 equivalent. */
	cl_command_queue_properties qp = 0;
	for (size_t i = 0; props && props[i]; i += 2) {
		if (props[i] != CL_QUEUE_PROPERTIES) {
			SET_ERR(CL_INVALID_OPERATION);
			return NULL;
		}
		qp = props[i + 1];
	}
	return made(vrt_real.clCreateCommandQueue(ctx, dev, qp, errcode_ret), ctx, dev);
}

cl_int vrt_api_clRetainCommandQueue(cl_command_queue q)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	cl_int err = vrt_real.clRetainCommandQueue(q);
	pthread_mutex_lock(&list_lock);
	vrt_exec *x = *link_of(q);
	if (err == CL_SUCCESS && x && x->counted)
		x->refs++;
	pthread_mutex_unlock(&list_lock);
	return err;
}

/* The queue entry points the runtime does not run as commands: they
 * order the driver's queue and the executor's. */
cl_int vrt_api_clFinish(cl_command_queue q)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	vrt_queue_drain(q);
	return vrt_real.clFinish(q);
}

/* The executor runs what is queued without being flushed. */
cl_int vrt_api_clFlush(cl_command_queue q)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	return vrt_real.clFlush(q);
}

/* The markers and barriers of the program go to the driver: the
 * runtime's commands have markers of their own on the same queue
 * (queue.c), so they order with them. */
cl_int vrt_api_clEnqueueBarrier(cl_command_queue q)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	return vrt_forwarded(q, vrt_real.clEnqueueBarrier(q));
}

cl_int vrt_api_clEnqueueMarker(cl_command_queue q, cl_event *e)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	return vrt_forwarded(q, vrt_real.clEnqueueMarker(q, e));
}

cl_int vrt_api_clEnqueueBarrierWithWaitList(cl_command_queue q,
	cl_uint n, const cl_event *w, cl_event *e)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	return vrt_forwarded(q, vrt_real.clEnqueueBarrierWithWaitList(q, n, w, e));
}

cl_int vrt_api_clEnqueueMarkerWithWaitList(cl_command_queue q,
	cl_uint n, const cl_event *w, cl_event *e)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	return vrt_forwarded(q, vrt_real.clEnqueueMarkerWithWaitList(q, n, w, e));
}

/* OpenCL 1.2 §5.1: the queue goes once the last reference went and its
 * commands completed, and the release waits for neither: the last one
 * retires its executor (see the top). Device copies retain the
 * executor's queue they live on, so none is stranded. */
cl_int vrt_api_clReleaseCommandQueue(cl_command_queue q)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	pthread_mutex_lock(&list_lock);
	vrt_exec **p = link_of(q), *x = *p;
	int counted = x && x->counted, last = counted && --x->refs == 0;
	if (last)
		*p = x->next; /* before the driver may free q */
	pthread_mutex_unlock(&list_lock);
	if (counted) {
		if (last)
			retire(x);
		return vrt_real.clReleaseCommandQueue(q);
	}
	cl_int err = vrt_real.clReleaseCommandQueue(q);
	/* A queue made out of the runtime's sight: only the record's
	 * reference left means the program has none. Events of q the
	 * program still holds count too: then the record stays, and with
	 * it q, until the process ends. */
	cl_uint refs = 0;
	pthread_mutex_lock(&list_lock);
	p = link_of(q);
	if ((x = *p) && err == CL_SUCCESS &&
	    clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL) ==
	    CL_SUCCESS && refs == 1)
		*p = x->next;
	else
		x = NULL;
	pthread_mutex_unlock(&list_lock);
	if (x)
		retire(x);
	return err;
}
