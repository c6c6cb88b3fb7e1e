/* SPDX-License-Identifier: MIT */
/*
 * test_rt_groupbox.c - vrt_group_boxes (groupbox.c) against the groups it
 * covers: for every range [g0, g1) of random launches of 1 to 3
 * dimensions (and the edge cases: one group, one row, whole planes, the
 * whole launch), the boxes come in launch order, cover each group of the
 * range exactly once and nothing else, number at most five (three for 2-D
 * launches, one for 1-D ones and for whole rows of one plane).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vrt.h"

#include "check.h"

#define MAXG 512
static unsigned char seen[MAXG];

static void check_range(const size_t n[3], size_t g0, size_t g1)
{
	vrt_gbox box[5];
	unsigned nb = vrt_group_boxes(g0, g1, n, box);
	size_t total = n[0] * n[1] * n[2], next = g0;
	memset(seen, 0, total);
	CHECK(nb >= 1 && nb <= 5);
	if (n[2] == 1)
		CHECK(nb <= 3);
	if (n[1] == 1 && n[2] == 1)
		CHECK(nb == 1);
	if (g0 % n[0] == 0 && g1 % n[0] == 0 && g0 / (n[0] * n[1]) == (g1 - 1) / (n[0] * n[1]))
		CHECK(nb == 1);
	for (unsigned b = 0; b < nb; b++) {
		const vrt_gbox *x = &box[b];
		/* In order: each box starts where the one before ended. */
		CHECK(x->origin[0] + n[0] * (x->origin[1] + n[1] * x->origin[2]) == next);
		for (unsigned d = 0; d < 3; d++)
			CHECK(x->count[d] >= 1 && x->origin[d] + x->count[d] <= n[d]);
		for (size_t z = 0; z < x->count[2]; z++)
			for (size_t y = 0; y < x->count[1]; y++)
				for (size_t w = 0; w < x->count[0]; w++) {
					size_t g = x->origin[0] + w +
					           n[0] * (x->origin[1] + y + n[1] * (x->origin[2] + z));
					if (g < total)
						seen[g]++;
				}
		next += x->count[0] * x->count[1] * x->count[2];
	}
	CHECK(next == g1);
	for (size_t g = 0; g < total; g++)
		if (seen[g] != (g >= g0 && g < g1)) {
			fprintf(stderr, "launch %zux%zux%zu, groups %zu..%zu: group %zu covered %u times\n",
			        n[0], n[1], n[2], g0, g1 - 1, g, seen[g]);
			failures++;
			return;
		}
}

int main(void)
{
	static const size_t fixed[][3] = {{1, 1, 1}, {7, 1, 1}, {1, 5, 1}, {1, 1, 6},
	                                  {4, 3, 1}, {3, 4, 5}, {8, 8, 8}, {5, 1, 7}};
	for (unsigned i = 0; i < sizeof fixed / sizeof *fixed; i++) {
		const size_t *n = fixed[i];
		size_t total = n[0] * n[1] * n[2];
		for (size_t g0 = 0; g0 < total; g0++)
			for (size_t g1 = g0 + 1; g1 <= total; g1++)
				check_range(n, g0, g1);
	}
	srand(12345);
	for (int t = 0; t < 20000 && !failures; t++) {
		size_t n[3] = {1 + (size_t)rand() % 9, 1 + (size_t)rand() % 7, 1 + (size_t)rand() % 8};
		if (rand() % 3 == 0)
			n[2] = 1;
		size_t total = n[0] * n[1] * n[2];
		size_t g0 = (size_t)rand() % total, g1 = g0 + 1 + (size_t)rand() % (total - g0);
		check_range(n, g0, g1);
	}
	if (failures)
		fprintf(stderr, "test_rt_groupbox: %d failures\n", failures);
	else
		printf("test_rt_groupbox: ok\n");
	return failures != 0;
}
