/* SPDX-License-Identifier: MIT */
/* Particle integration and per-block bounds, NVIDIA OpenCL SDK style.
 * BLOCK_SIZE and WIND_TABLE come from the build options (-D). */
#ifndef BLOCK_SIZE
#error "build with -DBLOCK_SIZE=..."
#endif

typedef struct {
	float4 gravity;
	float dt;
	float damping;
	uint numParticles;
	uint windMask;
} SimParams;

__kernel void integrate(__global float4 *d_Pos, __global float4 *d_Vel,
                        __constant float4 *c_Wind, const SimParams params)
{
	const uint i = get_global_id(0);
	if (i >= params.numParticles)
		return;
	float4 p = d_Pos[i];
	float4 v = d_Vel[i];
	v += (params.gravity + c_Wind[i & params.windMask]) * params.dt;
#ifdef USE_DAMPING
	v *= params.damping;
#endif
	p += v * params.dt;
	if (p.y < -1.0f) {
		p.y = -1.0f;
		v.y = -v.y * 0.5f;
	}
	d_Pos[i] = p;
	d_Vel[i] = v;
}

__kernel void blockBounds(__global const float4 *d_Pos, __global float4 *d_Min,
                          __global float4 *d_Max, __local float4 *s_Min,
                          __local float4 *s_Max, uint numParticles)
{
	const uint lid = get_local_id(0);
	const uint gid = get_global_id(0);
	float4 p = gid < numParticles ? d_Pos[gid] : d_Pos[0];
	s_Min[lid] = p;
	s_Max[lid] = p;
	for (uint stride = BLOCK_SIZE / 2; stride > 0; stride >>= 1) {
		barrier(CLK_LOCAL_MEM_FENCE);
		if (lid < stride) {
			s_Min[lid] = fmin(s_Min[lid], s_Min[lid + stride]);
			s_Max[lid] = fmax(s_Max[lid], s_Max[lid + stride]);
		}
	}
	if (lid == 0) {
		d_Min[get_group_id(0)] = s_Min[0];
		d_Max[get_group_id(0)] = s_Max[0];
	}
}
