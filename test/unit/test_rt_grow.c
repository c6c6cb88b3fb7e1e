/* SPDX-License-Identifier: MIT */
/*
 * test_rt_grow.c - the runtime's dynamic arrays (runtime/base/alloc.c,
 * vrt_grow): room made by doubling from 16, a larger need at once, the
 * elements kept; with room enough nothing allocated; out of memory, the
 * array and its capacity as they were; a size that overflows refused.
 */
#include <stdint.h>
#include <stdio.h>

#include "vrt.h"

#include "check.h"

typedef struct item {
	int a;
	double b;
} item;

int main(void)
{
	item *v = NULL;
	size_t cap = 0;

	/* The first room: 16, however little is needed. */
	CHECK(vrt_grow(&v, &cap, 1, sizeof *v) == 0);
	CHECK(v != NULL && cap == 16);
	for (int i = 0; i < 16; i++)
		v[i] = (item){ i, i / 2.0 };

	/* Room enough: nothing allocated (an allocation would fail). */
	vrt_alloc_fail_after(1);
	CHECK(vrt_grow(&v, &cap, 16, sizeof *v) == 0);
	CHECK(cap == 16);
	vrt_alloc_fail_after(0);

	/* Doubled, the elements kept. */
	CHECK(vrt_grow(&v, &cap, 17, sizeof *v) == 0);
	CHECK(cap == 32);
	int kept = 1;
	for (int i = 0; i < 16; i++)
		kept &= v[i].a == i && v[i].b == i / 2.0;
	CHECK(kept);

	/* A need past twice the room: doubled until it fits. */
	CHECK(vrt_grow(&v, &cap, 100, sizeof *v) == 0);
	CHECK(cap == 128);
	CHECK(v[15].a == 15);

	/* Out of memory: -1, the array and its room as they were. */
	item *before = v;
	vrt_alloc_fail_after(1);
	CHECK(vrt_grow(&v, &cap, 129, sizeof *v) == -1);
	vrt_alloc_fail_after(0);
	CHECK(v == before && cap == 128 && v[15].a == 15);

	/* Bytes past SIZE_MAX: refused, nothing changed. */
	CHECK(vrt_grow(&v, &cap, SIZE_MAX / 4, sizeof *v) == -1);
	CHECK(v == before && cap == 128);
	vrt_free(v);

	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures != 0;
}
