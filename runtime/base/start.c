/* SPDX-License-Identifier: MIT */
/*
 * start.c - what the runtime does once, at the program's first call.
 *
 * Above every other file (only entry.c calls it), so that the things
 * that watch a run may use all the rest: the configuration and the
 * driver's functions (vrt_init, icd.c), the trace's path checked and a
 * bad one reported now rather than at exit (trace.c), and SIGINT and
 * SIGTERM caught for the report (signals.c; the driver may have set
 * handlers of its own by then, as PoCL's LLVM does at clGetDeviceIDs,
 * which the runtime does not define: they are chained to, called after
 * the report on the thread the signal interrupted).
 */
#include "base/base.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void start_once(void)
{
	if (vrt_init() != CL_SUCCESS)
		return;
	vrt_trace_start();
	vrt_signals_install();
}

cl_int vrt_start(void)
{
	pthread_once(&once, start_once);
	return vrt_init();
}
