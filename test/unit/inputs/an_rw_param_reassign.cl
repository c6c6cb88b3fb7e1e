/* Kernel parameters that the kernel reassigns are not loop invariants:
 * the address pattern follows what is assigned to them. */
__kernel void shifted(__global const uint *src, __global uint *dst)
{
	src += get_group_id(0) * 256 + get_local_id(0);
	dst += get_group_id(0) * 256 + get_local_id(0);
	dst[0] = src[0];
	dst[128] = src[128];
}

__kernel void squared(__global const uint *src, __global uint *dst, uint n)
{
	uint i = get_global_id(0);
	src += i * i;
	dst[i] = src[0];
}

__kernel void scaled(__global const uint *src, __global uint *dst, uint n)
{
	uint i = get_global_id(0);
	n = n * i;
	dst[i] = src[n];
}

__kernel void stepped(__global const uint *src, __global uint *dst, uint n)
{
	uint i = get_global_id(0);
	for (uint k = 0; k < 4; k++) {
		dst[i * 4 + k] = src[0];
		src += n;
	}
}
