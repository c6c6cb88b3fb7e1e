/* SPDX-License-Identifier: MIT */
/* vadd that tests cl_khr_fp16, which vastcc assumes defined (spir64) and
 * PoCL's CPU device does not have: the code vastcc generated computes
 * a - b, the device's own build a + b. Only a native run is right. */
__kernel void vadd(__global const float *a, __global const float *b,
                   __global float *c, uint n)
{
	size_t i = get_global_id(0);
#ifdef cl_khr_fp16
	if (i < n)
		c[i] = a[i] - b[i];
#else
	if (i < n)
		c[i] = a[i] + b[i];
#endif
}
