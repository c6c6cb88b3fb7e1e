/* SPDX-License-Identifier: MIT */
/*
 * Reduction: the sum of N uints in two passes, as in the GPU SDK sample.
 * Pass 1: each work-group of LOCAL items sums one contiguous chunk of
 * LOCAL*PER_ITEM elements (item l reads l, l+LOCAL, ...: coalesced), then
 * a __local tree. Pass 2: one work-group sums the per-group partials into
 * a ulong. Inputs are below 256, so a chunk's sum fits a uint.
 */
#define LOCAL 256
#define PER_ITEM 64

__kernel void reduce_partial(__global const uint *in, __global uint *partial,
                             ulong n)
{
	__local uint s[LOCAL];
	size_t lid = get_local_id(0);
	size_t base = get_group_id(0) * (size_t)(LOCAL * PER_ITEM);
	uint sum = 0;
	for (uint k = 0; k < PER_ITEM; k++) {
		size_t i = base + (size_t)k * LOCAL + lid;
		if (i < n)
			sum += in[i];
	}
	s[lid] = sum;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint stride = LOCAL / 2; stride > 0; stride >>= 1) {
		if (lid < stride)
			s[lid] += s[lid + stride];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		partial[get_group_id(0)] = s[0];
}

__kernel void reduce_final(__global const uint *partial, __global ulong *result,
                           uint ngroups)
{
	__local ulong s[LOCAL];
	uint lid = get_local_id(0);
	ulong sum = 0;
	for (uint i = lid; i < ngroups; i += LOCAL)
		sum += partial[i];
	s[lid] = sum;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint stride = LOCAL / 2; stride > 0; stride >>= 1) {
		if (lid < stride)
			s[lid] += s[lid + stride];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		result[0] = s[0];
}
