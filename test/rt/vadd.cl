/* Vector add, and a kernel that writes every other element. */
__kernel void vadd(__global const float *a, __global const float *b,
                   __global float *c, uint n)
{
	size_t i = get_global_id(0);
	if (i < n)
		c[i] = a[i] + b[i];
}

__kernel void evens(__global int *a, uint n)
{
	size_t i = get_global_id(0);
	if (2 * i < n)
		a[2 * i] = (int)i * 3 + 1;
}

__kernel void copy1(__global const float *a, __global float *b)
{
	size_t i = get_global_id(0);
	b[i] = a[i];
}
