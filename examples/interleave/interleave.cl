/* SPDX-License-Identifier: MIT */
/*
 * Work-groups interleave: work-item l of group g of G (a multiple of 4)
 * handles element e = l * G + (g * K) % G with K = G/2 + 1, a permutation
 * (K is odd and K * K = 1 mod G) under which neighbouring elements come
 * from groups G/2 + 1 apart: split over devices, every page of `out` is
 * written by every device's window of work-groups, byte next to byte. Each
 * element is 3 bytes of `out`, of which the kernel writes one (the
 * first or the second, by the group's parity) and leaves two untouched,
 * which must keep the values the host put there.
 */
__kernel void interleave(__global const uchar *in, __global uchar *out, uint n)
{
	size_t g = get_group_id(0), G = get_num_groups(0);
	size_t e = get_local_id(0) * G + g * (G / 2 + 1) % G;
	if (e < n)
		out[3 * e + (g & 1)] = in[e] ^ 0x5a;
}
