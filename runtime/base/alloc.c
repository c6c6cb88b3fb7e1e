/* SPDX-License-Identifier: MIT */
/*
 * alloc.c - the runtime's one allocator.
 *
 * Every allocation goes through here so tests can make the n-th one fail
 * (vrt_alloc_fail_after) and check that the failure comes back as
 * CL_OUT_OF_HOST_MEMORY with nothing leaked.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

static unsigned long fail_countdown;

void vrt_alloc_fail_after(unsigned long n)
{
	fail_countdown = n;
}

/* Atomic: allocations happen on the transfer threads of several
 * devices at once (host/batch.c). Exactly one call sees it reach 0. */
static int should_fail(void)
{
	unsigned long c = __atomic_load_n(&fail_countdown, __ATOMIC_RELAXED);
	while (c && !__atomic_compare_exchange_n(&fail_countdown, &c, c - 1, 0, __ATOMIC_RELAXED,
	                                         __ATOMIC_RELAXED))
		;
	return c == 1;
}

void *vrt_malloc(size_t n)
{
	return should_fail() ? NULL : malloc(n ? n : 1);
}

void *vrt_calloc(size_t n, size_t size)
{
	return should_fail() ? NULL : calloc(n ? n : 1, size ? size : 1);
}

void *vrt_aligned_alloc(size_t align, size_t n)
{
	void *p = NULL;
	if (should_fail() || posix_memalign(&p, align, n ? n : 1))
		return NULL;
	return p;
}

void *vrt_realloc(void *p, size_t n)
{
	return should_fail() ? NULL : realloc(p, n ? n : 1);
}

int vrt_grow(void *array, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t n = *cap ? *cap : 16;
	while (n < need)
		n = n <= SIZE_MAX / 2 ? 2 * n : need;
	if (size && n > SIZE_MAX / size)
		return -1;
	/* The array's pointer through memcpy: it is a T *, not a void *. */
	void *p;
	memcpy(&p, array, sizeof p);
	void *more = vrt_realloc(p, n * size);
	if (!more)
		return -1;
	memcpy(array, &more, sizeof more);
	*cap = n;
	return 0;
}

char *vrt_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = vrt_malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

void vrt_free(void *p)
{
	free(p);
}
