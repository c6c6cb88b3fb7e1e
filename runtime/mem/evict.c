/* SPDX-License-Identifier: MIT */
/*
 * evict.c - which device copy a native launch evicts for room (mem.c):
 * the one whose next use is farthest (Belady's MIN), looking ahead at
 * the launches already queued behind the one running (queue.c,
 * vrt_queue_next_use); least recently used among
 * those tied, and so everywhere nothing is known (no launch queued).
 * MIN evicts optimally where the items are of one size (pages); device
 * copies differ in size, where it is a good rule, not the optimum. Pure
 * C: the unit test drives it against a brute-force search.
 */
#include "mem/mem.h"

size_t vrt_evict_pick(size_t n, const unsigned long *next_use, const unsigned long long *lru)
{
	size_t best = 0;
	for (size_t i = 1; i < n; i++)
		if (next_use[i] > next_use[best] ||
		    (next_use[i] == next_use[best] && lru[i] < lru[best]))
			best = i;
	return best;
}
