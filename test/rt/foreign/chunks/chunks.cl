/* SPDX-License-Identifier: MIT */
/* Out-of-core style processing: a smoothing pass over each chunk (a
 * sub-buffer) and a combining pass over whole buffers. */
__kernel void smooth(__global const float *in, __global float *out, uint n)
{
	uint i = get_global_id(0);
	if (i >= n)
		return;
	uint l = i > 0 ? i - 1 : 0;
	uint r = i + 1 < n ? i + 1 : n - 1;
	out[i] = (in[l] + in[i] + in[r]) * (1.0f / 3.0f);
}

__kernel void combine(__global float *b, __global const float *a, uint n)
{
	uint i = get_global_id(0);
	if (i < n)
		b[i] = b[i] * 0.5f + a[n - 1 - i];
}
