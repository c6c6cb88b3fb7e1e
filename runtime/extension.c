/* SPDX-License-Identifier: MIT */
/*
 * extension.c - clGetExtensionFunctionAddress(ForPlatform): the functions
 * a program finds by name.
 */
#include "vrt.h"

static int untracked; /* an extension's enqueue was handed out (extension) */

int vrt_extension_untracked(void)
{
	return __atomic_load_n(&untracked, __ATOMIC_SEQ_CST);
}

/* An extension's enqueue goes to the driver unseen: hand one out and
 * every runtime command waits for its queue's earlier commands again. */
static void *extension(const char *name, void *f)
{
	if (f && name && !strncmp(name, "clEnqueue", 9) &&
	    !__atomic_exchange_n(&untracked, 1, __ATOMIC_SEQ_CST))
		vrt_log(VRT_LOG_INFO, "%s was handed out as an extension's: every command waits for all before it on its queue from now on",
		        name);
	return f;
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
