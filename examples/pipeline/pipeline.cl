/* SPDX-License-Identifier: MIT */
/*
 * Two kernels the host runs alternately on the same two buffers: `smooth`
 * reads a and writes b, `sharpen` reads b and writes a back. Each reads a
 * neighbour, so the ranges of one launch overlap at their edges.
 */
__kernel void smooth(__global const float *a, __global float *b, uint n)
{
	uint i = get_global_id(0);
	if (i < n)
		b[i] = 0.5f * (a[i] + a[i + 1 < n ? i + 1 : i]);
}

__kernel void sharpen(__global const float *b, __global float *a, uint n)
{
	uint i = get_global_id(0);
	if (i < n)
		a[i] = 1.5f * b[i] - 0.5f * b[i > 0 ? i - 1 : 0];
}
