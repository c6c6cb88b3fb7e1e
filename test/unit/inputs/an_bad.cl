// Kernels that cannot be virtualized.
__kernel void ptr_from_int(__global float *a, ulong addr)
{
	__global float *p = (__global float *)addr;
	p[get_global_id(0)] = 1.0f;
}
__kernel void store_feeds_address(__global int *a, __global float *b)
{
	int k = atomic_inc(&a[0]);
	b[k] = 1.0f;
}
__kernel void self_indirect(__global int *idx, __global float *b)
{
	int i = get_global_id(0);
	idx[i] = i;
	b[idx[i + 1]] = 0.0f;
}
__kernel void async(__global float *a, __local float *l)
{
	event_t e = async_work_group_copy(l, a, 16, 0);
	wait_group_events(1, &e);
}
__kernel void stores_ptr(__global float *a, __global ulong *out)
{
	__global float *__global *pp = (__global float *__global *)out;
	*pp = a;
}
