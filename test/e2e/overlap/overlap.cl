/* SPDX-License-Identifier: MIT */
/* The kernels of overlap.sh (test/e2e). */

/* One step of a 1-D smoothing: affine reads with a halo, guarded at the
 * ends, and a write of every element (planned from descriptors). */
__kernel void smooth(__global const float *a, __global float *b, int n)
{
	int i = get_global_id(0);
	if (i > 0 && i < n - 1)
		b[i] = 0.25f * a[i - 1] + 0.5f * a[i] + 0.25f * a[i + 1] + 1.0f;
	else
		b[i] = a[i];
}
