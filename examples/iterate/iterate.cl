/* SPDX-License-Identifier: MIT */
/*
 * An iterative program's kernels (issue 10): a 5-point Jacobi step, a
 * pointwise relaxation that runs after it on its output (a two-kernel
 * pipeline), and a gather through an index buffer (an indirect kernel).
 */
__kernel void jacobi(__global const float *in, __global float *out, uint w, uint h)
{
	uint x = get_global_id(0), y = get_global_id(1);
	uint xl = x > 0 ? x - 1 : 0, xr = x + 1 < w ? x + 1 : x;
	uint yu = y > 0 ? y - 1 : 0, yd = y + 1 < h ? y + 1 : y;
	out[y * w + x] = 0.25f * (in[yu * w + x] + in[yd * w + x] + in[y * w + xl] +
	                          in[y * w + xr]);
}

__kernel void relax(__global float *g, uint n, float a)
{
	uint i = get_global_id(0);
	if (i < n)
		g[i] = a * g[i] + (1.0f - a) * (float)(i % 7);
}

__kernel void gather(__global const float *src, __global const int *idx,
                     __global float *dst, uint n)
{
	uint i = get_global_id(0);
	if (i < n)
		dst[i] = src[idx[i]];
}
