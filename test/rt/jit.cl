/* Compile-at-build (jit.sh): vadd.cl's kernels with a build option,
 * SCALE, that changes what they compute. */
#ifndef SCALE
#error "build with -DSCALE=..."
#endif

__kernel void vadd(__global const float *a, __global const float *b,
                   __global float *c, uint n)
{
	size_t i = get_global_id(0);
	if (i < n)
		c[i] = a[i] * SCALE + b[i];
}

__kernel void evens(__global int *a, uint n)
{
	size_t i = get_global_id(0);
	if (2 * i < n)
		a[2 * i] = (int)(i * SCALE) + 1;
}
