// A statement ending in a vector literal, whose libclang extent stops short.
__kernel void veclit(__global float4 *a, int n)
{
	int i = get_global_id(0);
	a[i] = i < n ? a[i + 1] : (float4)(0.0f);
}
