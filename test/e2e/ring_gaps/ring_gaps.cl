/* SPDX-License-Identifier: MIT */
/* For test/e2e/ring_gaps.sh: two buffers the kernel only writes, every
 * element of a row but the last, which keeps what the program wrote
 * there: each row's last page is written in part and goes in by its gap
 * (runtime/plan/gaps.c). narrow's elements are half the size of wide's. */
__kernel void edges(__global ushort *narrow, __global uint *wide, uint w)
{
	uint x = get_global_id(0), y = get_global_id(1);
	if (x + 1 >= w)
		return;
	narrow[y * w + x] = (ushort)(x * 7u + y);
	wide[y * w + x] = x * 31u + y;
}
