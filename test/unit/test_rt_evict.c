/* SPDX-License-Identifier: MIT */
/*
 * test_rt_evict.c - the eviction policy (runtime/mem/evict.c): on random
 * reference strings over items of one size, a cache that evicts what
 * vrt_evict_pick names, or what vrt_evict_choose chooses for one item's
 * room (given each item's next use, as vrt_queue_next_use gives it),
 * misses exactly as often as the best of every possible eviction choice
 * (a brute-force search): Belady's MIN. Where nothing is known (every
 * next use 0), it evicts the least recently used; ties in next use go to
 * the least recently used too. With sizes that differ, the set
 * vrt_evict_choose takes for `need` bytes is, on random cases, the one a
 * search over every subset finds best by evict.c's rule: it frees `need`
 * (or holds every candidate where all of them hold less) and spares the
 * candidates needed soonest first.
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

/* The victim of vrt_evict_choose, for one item's room among k of one
 * size: it must choose exactly one. */
static size_t choose_one(size_t k, const unsigned long *nu, const unsigned long long *lru)
{
	unsigned long long size[ITEMS];
	unsigned char out[ITEMS];
	size_t victim = k, chosen = 0;
	for (size_t i = 0; i < k; i++)
		size[i] = 4096;
	CHECK(vrt_evict_choose(k, size, nu, lru, 4096, out) == 4096);
	for (size_t i = 0; i < k; i++)
		if (out[i]) {
			victim = i;
			chosen++;
		}
	CHECK(chosen == 1);
	return victim < k ? victim : 0;
}

/* Misses of the cache of `cap` items evicting by vrt_evict_pick, or by
 * vrt_evict_choose (choose). */
static int misses_picked(const int *ref, int n, int cap, int choose)
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
				size_t v = choose ? choose_one((size_t)k, nu, lru)
				                  : vrt_evict_pick((size_t)k, nu, lru);
				in[v] = ref[t];
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

#define CANDS 9

/* Candidate a goes before b in evict.c's order, written out anew. */
static int before(int a, int b, const unsigned long *nu, const unsigned long long *lru)
{
	if (nu[a] != nu[b])
		return nu[a] > nu[b];
	return lru[a] != lru[b] ? lru[a] < lru[b] : a < b;
}

/* The best set by brute force: of the subsets that free `need`, the one
 * of least cost, a victim costing 2^(its place in the order): sparing a
 * candidate needed sooner is worth more than sparing every one before
 * it. Every candidate where none frees `need`. A bit mask. */
static unsigned best_set(int n, const unsigned long long *size, const unsigned long *nu,
                         const unsigned long long *lru, unsigned long long need)
{
	unsigned long long cost[CANDS];
	for (int i = 0; i < n; i++) {
		int place = 0;
		for (int j = 0; j < n; j++)
			place += j != i && before(j, i, nu, lru);
		cost[i] = 1ull << place;
	}
	unsigned best = (1u << n) - 1;
	unsigned long long best_cost = ~0ull;
	for (unsigned set = 0; set < 1u << n; set++) {
		unsigned long long bytes = 0, c = 0;
		for (int i = 0; i < n; i++)
			if (set >> i & 1) {
				bytes += size[i];
				c += cost[i];
			}
		if (bytes >= need && c < best_cost) {
			best = set;
			best_cost = c;
		}
	}
	return best;
}

/* vrt_evict_choose against best_set on random candidates of random sizes,
 * next uses (some tied, some never) and last uses (some tied). */
static void sizes_against_search(void)
{
	for (int trial = 0; trial < 3000 && !failures; trial++) {
		int n = 1 + rand() % CANDS;
		unsigned long long size[CANDS], lru[CANDS], total = 0;
		unsigned long nu[CANDS];
		for (int i = 0; i < n; i++) {
			size[i] = 1 + (unsigned long long)(rand() % 4 ? rand() % 16 : rand() % 4096);
			nu[i] = rand() % 5 ? 1 + (unsigned long)(rand() % 4) : VRT_NEVER;
			lru[i] = (unsigned long long)(rand() % 6);
			total += size[i];
		}
		if (trial % 7 == 0) /* nothing known */
			for (int i = 0; i < n; i++)
				nu[i] = 0;
		unsigned long long need = (unsigned long long)rand() % (total + 8);
		unsigned char out[CANDS];
		unsigned long long freed = vrt_evict_choose((size_t)n, size, nu, lru, need, out);
		unsigned got = 0, want = best_set(n, size, nu, lru, need);
		unsigned long long bytes = 0;
		for (int i = 0; i < n; i++) {
			CHECK(out[i] == 0 || out[i] == 1);
			got |= (unsigned)(out[i] != 0) << i;
			bytes += out[i] ? size[i] : 0;
		}
		CHECK(freed == bytes);
		CHECK(got == want);
		CHECK(freed >= need || got == (1u << n) - 1);
		if (got != want)
			fprintf(stderr, "trial %d: %d candidates, need %llu: chose %#x, the best %#x\n",
			        trial, n, need, got, want);
	}
	/* The farthest big one rather than two near small ones, and no more
	 * than the room: the one never needed goes alone. */
	unsigned long long size[3] = {1, 100, 10}, lru[3] = {1, 2, 3};
	unsigned long nu[3] = {VRT_NEVER, 5, 2};
	unsigned char out[3];
	CHECK(vrt_evict_choose(3, size, nu, lru, 10, out) == 100);
	CHECK(!out[0] && out[1] && !out[2]);
	/* Nothing needed: nothing goes. */
	CHECK(vrt_evict_choose(3, size, nu, lru, 0, out) == 0);
	CHECK(!out[0] && !out[1] && !out[2]);
	/* More than all hold: all go. */
	CHECK(vrt_evict_choose(3, size, nu, lru, 1000, out) == 111);
	CHECK(out[0] && out[1] && out[2]);
}

int main(void)
{
	srand(17);
	for (int trial = 0; trial < 400 && !failures; trial++) {
		int ref[LEN], in[ITEMS] = {0};
		int items = 2 + rand() % (ITEMS - 1), cap = 1 + rand() % (items - 1);
		for (int t = 0; t < LEN; t++)
			ref[t] = rand() % items;
		int picked = misses_picked(ref, LEN, cap, 0), best = misses_best(ref, LEN, cap, in, 0, 0);
		int chosen = misses_picked(ref, LEN, cap, 1);
		CHECK(picked == best);
		CHECK(chosen == best);
		if (picked != best || chosen != best)
			fprintf(stderr, "trial %d: %d items, room for %d: %d and %d misses, the best %d\n",
			        trial, items, cap, picked, chosen, best);
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
	sizes_against_search();
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures != 0;
}
