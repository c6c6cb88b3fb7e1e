/* SPDX-License-Identifier: MIT */
/* A program with a __constant buffer parameter: its straight kernels
 * translate an access through a helper by the LPT's run table
 * (docs/generated-kernels.md), not by their arguments' runs. */
static float get(__global const float *p, size_t i)
{
	return p[i];
}

__kernel void inc(__global float *y, __global const float *a)
{
	size_t i = get_global_id(0);
	y[i] = y[i] + a[i];
}

__kernel void addh(__global float *y, __global const float *a)
{
	size_t i = get_global_id(0);
	y[i] = y[i] + 2.0f * get(a, i);
}

__kernel void first(__constant float *c, __global float *o)
{
	o[get_global_id(0)] = c[0];
}
