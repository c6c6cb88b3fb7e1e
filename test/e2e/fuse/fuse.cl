/* SPDX-License-Identifier: MIT */
/* Pairs of kernels a program runs back to back over the same work-items,
 * for test/e2e/fuse.sh: some the runtime may run range by range together
 * (fused), some it must not. */
uint mix(uint x)
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x;
}

__kernel void produce(__global uint *out)
{
	size_t i = get_global_id(0);
	out[i] = mix((uint)i);
}

__kernel void transform(__global uint *out)
{
	size_t i = get_global_id(0);
	out[i] = out[i] * 3u + 1u;
}

/* The even elements only: every page it writes is half the program's. */
__kernel void produce_even(__global uint *out)
{
	size_t i = get_global_id(0);
	out[2 * i] = mix((uint)i);
}

__kernel void fold_pairs(__global uint *out)
{
	size_t i = get_global_id(0);
	uint a = out[2 * i], b = out[2 * i + 1];
	out[2 * i] = a + b;
	out[2 * i + 1] = a ^ b;
}

/* A buffer the kernel before it does not have. */
__kernel void combine(__global const uint *out, __global const uint *in2, __global uint *out2)
{
	size_t i = get_global_id(0);
	out2[i] = out[i] + in2[i];
}

/* What the other end of the launch before it wrote. */
__kernel void mirror_read(__global const uint *out, __global uint *out2, uint n)
{
	size_t i = get_global_id(0);
	out2[i] = out[n - 1 - i] + 7u;
}

/* Reads in mirrored; the kernel after it overwrites in from out. */
__kernel void produce_from(__global const uint *in, __global uint *out, uint n)
{
	size_t i = get_global_id(0);
	out[i] = mix(in[n - 1 - i]);
}

__kernel void overwrite(__global uint *in, __global const uint *out)
{
	size_t i = get_global_id(0);
	in[i] = out[i] + (uint)i * 5u;
}
