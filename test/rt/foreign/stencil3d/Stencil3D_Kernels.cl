/* SPDX-License-Identifier: MIT */
/* 3-D 7-point stencil, AMD APP SDK sample style: kernels take 3-D ids and
 * are launched with a global offset that skips the boundary. */

__kernel void initVolume(__global float *vol, uint width, uint height)
{
	uint x = get_global_id(0);
	uint y = get_global_id(1);
	uint z = get_global_id(2);
	uint idx = (z * height + y) * width + x;
	vol[idx] = (float)((x * 7u + y * 13u + z * 29u) % 97u) * 0.125f - 3.0f;
}

__kernel void stencil7(__global const float *input, __global float *output,
                       uint width, uint height, float c0, float c1)
{
	/* The launch's global offset is (1,1,1): ids are already interior. */
	uint x = get_global_id(0);
	uint y = get_global_id(1);
	uint z = get_global_id(2);
	uint plane = width * height;
	uint idx = z * plane + y * width + x;
	output[idx] = c0 * input[idx] +
	              c1 * (input[idx - 1] + input[idx + 1] +
	                    input[idx - width] + input[idx + width] +
	                    input[idx - plane] + input[idx + plane]);
}

__kernel void scaleVolume(__global float *vol, float factor)
{
	size_t i = get_global_id(0) + get_global_size(0) *
	           (get_global_id(1) + get_global_size(1) * get_global_id(2));
	vol[i] *= factor;
}
