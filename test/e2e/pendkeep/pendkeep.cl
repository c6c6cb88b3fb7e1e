/* SPDX-License-Identifier: MIT */
__kernel void accum(__global const float *x, __global float *y)
{
	size_t i = get_global_id(0);
	y[i] = y[i] * 0.5f + x[i];
}
