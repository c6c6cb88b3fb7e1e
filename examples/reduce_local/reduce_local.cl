/* SPDX-License-Identifier: MIT */
/*
 * Sum per work-group: each work-item loads two elements into a __local
 * array (given as a kernel argument) and the group folds it in a tree
 * with a barrier between steps; item 0 writes the group's sum. The local
 * size must be a power of two.
 */
__kernel void reduce_local(__global const float *in, __global float *partial,
                           __local float *scratch, uint n)
{
	uint lid = get_local_id(0), lsz = get_local_size(0);
	uint base = get_group_id(0) * lsz * 2 + lid;
	float v = base < n ? in[base] : 0.0f;
	if (base + lsz < n)
		v += in[base + lsz];
	scratch[lid] = v;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint s = lsz / 2; s > 0; s >>= 1) {
		if (lid < s)
			scratch[lid] += scratch[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		partial[get_group_id(0)] = scratch[0];
}
