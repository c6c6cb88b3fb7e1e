/* SPDX-License-Identifier: MIT */
/* out[i] = a[j.x] + a[j.y] + b[j.z] + b[j.w], j = idx[i]: the inspector
 * needs j, an int4 loaded through a __global int4 * (an aligned vector
 * load), to find a's and b's pages. No bound: a launch larger than idx
 * reads past it. Four buffers, so the pasinfo's scratch after them began
 * at byte (3*4+3)*8 = 120, not a multiple of 16. */
__kernel void gather4(__global const int4 *idx, __global const float *a,
                      __global const float *b, __global float *out)
{
	size_t i = get_global_id(0);
	int4 j = idx[i];
	out[i] = a[j.x] + a[j.y] + b[j.z] + b[j.w];
}
