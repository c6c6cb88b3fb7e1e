/* SPDX-License-Identifier: MIT */
/* y = 3a + b: two read-only inputs, one write-only output. */
__kernel void axpb(__global const float *a, __global const float *b, __global float *y)
{
	size_t i = get_global_id(0);
	y[i] = 3.0f * a[i] + b[i];
}
