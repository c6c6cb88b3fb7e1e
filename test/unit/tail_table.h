/* SPDX-License-Identifier: MIT */
/*
 * tail_table.h - vast/stub.h's table of the generated kernels' tail
 * arguments (VAST_TAIL_ARGS) looked up by name, for the tests that set or
 * count a generated kernel's arguments by hand, as the runtime does by
 * the same table.
 */
#ifndef VAST_TEST_TAIL_TABLE_H
#define VAST_TEST_TAIL_TABLE_H

#include <string.h>
#include "vast/stub.h"

/* Row `name`'s index in variant `kind` (a VAST_HAS_* bit), VAST_TAIL_NO
 * where it takes none or there is no such row. */
static inline int tail_index(unsigned kind, const char *name)
{
#define TAIL_INDEX_ROW(nm, count, each, cltype, host, i, p, s, pi)    \
	if (!strcmp(#nm, name))                                        \
		return VAST_TAIL_AT(kind, i, p, s, pi);
	VAST_TAIL_ARGS(TAIL_INDEX_ROW)
#undef TAIL_INDEX_ROW
	return VAST_TAIL_NO;
}

/* The arguments of variant `kind`'s tail that are not repeated per
 * parameter. */
static inline unsigned tail_fixed(unsigned kind)
{
	unsigned n = 0;
#define TAIL_FIXED_ROW(nm, count, each, cltype, host, i, p, s, pi)    \
	if (!(each) && VAST_TAIL_AT(kind, i, p, s, pi) != VAST_TAIL_NO)    \
		n += (count);
	VAST_TAIL_ARGS(TAIL_FIXED_ROW)
#undef TAIL_FIXED_ROW
	return n;
}

#endif
