/* Compile-at-build with a header (jit_headers.sh): SCALE, which changes
 * what the kernels compute, comes from scale.h, found beside the program
 * (its working directory) or through -I. */
#include "scale.h"

__kernel void vadd(__global const float *a, __global const float *b,
                   __global float *c, uint n)
{
	size_t i = get_global_id(0);
	if (i < n)
		c[i] = a[i] * SCALE + b[i];
}

__kernel void evens(__global int *a, uint n)
{
	size_t i = get_global_id(0);
	if (2 * i < n)
		a[2 * i] = (int)(i * SCALE) + 1;
}
