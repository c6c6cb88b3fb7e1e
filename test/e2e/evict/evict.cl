/* SPDX-License-Identifier: MIT */
/* evict.cl - for test/e2e/evict.sh: a small kernel that runs natively and
 * a large one that pages. */
__kernel void scale(__global float *a, float f)
{
	size_t i = get_global_id(0);
	a[i] = a[i] * f + 1.0f;
}

__kernel void sum2(__global const float *x, __global const float *y, __global float *z)
{
	size_t i = get_global_id(0);
	z[i] = x[i] + 2.0f * y[i] + z[i] * 0.5f;
}
