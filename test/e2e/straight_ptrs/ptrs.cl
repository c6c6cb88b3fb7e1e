/* SPDX-License-Identifier: MIT */
/*
 * Pointer values in the straight kernel, for test/e2e/straight_ptrs.sh:
 * its __global buffers point into the frames (docs/generated-kernels.md),
 * so what the program computes from their values must not change: a
 * pointer chosen at run time, one passed to a helper, comparisons of
 * pointers into one buffer, equality of two parameters bound to one
 * buffer, a NULL buffer.
 */
float pick(__global const float *p, int i)
{
	return p[i];
}

__kernel void blend(__global const float *a, __global const float *b, __global float *out,
                    __global const float *bias, int which)
{
	int i = get_global_id(0);
	__global const float *src = which ? a : b;
	__global const float *end = a + get_global_size(0);
	float v = a[i] + 2.0f * src[i] + 3.0f * pick(b, i);
	v += a + i < end ? 10.0f : 0.0f;
	v += src == a ? 100.0f : 0.0f;
	v += a == b ? 1000.0f : 0.0f;
	v += (float)(&a[i] - a == i) * 10000.0f;
	if (bias)
		v += bias[i];
	else
		v -= 0.5f;
	out[i] = v;
}
