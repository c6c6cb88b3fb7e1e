/* SPDX-License-Identifier: MIT */
/*
 * test_rt_poolruns.c - the runs of pages of which a frame pool's location
 * holds some byte (runtime/mem/poolloc.c, vrt_pool_some_runs: the pages
 * whose kept copies a range that writes them must forget), against a
 * byte-by-byte answer of the directory on random traces: runs of the
 * directory that meet in one page joined, a buffer that starts inside
 * its directory (a window), a last partial page, a window of pages
 * asked, and a location that holds nothing at all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vrt.h"

#include "check.h"

#define SHIFT 4
#define BYTES 300 /* the directory's */

typedef struct got {
	size_t a[64], b[64];
	size_t n;
} got;

static void take(void *ctx, size_t a, size_t b)
{
	got *g = ctx;
	if (g->n < 64) {
		g->a[g->n] = a;
		g->b[g->n] = b;
	}
	g->n++;
}

/* Whether l holds some byte of page p of m (clipped to m), asked of the
 * directory a byte at a time. */
static int holds_some(const vrt_mem *m, int l, size_t p)
{
	for (size_t i = p << SHIFT; i < (p + 1) << SHIFT && i < m->size; i++)
		if (vrt_dir_holders(m->dir, m->origin + i, 1) & VRT_LOC(l))
			return 1;
	return 0;
}

static void check_window(const vrt_mem *m, int l, size_t p, size_t n)
{
	got g = {{0}, {0}, 0};
	vrt_pool_some_runs(m, l, p, n, SHIFT, take, &g);
	size_t k = 0;
	for (size_t q = p; q < p + n;) {
		if (!holds_some(m, l, q)) {
			q++;
			continue;
		}
		size_t e = q;
		while (e < p + n && holds_some(m, l, e))
			e++;
		CHECK(k < g.n && g.a[k] == q && g.b[k] == e);
		k++;
		q = e;
	}
	CHECK(g.n == k);
}

int main(void)
{
	vrt_dir d;
	srand(7);
	for (int round = 0; round < 200; round++) {
		CHECK(vrt_dir_init(&d, BYTES) == 0);
		int l = vrt_dir_add_loc(&d, 1, 1);
		CHECK(l > 0);
		vrt_mem m;
		memset(&m, 0, sizeof m);
		m.dir = &d;
		m.origin = (size_t)(rand() % 40); /* a window of the directory */
		m.size = BYTES - m.origin - (size_t)(rand() % 20);
		size_t pages = ((m.size - 1) >> SHIFT) + 1;
		if (round % 10 == 0) {
			check_window(&m, l, 0, pages); /* l holds nothing */
		}
		for (int op = 0; op < 6; op++) {
			size_t off = (size_t)rand() % BYTES, n = 1 + (size_t)rand() % 40;
			if (off + n > BYTES)
				n = BYTES - off;
			int where = rand() % 3 ? l : VRT_DIR_HOST;
			CHECK((rand() % 2 ? vrt_dir_copied(&d, where, off, n)
			                  : vrt_dir_wrote(&d, where, off, n)) == 0);
		}
		check_window(&m, l, 0, pages);
		size_t p = (size_t)rand() % pages;
		check_window(&m, l, p, (size_t)rand() % (pages - p + 1));
		vrt_dir_fini(&d);
	}
	if (failures)
		fprintf(stderr, "test_rt_poolruns: %d failures\n", failures);
	return failures != 0;
}
