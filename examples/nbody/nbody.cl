/* SPDX-License-Identifier: MIT */
/*
 * NBody: one leapfrog step of N gravitating bodies (float4: xyz and mass),
 * all pairs, as in the GPU SDK sample: each work-group walks the bodies
 * in tiles of LOCAL, staged in __local memory so every position is read
 * from global memory once per group. Padding bodies (j >= n) have mass 0.
 * The acceleration is stored too, for the host's check.
 */
#define LOCAL 256

__kernel void nbody(__global const float4 *pos, __global const float4 *vel,
                    __global float4 *newpos, __global float4 *newvel,
                    __global float4 *acc, uint n, float dt, float eps2)
{
	__local float4 tile[LOCAL];
	size_t i = get_global_id(0);
	size_t lid = get_local_id(0);
	float4 p = i < n ? pos[i] : (float4)(0.0f);
	float3 a = (float3)(0.0f);

	for (size_t base = 0; base < n; base += LOCAL) {
		size_t j = base + lid;
		tile[lid] = j < n ? pos[j] : (float4)(0.0f);
		barrier(CLK_LOCAL_MEM_FENCE);
		for (int k = 0; k < LOCAL; k++) {
			float4 q = tile[k];
			float3 d = q.xyz - p.xyz;
			float inv = rsqrt(dot(d, d) + eps2);
			a += d * (q.w * inv * inv * inv);
		}
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (i < n) {
		float4 v = vel[i];
		v.xyz += a * dt;
		p.xyz += v.xyz * dt;
		newpos[i] = p;
		newvel[i] = v;
		acc[i] = (float4)(a, 0.0f);
	}
}
