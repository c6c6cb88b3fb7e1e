/* SPDX-License-Identifier: MIT */
/*
 * One time step of a 2-D FDTD (TE mode, as PolyBench's fdtd-2d) on H x W
 * grids, row-major, in three kernels run in order: ey, ex, then hz from
 * both. Cells whose neighbour lies outside the grid are left as they are.
 */
__kernel void fdtd_ey(__global float *ey, __global const float *hz, uint w, uint h,
                      float source)
{
	uint x = get_global_id(0), y = get_global_id(1);
	if (x >= w || y >= h)
		return;
	ey[y * w + x] = y == 0 ? source : ey[y * w + x] - 0.5f * (hz[y * w + x] - hz[(y - 1) * w + x]);
}

__kernel void fdtd_ex(__global float *ex, __global const float *hz, uint w, uint h)
{
	uint x = get_global_id(0), y = get_global_id(1);
	if (x == 0 || x >= w || y >= h)
		return;
	ex[y * w + x] = ex[y * w + x] - 0.5f * (hz[y * w + x] - hz[y * w + x - 1]);
}

__kernel void fdtd_hz(__global const float *ex, __global const float *ey, __global float *hz,
                      uint w, uint h)
{
	uint x = get_global_id(0), y = get_global_id(1);
	if (x + 1 >= w || y + 1 >= h)
		return;
	hz[y * w + x] = hz[y * w + x] - 0.7f * (ex[y * w + x + 1] - ex[y * w + x] +
	                                        ey[(y + 1) * w + x] - ey[y * w + x]);
}
