/* SPDX-License-Identifier: MIT */
/*
 * extension.c - clGetExtensionFunctionAddress(ForPlatform): the functions
 * a program finds by name.
 *
 * A function found by name is called with whatever the program holds, and
 * its buffers, programs and kernels are the runtime's objects (object.c),
 * not the driver's: the driver's own function, handed out as it is, takes
 * them for its own (CL_INVALID_MEM_OBJECT where it checks, a command that
 * copies nothing where it does not) and runs commands on the program's
 * queues that the runtime never sees. So the runtime decides, by name,
 * what a program gets:
 * - NULL where the driver's lookup (the loader's) gave NULL: a program
 *   may probe a name to learn what the platform has;
 * - a core function, which OpenCL 1.2 §9.2 does not promise by name: the
 *   runtime's entry point where it defines one (entrypoints.def,
 *   foreign.def), else the loader's, which dispatches through the first
 *   object as a direct call does;
 * - an extension's function the driver has and extensions.def lists: the
 *   driver's where it takes none of the runtime's objects, else one of
 *   the runtime's that fails with CL_INVALID_OPERATION and warns once;
 * - any other: NULL, "not supported" (§9.2), with a warning.
 * No extension's enqueue reaches the driver unseen, so the runtime keeps
 * leaving out the queue markers it needs only after the program's own
 * commands (queue.c). Thread-safe: the tables are constant.
 */
#include "api/api.h"

#include <CL/cl_ext.h>
#include <CL/cl_gl.h> /* the prototypes of clEnqueueAcquire/ReleaseGLObjects */
#include <ctype.h>

/* The runtime's exported entry points by name: asked for one, a program
 * gets what a direct call reaches. */
static const struct {
	const char *name;
	void *fn;
} entries[] = {
#define VRT_ENTRY(ret, name, params, args) {#name, (void *)name},
#include "base/entrypoints.def"
#undef VRT_ENTRY
#define VRT_FOREIGN(ret, name, params, args, absent) {#name, (void *)name},
#include "base/foreign.def"
#undef VRT_FOREIGN
};

static void refused(const char *name, int *warned, cl_int *errcode_ret)
{
	if (!__atomic_exchange_n(warned, 1, __ATOMIC_SEQ_CST))
		vrt_log(VRT_LOG_WARN, "extension function '%s' is not supported by the vastcc runtime (it would take the runtime's objects for the driver's); it returns CL_INVALID_OPERATION",
		        name);
	if (errcode_ret)
		*errcode_ret = CL_INVALID_OPERATION;
}

/* Generated: a refusal ignores its parameters. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define VRT_EXT_FORWARD(name)
#define VRT_EXT_REFUSE(ret, name, params, errp, value)                          \
	static ret CL_API_CALL refuse_##name params                             \
	{                                                                       \
		static int warned;                                              \
		refused(#name, &warned, errp);                                  \
		return value;                                                   \
	}
#include "extensions.def"
#undef VRT_EXT_FORWARD
#undef VRT_EXT_REFUSE
#pragma GCC diagnostic pop

/* extensions.def: the runtime's function for each name, NULL where the
 * driver's is handed out. */
static const struct {
	const char *name;
	void *fn;
} known[] = {
#define VRT_EXT_FORWARD(name) {#name, NULL},
#define VRT_EXT_REFUSE(ret, name, params, errp, value) {#name, (void *)refuse_##name},
#include "extensions.def"
#undef VRT_EXT_FORWARD
#undef VRT_EXT_REFUSE
};

/* A name of the core API: an extension's ends with its vendor's suffix,
 * a run of two or more capitals (KHR, EXT, INTEL, NV, PoCL's CL, ...).
 * The last letter alone is no guide: the core clCreateFromGLTexture2D
 * (OpenCL 1.1, deprecated by 1.2) ends with one capital after a digit. */
static int core_name(const char *name)
{
	size_t n = strlen(name), caps = 0;
	if (n <= 3 || strncmp(name, "cl", 2) || !isupper((unsigned char)name[2]))
		return 0;
	while (caps < n - 2 && isupper((unsigned char)name[n - 1 - caps]))
		caps++;
	return caps < 2;
}

/* What the program gets for `name`, of which the driver's lookup gave f. */
static void *extension(const char *name, void *f)
{
	if (!name)
		return NULL;
	/* What the platform lacks, the program does not get either: one
	 * that asks for clCreateCommandQueueWithProperties to tell a 2.0
	 * platform from a 1.2 one gets NULL on the 1.2 one, as without the
	 * runtime (ocl-icd hands out no core function by name at all). */
	if (!f)
		return NULL;
	for (size_t i = 0; i < sizeof entries / sizeof *entries; i++)
		if (!strcmp(name, entries[i].name))
			return entries[i].fn;
	for (size_t i = 0; i < sizeof known / sizeof *known; i++)
		if (!strcmp(name, known[i].name))
			return known[i].fn ? known[i].fn : f;
	if (core_name(name))
		return vrt_loader_symbol(name);
	vrt_log(VRT_LOG_WARN, "extension function '%s' is not known to the vastcc runtime, which cannot tell whether it takes the runtime's objects; not handed out (NULL)",
	        name);
	return NULL;
}

void *vrt_api_clGetExtensionFunctionAddressForPlatform(cl_platform_id p, const char *name)
{
	if (vrt_init() != CL_SUCCESS)
		return NULL;
	return extension(name, vrt_real.clGetExtensionFunctionAddressForPlatform(p, name));
}

void *vrt_api_clGetExtensionFunctionAddress(const char *name)
{
	if (vrt_init() != CL_SUCCESS)
		return NULL;
	return extension(name, vrt_real.clGetExtensionFunctionAddress(name));
}
