/* SPDX-License-Identifier: MIT */
/* Kernels of splitpaths/host.c: a kernel's first launch splits equally
 * over two devices, from their models, without profiling (docs/multi.md),
 * give or take a work-group where the windows meet inside a page. */
__kernel void inc(__global float *y, __global const float *a)
{
	size_t i = get_global_id(0);
	y[i] = y[i] + a[i];
}

__kernel void dec(__global float *y, __global const float *a)
{
	size_t i = get_global_id(0);
	y[i] = y[i] - 2.0f * a[i];
}

__kernel void twice(__global const float *f, __global float *g)
{
	size_t i = get_global_id(0);
	g[i] = 2.0f * f[i];
}

__kernel void axpb(__global const float *a, __global const float *b, __global float *y)
{
	size_t i = get_global_id(0);
	y[i] = 3.0f * a[i] + b[i];
}

/* One work-group, never split: reads y from all over it. */
__kernel void gather(__global const float *y, __global float *z, uint stride)
{
	size_t i = get_global_id(0);
	z[i] = y[i * stride] + y[i * stride + stride / 2];
}

/* relay's: scale writes the element it reads, flip the one as far from
 * the end, so that each device's window of flip is the other's of scale. */
__kernel void scale(__global float *y, uint n)
{
	size_t i = get_global_id(0);
	y[i] = 3.0f * y[i] + 1.0f;
}

__kernel void flip(__global float *y, uint n)
{
	size_t i = n - 1 - get_global_id(0);
	y[i] = 0.5f * y[i] - 2.0f;
}
