__kernel void scale(__global float *a, float f)
{
	size_t i = get_global_id(0);
	a[i] = a[i] * f + 1.0f;
}
__kernel void make(__global const float *x, __global const float *y, __global float *z)
{
	size_t i = get_global_id(0);
	z[i] = x[i] + 2.0f * y[i];
}
__kernel void use(__global const float *z, __global float *w)
{
	size_t i = get_global_id(0);
	w[i] = z[i] * 0.5f + 3.0f;
}
