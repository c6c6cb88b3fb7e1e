/* SPDX-License-Identifier: MIT */
/*
 * A histogram by global atomics: every work-item adds one to the bin of
 * its key. Split over devices, two shares' counts of one bin would both
 * have to be added, which no byte merge does: the runtime runs it on one
 * device (issue 12, docs/multi.md).
 */
__kernel void histogram(__global const uint *keys, __global uint *hist, uint n)
{
	size_t i = get_global_id(0);
	if (i < n)
		atomic_inc(&hist[keys[i] & 255]);
}
