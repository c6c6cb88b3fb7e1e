/* SPDX-License-Identifier: MIT */
/*
 * One sweep of a 2-D Jacobi iteration (as PolyBench's jacobi-2d) on an
 * N x N grid, row-major: interior cells of out become the mean of the
 * 5-point neighbourhood in in; border cells are left as they are. A time
 * step is two sweeps, a into b and b into a.
 */
__kernel void jacobi2d(__global const float *in, __global float *out, uint n)
{
	uint x = get_global_id(0), y = get_global_id(1);
	if (x == 0 || y == 0 || x + 1 >= n || y + 1 >= n)
		return;
	out[y * n + x] = 0.2f * (in[y * n + x] + in[y * n + x - 1] + in[y * n + x + 1] +
	                         in[(y - 1) * n + x] + in[(y + 1) * n + x]);
}
