/* SPDX-License-Identifier: MIT */
/* vadd spelled with names that begin with vast_, as the generated code's
 * once did: the generated names then take another prefix (vast1_). */
__kernel void vadd(__global const float *a, __global const float *b,
                   __global float *c, uint n)
{
	size_t vast_gsize = get_global_id(0);
	__global float *vast_c = c;
	if (vast_gsize < n)
		vast_c[vast_gsize] = a[vast_gsize] + b[vast_gsize];
}
