/* SPDX-License-Identifier: MIT */
/*
 * Writes every other element of `out` (the even ones) and leaves the odd
 * ones untouched: every page of `out` is written, but only in part, so
 * its untouched bytes must keep the values the host put there.
 */
__kernel void sparse_write(__global const float *in, __global float *out,
                           uint n)
{
	uint i = get_global_id(0);
	if (i < n)
		out[2 * i] = in[i] * 2.0f;
}
