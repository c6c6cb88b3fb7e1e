/* SPDX-License-Identifier: MIT */
/* vadd that tests device macros PoCL's CPU device defines as vastcc
 * assumes (cl_khr_fp64, __IMAGE_SUPPORT__): the generated program holds
 * and the kernel pages. */
__kernel void vadd(__global const float *a, __global const float *b,
                   __global float *c, uint n)
{
	size_t i = get_global_id(0);
#if defined(cl_khr_fp64) && defined(__IMAGE_SUPPORT__)
	if (i < n)
		c[i] = a[i] + b[i];
#else
	if (i < n)
		c[i] = a[i] - b[i];
#endif
}
