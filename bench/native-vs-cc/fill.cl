/* SPDX-License-Identifier: MIT */
/* y = 2x + 1: one read and one write per element, so the run is the
 * buffers' creation, filling and reading back. */
__kernel void scale(__global const float *x, __global float *y)
{
	size_t i = get_global_id(0);
	y[i] = x[i] * 2.0f + 1.0f;
}
