// SPDX-License-Identifier: MIT
// y = a*x + y, then a neighbour sum into z: two kernels, one reading what
// the other wrote.
__kernel void saxpy(float a, __global const float *x, __global float *y, uint n)
{
	size_t i = get_global_id(0);
	if (i < n)
		y[i] = a * x[i] + y[i];
}

__kernel void pairs(__global const float *y, __global float *z, uint n)
{
	size_t i = get_global_id(0);
	if (i < n)
		z[i] = y[i] + (i + 1 < n ? y[i + 1] : 0.0f);
}
