/* SPDX-License-Identifier: MIT */
/*
 * event.c - the events of the runtime's commands.
 *
 * A command the runtime runs itself (queue.c) hands the program a real
 * event of the driver: a marker on the program's queue that waits for a
 * user event the runtime completes when the command has run. So the
 * event works wherever the program may pass it (wait lists of forwarded
 * enqueues, clWaitForEvents, clSetEventCallback, clRetain/ReleaseEvent).
 * What the driver cannot know about the marker is kept in a record here
 * and answered for it (OpenCL 1.2 §5.9, §5.12):
 *   - CL_EVENT_COMMAND_TYPE: the command's type, not CL_COMMAND_MARKER;
 *   - CL_EVENT_COMMAND_EXECUTION_STATUS: CL_RUNNING while it runs, then
 *     CL_COMPLETE or the command's negative error;
 *   - profiling: host-clock times (CLOCK_MONOTONIC, ns) the runtime
 *     takes when the command is queued, when its wait list is satisfied
 *     (submit), when it starts and when it ends.
 * The user event always completes with CL_COMPLETE: the driver makes
 * every later command of an in-order queue fail after a failed event,
 * while OpenCL 1.2 §5.9 fails only the commands that wait for it. The
 * failure is in the record: clWaitForEvents and the runtime's own wait
 * lists report CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST.
 * A record lives while the program holds the event (its clRetainEvent
 * and clReleaseEvent are counted) or its command has not ended.
 */
#include <string.h>
#include <time.h>

#include "exec/exec.h"

struct vrt_event {
	cl_event handle;       /* the marker, NULL until it exists */
	cl_command_type type;
	int profiling;         /* its queue has CL_QUEUE_PROFILING_ENABLE */
	cl_uint refs;          /* the program's, plus one until the command ends */
	int state;             /* 0 queued, 1 running, 2 ended */
	cl_int status;         /* once ended: CL_COMPLETE or a negative error */
	cl_ulong t[4];         /* queued, submit, start, end */
	vrt_event *next;
};

/* Its own lock, not the big one: records change while commands run. */
static pthread_mutex_t ev_lock = PTHREAD_MUTEX_INITIALIZER;
static vrt_event *events;

static cl_ulong now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (cl_ulong)ts.tv_sec * 1000000000u + (cl_ulong)ts.tv_nsec;
}

/* The record of e, or NULL; ev_lock held. */
static vrt_event *find(cl_event e)
{
	for (vrt_event *r = events; e && r; r = r->next)
		if (r->handle == e)
			return r;
	return NULL;
}

/* Drops one reference; ev_lock held. */
static void unref(vrt_event *r)
{
	if (--r->refs)
		return;
	for (vrt_event **p = &events; *p; p = &(*p)->next)
		if (*p == r) {
			*p = r->next;
			break;
		}
	vrt_free(r);
}

vrt_event *vrt_event_new(cl_command_queue q, cl_command_type type)
{
	vrt_event *r = vrt_calloc(1, sizeof *r);
	if (!r)
		return NULL;
	cl_command_queue_properties props = 0;
	clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL);
	r->type = type;
	r->profiling = (props & CL_QUEUE_PROFILING_ENABLE) != 0;
	r->refs = 2;
	r->t[0] = now_ns();
	pthread_mutex_lock(&ev_lock);
	r->next = events;
	events = r;
	pthread_mutex_unlock(&ev_lock);
	return r;
}

void vrt_event_bind(vrt_event *r, cl_event handle)
{
	pthread_mutex_lock(&ev_lock);
	r->handle = handle;
	pthread_mutex_unlock(&ev_lock);
}

void vrt_event_submitted(vrt_event *r)
{
	if (!r)
		return;
	pthread_mutex_lock(&ev_lock);
	r->t[1] = now_ns();
	pthread_mutex_unlock(&ev_lock);
}

void vrt_event_started(vrt_event *r)
{
	if (!r)
		return;
	pthread_mutex_lock(&ev_lock);
	r->t[2] = now_ns();
	r->state = 1;
	pthread_mutex_unlock(&ev_lock);
}

void vrt_event_ended(vrt_event *r, cl_int err)
{
	if (!r)
		return;
	pthread_mutex_lock(&ev_lock);
	r->t[3] = now_ns();
	r->state = 2;
	r->status = err == CL_SUCCESS ? CL_COMPLETE : (err < 0 ? err : CL_OUT_OF_RESOURCES);
	unref(r);
	pthread_mutex_unlock(&ev_lock);
}

int vrt_events_failed(cl_uint n, const cl_event *list)
{
	int failed = 0;
	pthread_mutex_lock(&ev_lock);
	for (cl_uint i = 0; i < n && !failed; i++) {
		vrt_event *r = find(list[i]);
		failed = r && r->state == 2 && r->status < 0;
	}
	pthread_mutex_unlock(&ev_lock);
	return failed;
}

cl_int vrt_check_queue(cl_command_queue q, cl_context ctx, cl_uint n, const cl_event *list)
{
	/* OpenCL 1.2 §5.2.2 (every enqueue): a valid queue, in the context
	 * of the objects it works on. */
	cl_context qctx;
	if (!q || clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qctx, &qctx, NULL) != CL_SUCCESS)
		return CL_INVALID_COMMAND_QUEUE;
	if (ctx && qctx != ctx)
		return CL_INVALID_CONTEXT;
	return vrt_check_wait_list(n, list);
}

cl_int vrt_check_wait_list(cl_uint n, const cl_event *list)
{
	if ((n == 0) != (list == NULL))
		return CL_INVALID_EVENT_WAIT_LIST;
	for (cl_uint i = 0; i < n; i++)
		if (!list[i])
			return CL_INVALID_EVENT_WAIT_LIST;
	return CL_SUCCESS;
}

cl_int vrt_wait_events(cl_uint n, const cl_event *list)
{
	if (n == 0)
		return CL_SUCCESS;
	cl_int err = vrt_real.clWaitForEvents(n, list);
	if (err == CL_SUCCESS && vrt_events_failed(n, list))
		err = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
	return err;
}

cl_int vrt_api_clWaitForEvents(cl_uint n, const cl_event *w)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	if (n == 0 || !w)
		return CL_INVALID_VALUE;
	return vrt_wait_events(n, w);
}

cl_int vrt_event_retain(cl_event e)
{
	pthread_mutex_lock(&ev_lock);
	cl_int err = vrt_real.clRetainEvent(e);
	vrt_event *r = err == CL_SUCCESS ? find(e) : NULL;
	if (r)
		r->refs++;
	pthread_mutex_unlock(&ev_lock);
	return err;
}

cl_int vrt_event_release(cl_event e)
{
	/* Under ev_lock: the driver may free the handle and reuse it for
	 * the next marker, which must not find this record. */
	pthread_mutex_lock(&ev_lock);
	cl_int err = vrt_real.clReleaseEvent(e);
	vrt_event *r = err == CL_SUCCESS ? find(e) : NULL;
	if (r) {
		if (r->refs == 1 + (r->state != 2))
			r->handle = NULL; /* the program's last */
		unref(r);
	}
	pthread_mutex_unlock(&ev_lock);
	return err;
}

cl_int vrt_api_clRetainEvent(cl_event e)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	return vrt_event_retain(e);
}

cl_int vrt_api_clReleaseEvent(cl_event e)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	return vrt_event_release(e);
}

cl_int vrt_api_clGetEventInfo(cl_event e, cl_event_info p, size_t s,
	void *v, size_t *ret)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	pthread_mutex_lock(&ev_lock);
	vrt_event *r = find(e);
	cl_int val = 0, ours = 0;
	if (r && p == CL_EVENT_COMMAND_TYPE) {
		val = (cl_int)r->type;
		ours = 1;
	} else if (r && p == CL_EVENT_COMMAND_EXECUTION_STATUS && r->state) {
		val = r->state == 1 ? CL_RUNNING : r->status;
		ours = 1;
	}
	pthread_mutex_unlock(&ev_lock);
	if (!ours)
		return vrt_real.clGetEventInfo(e, p, s, v, ret);
	return vrt_info_out(&val, sizeof val, s, v, ret);
}

cl_int vrt_api_clGetEventProfilingInfo(cl_event e, cl_profiling_info p,
	size_t s, void *v, size_t *ret)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	pthread_mutex_lock(&ev_lock);
	vrt_event *r = find(e);
	cl_int err = CL_SUCCESS;
	cl_ulong t = 0;
	if (r) {
		/* OpenCL 1.2 §5.12: not available unless the queue profiles and
		 * the command is complete. */
		unsigned i = p == CL_PROFILING_COMMAND_COMPLETE ? 3 : p - CL_PROFILING_COMMAND_QUEUED;
		if (i > 3)
			err = CL_INVALID_VALUE;
		else if (!r->profiling || r->state != 2 || r->status != CL_COMPLETE)
			err = CL_PROFILING_INFO_NOT_AVAILABLE;
		else
			t = r->t[i];
	}
	pthread_mutex_unlock(&ev_lock);
	if (!r)
		return vrt_real.clGetEventProfilingInfo(e, p, s, v, ret);
	return err != CL_SUCCESS ? err : vrt_info_out(&t, sizeof t, s, v, ret);
}
