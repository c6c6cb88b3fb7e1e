/* SPDX-License-Identifier: MIT */
/* A pair the runtime fuses, launched again and again, for
 * test/e2e/fused_plans.sh: whether a kept fused plan may run a pair
 * depends on the second kernel and on the scalars its descriptors name. */
uint mix(uint x)
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x;
}

/* seed is no part of an address: a plan does not depend on it. */
__kernel void produce(__global uint *out, uint seed)
{
	size_t i = get_global_id(0);
	out[i] = mix((uint)i + seed);
}

/* k = 0: each range reads what it wrote itself (fused); larger, what a
 * later range writes (not fused). */
__kernel void shifted(__global const uint *out, __global uint *dst, uint k)
{
	size_t i = get_global_id(0);
	dst[i] = out[i + k] * 3u + 1u;
}

/* What the other end of the launch before it wrote (not fused); its
 * arguments are shifted's, with k = 0. */
__kernel void mirror(__global const uint *out, __global uint *dst, uint k)
{
	size_t i = get_global_id(0);
	dst[i] = out[get_global_size(0) - 1 - i + k] + 7u;
}
