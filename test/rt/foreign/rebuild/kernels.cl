/* SPDX-License-Identifier: MIT */
/* Needs -DSCALE=... -DOFFSET=...: built first without OFFSET, which fails. */
#ifndef OFFSET
#error "OFFSET must be defined"
#endif

__kernel void axpy_every_other(__global const float *x, __global float *y, uint n)
{
	uint i = get_global_id(0);
	if (i < n)
		y[2 * i] = SCALE * x[i] + y[2 * i] + OFFSET;
}

__kernel void rows_sum(__global const float *m, __global float *out, uint cols)
{
	uint r = get_global_id(0);
	float s = 0.0f;
	for (uint c = 0; c < cols; c++)
		s += m[r * cols + c];
	out[r] = s;
}
