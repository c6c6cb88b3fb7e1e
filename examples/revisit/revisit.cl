/* SPDX-License-Identifier: MIT */
/*
 * revisit.cl - one pointwise step, run back and forth between two
 * buffers: every page a launch touches is one the launch before left on
 * the device (issue 10, pages that stay on the device).
 */
__kernel void advance(__global const float *in, __global float *out, uint n, float a)
{
	uint i = get_global_id(0);
	if (i < n)
		out[i] = a * in[i] + (float)(i % 5);
}
