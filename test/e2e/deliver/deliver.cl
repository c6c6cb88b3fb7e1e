/* SPDX-License-Identifier: MIT */
/* in mirrored, twice: range i writes the pages the last range reads of
 * in, and reads none of its own. */
__kernel void mirror(__global const float *in, __global float *out, __global float *out2,
                     uint n)
{
	size_t i = get_global_id(0);
	out[i] = in[n - 1 - i] * 2.0f + 1.0f;
	out2[i] = in[n - 1 - i] - 3.0f;
}
