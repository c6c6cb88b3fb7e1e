/* SPDX-License-Identifier: MIT */
/*
 * test_rt_evict.c - the eviction rule of device copies (runtime/mem/evict.c):
 * on random reference strings over items of one size, a cache that
 * evicts what vrt_evict_pick names (given each item's next use, as
 * vrt_queue_next_use gives it) misses exactly as often as the best of
 * every possible eviction choice (a brute-force search): Belady's MIN.
 * Where nothing is known (every next use 0), it evicts the least
 * recently used; ties in next use go to the least recently used too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vrt.h"

#include "check.h"

#define ITEMS 5
#define LEN 14

/* The place of the next reference to item x after position t (1: the
 * next one), VRT_NEVER when none. */
static unsigned long next_use(const int *ref, int n, int t, int x)
{
	for (int u = t + 1; u < n; u++)
		if (ref[u] == x)
			return (unsigned long)(u - t);
	return VRT_NEVER;
}

/* Misses of the cache of `cap` items evicting by vrt_evict_pick. */
static int misses_picked(const int *ref, int n, int cap)
{
	int in[ITEMS], k = 0, miss = 0;
	unsigned long long last[ITEMS] = {0};
	for (int t = 0; t < n; t++) {
		int hit = 0;
		for (int i = 0; i < k; i++)
			hit |= in[i] == ref[t];
		if (!hit) {
			miss++;
			if (k == cap) {
				unsigned long nu[ITEMS];
				unsigned long long lru[ITEMS];
				for (int i = 0; i < k; i++) {
					nu[i] = next_use(ref, n, t, in[i]);
					lru[i] = last[in[i]];
				}
				in[vrt_evict_pick((size_t)k, nu, lru)] = ref[t];
			} else {
				in[k++] = ref[t];
			}
		}
		last[ref[t]] = (unsigned long long)t + 1;
	}
	return miss;
}

/* The fewest misses any eviction choices give from position t on. */
static int misses_best(const int *ref, int n, int cap, const int *in, int k, int t)
{
	if (t == n || k > ITEMS)
		return 0;
	for (int i = 0; i < k; i++)
		if (in[i] == ref[t])
			return misses_best(ref, n, cap, in, k, t + 1);
	int next[ITEMS];
	memcpy(next, in, sizeof next);
	if (k < cap) {
		next[k] = ref[t];
		return 1 + misses_best(ref, n, cap, next, k + 1, t + 1);
	}
	int best = n;
	for (int i = 0; i < k; i++) {
		memcpy(next, in, sizeof next);
		next[i] = ref[t];
		int m = misses_best(ref, n, cap, next, k, t + 1);
		if (m < best)
			best = m;
	}
	return 1 + best;
}

int main(void)
{
	srand(17);
	for (int trial = 0; trial < 400 && !failures; trial++) {
		int ref[LEN], in[ITEMS] = {0};
		int items = 2 + rand() % (ITEMS - 1), cap = 1 + rand() % (items - 1);
		for (int t = 0; t < LEN; t++)
			ref[t] = rand() % items;
		int picked = misses_picked(ref, LEN, cap), best = misses_best(ref, LEN, cap, in, 0, 0);
		CHECK(picked == best);
		if (picked != best)
			fprintf(stderr, "trial %d: %d items, room for %d: %d misses, the best %d\n",
			        trial, items, cap, picked, best);
	}
	/* Nothing known: the least recently used. */
	unsigned long none[3] = {0, 0, 0};
	unsigned long long lru[3] = {7, 3, 9};
	CHECK(vrt_evict_pick(3, none, lru) == 1);
	/* The farthest next use, whatever was used last; never the farthest. */
	unsigned long nu[3] = {4, 2, VRT_NEVER};
	CHECK(vrt_evict_pick(3, nu, lru) == 2);
	unsigned long tie[3] = {5, 5, 1};
	CHECK(vrt_evict_pick(3, tie, lru) == 1);
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures != 0;
}
