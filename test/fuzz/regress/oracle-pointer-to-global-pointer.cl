__kernel void k(__global float *a, __global float *b)
{
	__global float * __global *slot = (__global float * __global *)b;
	slot[get_global_id(0)] = a;
}
