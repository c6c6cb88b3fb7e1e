/* SPDX-License-Identifier: MIT */
/*
 * test_rt_object.c - the record of the runtime's handles (object.c): live
 * objects are found by address and kind, any other address is not ours
 * and is never dereferenced, a released object stays recognisable as
 * ours (a husk) until the next object of its kind reuses it, and every
 * object's first word is the dispatch table the ICD loader follows.
 */
#include <stdio.h>
#include <string.h>

#include "vrt.h"

#include "check.h"

typedef struct thing {
	vrt_object obj;
	char payload[40];
} thing;

enum { N = 100 };

int main(void)
{
	thing *t[N];
	for (int i = 0; i < N; i++) {
		t[i] = vrt_object_new(VRT_OBJ_KERNEL, sizeof *t[i]);
		CHECK(t[i] != NULL);
		if (!t[i])
			return 1;
		memset(t[i]->payload, 0x5a, sizeof t[i]->payload);
	}
	/* Found by address and kind, and only so. */
	for (int i = 0; i < N; i++) {
		CHECK(vrt_object_of(t[i], VRT_OBJ_KERNEL) == t[i]);
		CHECK(vrt_object_of(t[i], VRT_OBJ_MEM) == NULL);
		CHECK(vrt_object_ours(t[i]));
		CHECK(vrt_object_ours(t[i]->payload) == 0);
		CHECK(t[i]->obj.dispatch != NULL && t[i]->obj.dispatch == t[0]->obj.dispatch);
	}
	int on_stack;
	CHECK(vrt_object_of(&on_stack, VRT_OBJ_KERNEL) == NULL);
	CHECK(!vrt_object_ours(&on_stack));
	CHECK(vrt_object_of(NULL, VRT_OBJ_KERNEL) == NULL);

	/* Released: still ours, no longer live, its contents cleared. */
	vrt_object_retire(t[7]);
	CHECK(vrt_object_of(t[7], VRT_OBJ_KERNEL) == NULL);
	CHECK(vrt_object_ours(t[7]));
	CHECK(t[7]->payload[0] == 0);
	CHECK(vrt_object_of(t[8], VRT_OBJ_KERNEL) == t[8]);

	/* The next object of the kind reuses the husk: live again, zeroed. */
	thing *u = vrt_object_new(VRT_OBJ_KERNEL, sizeof *u);
	CHECK(u == t[7]);
	CHECK(vrt_object_of(u, VRT_OBJ_KERNEL) == u);
	CHECK(u->payload[0] == 0);
	/* Another kind does not take it. */
	vrt_object_retire(u);
	thing *v = vrt_object_new(VRT_OBJ_MEM, sizeof *v);
	CHECK(v != NULL && v != u);
	CHECK(vrt_object_of(v, VRT_OBJ_MEM) == v);
	CHECK(vrt_object_of(u, VRT_OBJ_KERNEL) == NULL);
	return failures ? 1 : 0;
}
