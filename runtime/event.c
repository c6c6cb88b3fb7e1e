/* SPDX-License-Identifier: MIT */
/*
 * event.c - events of the synchronous execution model, and the queue
 * entry points that only forward.
 *
 * Every command the runtime intercepts has finished when its enqueue
 * returns, blocking or not (OpenCL 1.2 §5.2.2 allows an implementation to
 * complete a non-blocking command early). Its event is a marker enqueued
 * on the same queue after the work, waited on: a real event of the real
 * queue, so clGetEventInfo, clGetEventProfilingInfo, callbacks and wait
 * lists behave as the program expects.
 */
#include "vrt.h"

cl_int vrt_wait_list(cl_command_queue q, cl_context ctx, cl_uint n,
                     const cl_event *list)
{
	/* OpenCL 1.2 §5.2.2 (every enqueue): a valid queue, in the context
	 * of the objects it works on. */
	cl_context qctx;
	if (!q || clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qctx, &qctx, NULL) != CL_SUCCESS)
		return CL_INVALID_COMMAND_QUEUE;
	if (ctx && qctx != ctx)
		return CL_INVALID_CONTEXT;
	if ((n == 0) != (list == NULL))
		return CL_INVALID_EVENT_WAIT_LIST;
	return n ? vrt_real.clWaitForEvents(n, list) : CL_SUCCESS;
}

cl_int vrt_complete(cl_command_queue q, cl_event *event)
{
	if (!event)
		return CL_SUCCESS;
	cl_int err = vrt_real.clEnqueueMarkerWithWaitList(q, 0, NULL, event);
	if (err == CL_SUCCESS)
		err = vrt_real.clWaitForEvents(1, event);
	return err;
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue q)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	return vrt_real.clFinish(q);
}

CL_API_ENTRY cl_int CL_API_CALL clFlush(cl_command_queue q)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	return vrt_real.clFlush(q);
}

CL_API_ENTRY cl_int CL_API_CALL clWaitForEvents(cl_uint n, const cl_event *w)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	return vrt_real.clWaitForEvents(n, w);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue q)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	return vrt_real.clEnqueueBarrier(q);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarker(cl_command_queue q, cl_event *e)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	return vrt_real.clEnqueueMarker(q, e);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue q,
	cl_uint n, const cl_event *w, cl_event *e)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	return vrt_real.clEnqueueBarrierWithWaitList(q, n, w, e);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue q,
	cl_uint n, const cl_event *w, cl_event *e)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	return vrt_real.clEnqueueMarkerWithWaitList(q, n, w, e);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue q)
{
	if (vrt_init() != CL_SUCCESS)
		return CL_OUT_OF_RESOURCES;
	/* Device copies retain the queue they live on, so releasing it here
	 * never strands a dirty buffer. */
	return vrt_real.clReleaseCommandQueue(q);
}
