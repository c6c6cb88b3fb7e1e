/* SPDX-License-Identifier: MIT */
/* in mirrored, twice: range i writes the pages the last range reads of
 * in, and reads none of its own. */
__kernel void mirror(__global const float *in, __global float *out, __global float *out2,
                     uint n)
{
	size_t i = get_global_id(0);
	out[i] = in[n - 1 - i] * 2.0f + 1.0f;
	out2[i] = in[n - 1 - i] - 3.0f;
}

/* A work-item per (x, y) walks every plane, z mirrored: a range's bytes of
 * each buffer are rows of every plane, moved as one strided box. */
__kernel void planes(__global const float *in, __global float *out, uint nx, uint ny,
                     uint nz)
{
	size_t x = get_global_id(0), y = get_global_id(1);
	size_t plane = (size_t)nx * ny;
	for (uint z = 0; z < nz; z++)
		out[z * plane + y * nx + x] = in[(nz - 1 - z) * plane + y * nx + x] * 2.0f + (float)z;
}
