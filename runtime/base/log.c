/* SPDX-License-Identifier: MIT */
/*
 * log.c - messages on stderr, prefixed "vast: ", filtered by VAST_LOG.
 *
 * Warnings always print (they tell the user a kernel ran natively or a
 * launch failed and why); info and debug only when asked for.
 */
#include <stdarg.h>
#include <stdio.h>

#include "base/base.h"

/* Set once, as the configuration is read, before any thread but the
 * first can log. */
static int max_level = VRT_LOG_WARN;

void vrt_log_set_level(int level)
{
	max_level = level;
}

int vrt_log_level(void)
{
	return max_level;
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
	/* One fputs per line, so lines of concurrent threads do not mix. */
	char line[1100];
	snprintf(line, sizeof line, "vast: %s%s\n",
	         level == VRT_LOG_WARN ? "warning: " : level == VRT_LOG_INFO ? "info: " : "debug: ",
	         buf);
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
