/* SPDX-License-Identifier: MIT */
/*
 * entry.c - the OpenCL entry points libvastrt exports, each a thin
 * wrapper over the runtime's own vrt_api_NAME (defined with its concern:
 * mem.c, transfer.c, launch.c, ...).
 *
 * The program's calls, and the ICD dispatch table of the runtime's
 * objects (object.c), land here; the first starts the runtime (start.c).
 * The runtime itself calls the vrt_api_ functions or, for the driver's
 * objects, vrt_real: never these, so the path a program's call takes
 * (its lock, its records) is taken once.
 */
#include "api/api.h"

#include <CL/cl_gl.h> /* the prototypes of clEnqueueAcquire/ReleaseGLObjects */

#define VRT_ENTRY(ret, name, params, args) \
	CL_API_ENTRY ret CL_API_CALL name params { vrt_start(); return vrt_api_##name args; }
#include "base/entrypoints.def"
#undef VRT_ENTRY

/* The enqueues the runtime does not handle go to the driver as they are,
 * their queue marked (foreign.def). */
#define VRT_FOREIGN(ret, name, params, args, absent)                      \
	CL_API_ENTRY ret CL_API_CALL name params                          \
	{                                                                 \
		if (vrt_start() != CL_SUCCESS || !vrt_real.name)          \
			return absent;                                    \
		ret result_ = vrt_real.name args;                         \
		vrt_queue_foreign(q);                                     \
		return result_;                                           \
	}
#include "base/foreign.def"
#undef VRT_FOREIGN
