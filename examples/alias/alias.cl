/* SPDX-License-Identifier: MIT */
/*
 * y = a*x + y. The host also calls it with x and y bound to the same
 * buffer, so one buffer is read through one parameter and written through
 * another in the same launch.
 */
__kernel void axpy(float a, __global const float *x, __global float *y,
                   uint n)
{
	uint i = get_global_id(0);
	if (i < n)
		y[i] = a * x[i] + y[i];
}
