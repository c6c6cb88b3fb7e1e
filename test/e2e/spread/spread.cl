/* SPDX-License-Identifier: MIT */
/* y = 3a + b: two read-only inputs, one write-only output (spread.sh). */
__kernel void axpb(__global const float *a, __global const float *b, __global float *y)
{
	size_t i = get_global_id(0);
	y[i] = 3.0f * a[i] + b[i];
}

/* One work-group, never split: each of its 64 work-items reads two bytes'
 * worth of y from all over it (docs/multi.md: a launch of one work-group
 * runs on its own device). */
__kernel void gather(__global const float *y, __global float *z, uint stride)
{
	size_t i = get_global_id(0);
	z[i] = y[i * stride] + y[i * stride + stride / 2];
}
