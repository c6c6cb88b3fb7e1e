/* A buffer address turned into an integer: virtual in the paged kernel. */
__kernel void addr(__global float *a, __global ulong *out)
{
	out[get_global_id(0)] = (ulong)(a + get_global_id(0));
}

/* alignment test of a buffer pointer */
__kernel void aligned(__global float *a, __global int *out)
{
	out[get_global_id(0)] = ((size_t)a & 15) == 0;
}

/* an integer cast of data, not of a pointer, is fine */
__kernel void data(__global float *a, __global ulong *out)
{
	out[get_global_id(0)] = (ulong)a[get_global_id(0)];
}
