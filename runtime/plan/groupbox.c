/* SPDX-License-Identifier: MIT */
/*
 * groupbox.c - a range of work-groups as N-D boxes (the straight kernel's
 * launches, docs/generated-kernels.md).
 *
 * A range is a contiguous run of the launch's work-groups flattened with
 * dimension 0 fastest. The straight kernel runs it as N-D launches with
 * the original local size and a global offset, so that the device's own
 * work-item functions give the original ids: one launch per box, at most
 * five (a partial row, the rest of its plane's rows, whole planes, rows
 * of the last plane, a partial row), one for a 1-D launch.
 * Pure C: the unit test drives it directly.
 */
#include "plan/plan.h"

unsigned vrt_group_boxes(size_t g0, size_t g1, const size_t ngrp[3], vrt_gbox box[5])
{
	size_t n0 = ngrp[0], plane = ngrp[0] * ngrp[1];
	unsigned nb = 0;
	for (size_t g = g0; g < g1 && nb < 5; nb++) {
		size_t x = g % n0, y = g / n0 % ngrp[1], z = g / plane, left = g1 - g;
		vrt_gbox *b = &box[nb];
		b->origin[0] = x;
		b->origin[1] = y;
		b->origin[2] = z;
		b->count[1] = b->count[2] = 1;
		if (x || left < n0) { /* within one row */
			b->count[0] = n0 - x < left ? n0 - x : left;
		} else if (y || left < plane) { /* whole rows of one plane */
			b->count[0] = n0;
			b->count[1] = ngrp[1] - y < left / n0 ? ngrp[1] - y : left / n0;
		} else { /* whole planes */
			b->count[0] = n0;
			b->count[1] = ngrp[1];
			b->count[2] = left / plane;
		}
		g += b->count[0] * b->count[1] * b->count[2];
	}
	return nb;
}
