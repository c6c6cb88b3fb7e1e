/* SPDX-License-Identifier: MIT */
/*
 * fill.c - ranges wide enough to keep the device busy.
 *
 * A range's kernel is one NDRange of the range's work-groups. A device
 * runs a few groups on each compute unit at once; a range of fewer groups
 * than about twice its units leaves units idle for the whole kernel, and
 * its kernel takes about as long as a wider one (one group's time): nbody
 * at a quarter of its data ran 18 ranges of 57 groups on the H100's 132
 * units, 8.8 ms each, 159 ms of kernels against 46 ms in one launch.
 * One decision follows, pure:
 *
 *   - frame sets (vrt_fill_sets): ranges cut against budget/k for k sets
 *     in flight are k times narrower than those of one set. Where they
 *     cannot fill the device and one set's are at least twice as wide,
 *     one set: its kernels do the work of k narrow ones in about the time
 *     of one, and what it loses (transfers no longer under the kernels)
 *     is at most the kernel's share, which narrow ranges waste anyway.
 *
 * It does not apply where the budget is not what bounds the ranges (a
 * launch that fits in one range, the last range of a launch).
 */
#include "plan/plan.h"

int vrt_fill_narrow(size_t groups, unsigned units)
{
	return units && groups < (size_t)VRT_FILL_PER_UNIT * units;
}

size_t vrt_fill_widest(const vrt_range *r, size_t n, size_t wpp)
{
	size_t most = 0;
	for (size_t i = 0; i < n; i++) {
		size_t g = (r[i].last_row + 1 - r[i].first_row) * wpp;
		if (g > most)
			most = g;
	}
	return most;
}

unsigned vrt_fill_sets(unsigned sets, size_t wide_k, size_t wide_1, unsigned units)
{
	if (sets > 1 && vrt_fill_narrow(wide_k, units) && wide_1 >= 2 * wide_k)
		return 1;
	return sets;
}
