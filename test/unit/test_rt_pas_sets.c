/* SPDX-License-Identifier: MIT */
/*
 * test_rt_pas_sets.c - PAS reduction for pipelined ranges
 * (vrt_pas_reduce_sets): with k frame sets every range fits budget/k,
 * ranges tile the rows in order, each range's page count is its union's,
 * the first range is cut against a quarter of budget/k when its rows
 * allow (and kept whole when they do not), one set is Algorithm 1
 * itself, and failures (a row over budget/k, no memory) come back as
 * vrt_pas_reduce's.
 */
#include <stdio.h>
#include <string.h>

#include "vrt.h"

#include "check.h"

#define NROWS 64
#define PAGES 256
static unsigned char rows[NROWS][PAGES];

/* One slot of PAGES 4 KiB pages; row r touches pages [2r, 2r+3]: each
 * row shares two pages with the next (a stencil's halo). */
static void setup(vrt_layout *l)
{
	memset(l, 0, sizeof *l);
	l->nslots = 1;
	l->page_shift = 12;
	l->slot_size[1] = (size_t)PAGES << 12;
	vrt_layout_init(l);
	memset(rows, 0, sizeof rows);
	for (size_t r = 0; r < NROWS; r++)
		for (size_t p = 2 * r; p < 2 * r + 4 && p < PAGES; p++)
			rows[r][l->slot_off[1] + p] = 1;
}

/* The properties every result must have, whatever the cuts. */
static void check_ranges(const vrt_layout *l, const vrt_range *g, size_t n,
                         unsigned long long per)
{
	size_t next = 0;
	unsigned char u[PAGES];
	for (size_t i = 0; i < n; i++) {
		CHECK(g[i].first_row == next && g[i].last_row >= g[i].first_row);
		next = g[i].last_row + 1;
		memset(u, 0, sizeof u);
		for (size_t r = g[i].first_row; r <= g[i].last_row; r++)
			vrt_pas_or(u, rows[r], l->row_bytes);
		CHECK(g[i].pages == vrt_pas_count(u, l->row_bytes));
		CHECK(vrt_range_footprint(l, g[i].pages) <= per);
	}
	CHECK(next == NROWS);
}

static void test_sets(void)
{
	vrt_layout l;
	setup(&l);
	unsigned long long budget = 3 * vrt_range_footprint(&l, 40);
	vrt_range *one, *g;
	size_t n1, n, bad;

	/* One set: exactly Algorithm 1. */
	CHECK(vrt_pas_reduce(&l, &rows[0][0], NROWS, budget, &one, &n1, &bad) == 0);
	CHECK(vrt_pas_reduce_sets(&l, &rows[0][0], NROWS, budget, 1, &g, &n, &bad) == 0);
	CHECK(n == n1 && !memcmp(g, one, n * sizeof *g));
	check_ranges(&l, g, n, budget);
	vrt_free(g);

	/* Three sets: every range within a third, the first within a
	 * twelfth, and a range more than Algorithm 1 at a third makes. */
	vrt_range *third;
	size_t n3;
	CHECK(vrt_pas_reduce(&l, &rows[0][0], NROWS, budget / 3, &third, &n3, &bad) == 0);
	CHECK(vrt_pas_reduce_sets(&l, &rows[0][0], NROWS, budget, 3, &g, &n, &bad) == 0);
	check_ranges(&l, g, n, budget / 3);
	CHECK(n == n3 + 1);
	CHECK(vrt_range_footprint(&l, g[0].pages) <= budget / 3 / 4);
	CHECK(g[1].last_row == third[0].last_row);
	for (size_t i = 2; i < n && n == n3 + 1; i++)
		CHECK(!memcmp(&g[i], &third[i - 1], sizeof *g));
	vrt_free(g);
	vrt_free(third);
	vrt_free(one);

	/* A first row too big for a twelfth: the first range stays whole. */
	for (size_t p = 0; p < 20; p++)
		rows[0][l.slot_off[1] + p] = 1;
	CHECK(vrt_pas_reduce(&l, &rows[0][0], NROWS, budget / 3, &third, &n3, &bad) == 0);
	CHECK(vrt_pas_reduce_sets(&l, &rows[0][0], NROWS, budget, 3, &g, &n, &bad) == 0);
	check_ranges(&l, g, n, budget / 3);
	CHECK(n == n3 && !memcmp(g, third, n * sizeof *g));
	vrt_free(g);
	vrt_free(third);

	/* A row over budget/k is reported as Algorithm 1 reports it. */
	for (size_t p = 0; p < 60; p++)
		rows[7][l.slot_off[1] + p] = 1;
	g = NULL;
	CHECK(vrt_pas_reduce_sets(&l, &rows[0][0], NROWS, budget, 3, &g, &n, &bad) == -1);
	CHECK(bad == 7 && g == NULL);
	/* ... while one set still fits it. */
	CHECK(vrt_pas_reduce_sets(&l, &rows[0][0], NROWS, budget, 1, &g, &n, &bad) == 0);
	vrt_free(g);

	/* Out of memory at each allocation: -2, nothing leaked (LSan). */
	setup(&l);
	for (unsigned long k = 1; k <= 6; k++) {
		vrt_alloc_fail_after(k);
		int r = vrt_pas_reduce_sets(&l, &rows[0][0], NROWS, budget, 3, &g, &n, &bad);
		vrt_alloc_fail_after(0);
		CHECK(r == 0 || r == -2);
		if (r == 0)
			check_ranges(&l, g, n, budget / 3);
		else
			CHECK(g == NULL);
		vrt_free(g);
	}
}

int main(void)
{
	test_sets();
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures != 0;
}
