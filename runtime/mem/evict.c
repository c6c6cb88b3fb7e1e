/* SPDX-License-Identifier: MIT */
/*
 * evict.c - what goes when the device budget is short: the one policy
 * over everything that takes it (room.c gathers the candidates: device
 * copies, replicas, the frame pools' sets and holds). Each candidate has
 * a size, a next use (the place of the first launch queued behind the
 * one running that needs it: queue.c; VRT_NEVER when none does, 0 for
 * every candidate when nothing is queued) and a last use (a clock).
 *
 * The order: the farthest next use goes first (Belady's MIN), the least
 * recently used among those tied, and so everywhere nothing is known;
 * the lower index among full ties.
 *
 * Which set goes for `need` bytes: with items of one size MIN is optimal
 * (fewest misses: the unit test checks it against a brute-force search);
 * with sizes that differ, the offline optimum is NP-hard (generalized
 * caching; Chrobak, Woeginger, Makino and Xu, "Caching is hard - even in
 * the fault model", 2012), so the rule is MIN's order made exact for one
 * decision: of every set of candidates that frees `need` bytes, the one
 * that spares the candidate needed soonest, then the next one, and so
 * on. Two sets compare by the first candidate in the reverse of the
 * order (the one needed soonest) that one evicts and the other keeps;
 * the set that keeps it wins. Found by walking the order from its end:
 * a candidate stays where those still undecided before it, with the ones
 * already chosen, free `need` without it. So no victim could be spared
 * (without any one of them the rest free less than `need`), and with one
 * size this is MIN's choice. Pure C: the unit test drives it against a
 * brute-force search. The clock of last uses is here too, the one state
 * of the file.
 */
#include "mem/mem.h"

/* Candidate a goes before candidate b. */
static int goes_before(size_t a, size_t b, const unsigned long *next_use,
                       const unsigned long long *lru)
{
	if (next_use[a] != next_use[b])
		return next_use[a] > next_use[b];
	if (lru[a] != lru[b])
		return lru[a] < lru[b];
	return a < b;
}

/* The clock of last uses: one for everything the policy weighs. */
static unsigned long long clock_ticks;

unsigned long long vrt_evict_tick(void)
{
	return ++clock_ticks;
}

size_t vrt_evict_pick(size_t n, const unsigned long *next_use, const unsigned long long *lru)
{
	size_t best = 0;
	for (size_t i = 1; i < n; i++)
		if (goes_before(i, best, next_use, lru))
			best = i;
	return best;
}

/* out[i] while choosing: not decided yet, kept, evicted. */
enum { UNDECIDED, KEPT, EVICTED };

unsigned long long vrt_evict_choose(size_t n, const unsigned long long *size,
                                    const unsigned long *next_use,
                                    const unsigned long long *lru, unsigned long long need,
                                    unsigned char *out)
{
	unsigned long long undecided = 0, freed = 0;
	for (size_t i = 0; i < n; i++) {
		out[i] = UNDECIDED;
		undecided += size[i];
	}
	/* The last of the order among those undecided, each round: a few
	 * dozen candidates at most, n^2 is nothing beside a transfer. */
	for (size_t round = 0; round < n && freed < need; round++) {
		size_t last = n;
		for (size_t i = 0; i < n; i++)
			if (out[i] == UNDECIDED && (last == n || goes_before(last, i, next_use, lru)))
				last = i;
		undecided -= size[last];
		if (freed + undecided >= need) {
			out[last] = KEPT;
		} else {
			out[last] = EVICTED;
			freed += size[last];
		}
	}
	for (size_t i = 0; i < n; i++)
		out[i] = out[i] == EVICTED;
	return freed;
}
