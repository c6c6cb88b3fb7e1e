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
#include <string.h>

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

typedef struct order {
	const unsigned long *next_use;
	const unsigned long long *lru;
} order;

/* idx[0 .. n) sorted by goes_before, merging through tmp (stable; a
 * total order anyway: ties go by index). */
static void sort_order(size_t *idx, size_t *tmp, size_t n, const order *o)
{
	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t a = lo, b = mid, k = lo;
			while (a < mid && b < hi)
				tmp[k++] = goes_before(idx[b], idx[a], o->next_use, o->lru) ? idx[b++] : idx[a++];
			while (a < mid)
				tmp[k++] = idx[a++];
			while (b < hi)
				tmp[k++] = idx[b++];
		}
		memcpy(idx, tmp, n * sizeof *idx);
	}
}

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
	/* The candidates in order once (every buffer with a device copy may
	 * be one: thousands), decided from the last: each round the last of
	 * those undecided. Out of memory: that last found each round. */
	size_t *idx = vrt_malloc(2 * (n ? n : 1) * sizeof *idx);
	if (idx) {
		order o = {next_use, lru};
		for (size_t i = 0; i < n; i++)
			idx[i] = i;
		sort_order(idx, idx + n, n, &o);
	}
	for (size_t round = 0; round < n && freed < need; round++) {
		size_t last = n;
		if (idx)
			last = idx[n - 1 - round];
		else
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
	vrt_free(idx);
	for (size_t i = 0; i < n; i++)
		out[i] = out[i] == EVICTED;
	return freed;
}
