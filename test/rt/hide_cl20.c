/* SPDX-License-Identifier: MIT */
/*
 * hide_cl20.c - LD_PRELOAD: an OpenCL 1.2 ICD loader, as far as the
 * runtime can tell. dlsym() on a library's handle finds no
 * clCreateCommandQueueWithProperties (OpenCL 2.0), as in a loader built
 * for 1.2; every other lookup is dlsym's own (cl12.sh).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>

typedef void *(*dlsym_fn)(void *, const char *);

void *dlsym(void *h, const char *name)
{
	static dlsym_fn real;
	if (!real)
		real = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
	if (!real)
		real = (dlsym_fn)dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
	if (h != RTLD_DEFAULT && h != RTLD_NEXT &&
	    !strcmp(name, "clCreateCommandQueueWithProperties"))
		return NULL;
	return real(h, name);
}
