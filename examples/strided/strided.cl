/* SPDX-License-Identifier: MIT */
/*
 * Work-groups write with a stride: work-item l of group g of G writes
 * element e = l * G + g, the even byte 2e of `out`, and leaves the odd
 * one untouched. The writes are affine (footprint descriptors describe
 * them), and every group writes into every page of `out`: split over
 * devices, no page is written by one device alone, so the shares' write
 * sets are never disjoint (issue 12: private copies and the byte merge,
 * on every launch).
 */
__kernel void strided(__global const uchar *in, __global uchar *out, uint n, uint it)
{
	size_t e = get_local_id(0) * get_num_groups(0) + get_group_id(0);
	if (e < n)
		out[2 * e] = in[e] ^ (uchar)it;
}
