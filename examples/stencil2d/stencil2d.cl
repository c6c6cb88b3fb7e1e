/* SPDX-License-Identifier: MIT */
/*
 * One Jacobi step of a 5-point stencil on a W x H grid, row-major, 2-D
 * NDRange. Edge cells read their out-of-grid neighbours clamped to the
 * border, so every output cell is written.
 */
__kernel void stencil2d(__global const float *in, __global float *out,
                        uint w, uint h, float c0, float c1)
{
	uint x = get_global_id(0), y = get_global_id(1);
	if (x >= w || y >= h)
		return;
	uint xl = x > 0 ? x - 1 : 0, xr = x + 1 < w ? x + 1 : x;
	uint yu = y > 0 ? y - 1 : 0, yd = y + 1 < h ? y + 1 : y;
	float n = in[yu * w + x], s = in[yd * w + x];
	float e = in[y * w + xr], wv = in[y * w + xl];
	out[y * w + x] = c0 * in[y * w + x] + c1 * (n + s + e + wv);
}
