/* SPDX-License-Identifier: MIT */
/* A FIR filter: y[i] = sum over k < TAPS of w[k] * x[i + k]. TYPE and
 * TAPS come from the build options. */
__kernel void fir(__global const TYPE *x, __constant TYPE *w, __global TYPE *y, uint n)
{
	uint i = get_global_id(0);
	if (i >= n)
		return;
	TYPE acc = 0;
	for (int k = 0; k < TAPS; k++)
		acc += w[k] * x[i + k];
	y[i] = acc;
}
