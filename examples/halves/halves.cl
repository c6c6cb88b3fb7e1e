/* SPDX-License-Identifier: MIT */
/*
 * out[i] = in[i] ^ in[n + i]: each work-group reads two pieces of `in`
 * that lie n elements apart, so a range of work-groups smaller than the
 * launch touches two separate runs of its pages, not one (the straight
 * variant cannot run it: docs/generated-kernels.md, test/e2e/straight.sh).
 */
__kernel void halves(__global const uint *in, __global uint *out, uint n)
{
	size_t i = get_global_id(0);
	if (i < n)
		out[i] = in[i] ^ in[n + i];
}
