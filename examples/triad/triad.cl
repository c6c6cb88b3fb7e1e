/* SPDX-License-Identifier: MIT */
/* a = b + s * c over uint4 vectors with 64-bit indices: integer
 * arithmetic, so every device's bytes equal the host's. */
__kernel void triad(__global uint4 *a, __global const uint4 *b,
                    __global const uint4 *c, uint s, ulong n4)
{
	size_t i = get_global_id(0);
	if (i < n4)
		a[i] = b[i] + s * c[i];
}
