// Work-group reduction through local memory and barriers.
#define WG 64
__kernel void reduce(__global const float *in, __global float *out, __local float *tmp)
{
	int lid = get_local_id(0);
	__local float part[WG];
	tmp[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
		if (lid < s)
			tmp[lid] += tmp[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	part[lid] = tmp[lid];
	if (lid == 0)
		out[get_group_id(0)] = part[0];
}
