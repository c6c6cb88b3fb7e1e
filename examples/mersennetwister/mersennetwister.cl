/* SPDX-License-Identifier: MIT */
/*
 * MersenneTwister + BoxMuller, the GPU SDK pipeline: every work-item runs
 * its own small Mersenne Twister (MT607 state of 19 words, the SDK's
 * dcmt-style generator with per-generator matrix_a and tempering masks)
 * and writes NPER uniform floats in (0, 1]; a second kernel turns each
 * pair into two normal deviates in place.
 *
 * Layout: work-group g owns one contiguous chunk of LOCAL * NPER floats,
 * its item l's k-th number at chunk[k * LOCAL + l]. Writes stay coalesced
 * as in the SDK's out[tid + k * RNG_COUNT] layout, but a range of groups
 * touches one contiguous piece of the output, which is what lets the
 * output be paged by ranges of work-groups.
 */
#define MT_MM 9
#define MT_NN 19
#define MT_UMASK 0xFFFFFFFEU
#define MT_LMASK 0x1U
#define MT_SHIFT0 12
#define MT_SHIFTB 7
#define MT_SHIFTC 15
#define MT_SHIFT1 18
#define PI 3.14159265358979f

typedef struct mt_params {
	uint matrix_a, mask_b, mask_c, seed;
} mt_params;

__kernel void mersenne_twister(__global float *out,
                               __global const mt_params *params, uint nper)
{
	size_t lid = get_local_id(0), ls = get_local_size(0);
	__global float *chunk = out + get_group_id(0) * ls * nper;
	mt_params p = params[get_global_id(0)];
	uint mt[MT_NN];

	mt[0] = p.seed;
	for (int i = 1; i < MT_NN; i++)
		mt[i] = 1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i;

	int state = 0;
	uint mti1 = mt[0];
	for (uint k = 0; k < nper; k++) {
		int state1 = state + 1, statem = state + MT_MM;
		if (state1 >= MT_NN)
			state1 -= MT_NN;
		if (statem >= MT_NN)
			statem -= MT_NN;
		uint mti = mti1;
		mti1 = mt[state1];
		uint x = (mti & MT_UMASK) | (mti1 & MT_LMASK);
		x = mt[statem] ^ (x >> 1) ^ ((x & 1) ? p.matrix_a : 0);
		mt[state] = x;
		state = state1;
		/* Tempering. */
		x ^= x >> MT_SHIFT0;
		x ^= (x << MT_SHIFTB) & p.mask_b;
		x ^= (x << MT_SHIFTC) & p.mask_c;
		x ^= x >> MT_SHIFT1;
		chunk[(size_t)k * ls + lid] = ((float)x + 1.0f) / 4294967296.0f;
	}
}

/* Numbers k and k+1 of a stream become r cos(phi), r sin(phi). */
__kernel void box_muller(__global float *data, uint nper)
{
	size_t lid = get_local_id(0), ls = get_local_size(0);
	__global float *chunk = data + get_group_id(0) * ls * nper;
	for (uint k = 0; k < nper; k += 2) {
		size_t i0 = (size_t)k * ls + lid, i1 = i0 + ls;
		float r = sqrt(-2.0f * log(chunk[i0]));
		float phi = 2.0f * PI * chunk[i1];
		chunk[i0] = r * cos(phi);
		chunk[i1] = r * sin(phi);
	}
}
