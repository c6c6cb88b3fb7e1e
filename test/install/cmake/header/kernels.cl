/* SPDX-License-Identifier: MIT */
/* A kernel file that includes a header: editing the header rebuilds its
 * object (vastcc_add_kernels' DEPFILE). */
#include "scale.h"

__kernel void vadd(__global const float *a, __global const float *b,
                   __global float *c)
{
	size_t i = get_global_id(0);
	c[i] = SCALE * a[i] + b[i];
}
