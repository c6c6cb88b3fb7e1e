/* Stores to vector components write only some bytes of the element. */
__kernel void comp(__global float4 *v)
{
	v[get_global_id(0)].y = 1.0f;
}

__kernel void swizzle(__global float4 *v)
{
	v[get_global_id(0)].s23 = (float2)(0.0f, 1.0f);
}

__kernel void bump(__global int2 *v)
{
	v[get_global_id(0)].x++;
}

/* reading a component and storing whole elements stays exact */
__kernel void whole(__global float4 *v, __global float *out)
{
	out[get_global_id(0)] = v[get_global_id(0)].y;
	v[get_global_id(0)] = (float4)(0.0f);
}

/* components that are not one run of bytes: the merge would copy the
 * whole element */
__kernel void gaps(__global float4 *v)
{
	v[get_global_id(0)].xz = (float2)(1.0f);
}

__kernel void odd(__global float4 *v)
{
	v[get_global_id(0)].odd = (float2)(1.0f);
}

__kernel void index(__global float4 *v)
{
	v[get_global_id(0)][3] = 1.0f;
	v[get_global_id(0)].hi = (float2)(2.0f);
}
