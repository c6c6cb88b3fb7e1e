/* A work-item that branches on its own element of a buffer and clears it
 * afterwards (Rodinia BFS): the inspector reads what the work-item reads.
 * In the other kernels it could not (each says why): it marks the `if`'s
 * accesses whether or not they run instead. */
__kernel void frontier(__global char *mask, __global const int *next,
                       __global int *cost, int n)
{
	int tid = get_global_id(0);
	if (tid < n && mask[tid]) {
		mask[tid] = 0;
		cost[next[tid]] = 1;
	}
}

/* the store comes first: the inspector would read a stale value */
__kernel void store_first(__global char *mask, __global int *cost)
{
	int tid = get_global_id(0);
	mask[tid] = 1;
	if (mask[tid])
		cost[tid] = 1;
}

/* the load repeats in a loop after the store */
__kernel void in_loop(__global char *mask, __global int *cost, int n)
{
	int tid = get_global_id(0);
	for (int k = 0; k < n; k++)
		if (mask[tid]) {
			mask[tid] = 0;
			cost[tid * n + k] = 1;
		}
}

/* another work-item's element is stored */
__kernel void neighbour(__global char *mask, __global int *cost)
{
	int tid = get_global_id(0);
	if (mask[tid]) {
		mask[tid + 1] = 0;
		cost[tid] = 1;
	}
}

/* get_global_id(0) is not unique in a 2-D launch */
__kernel void two_d(__global char *mask, __global int *cost, int w)
{
	int tid = get_global_id(0);
	if (mask[tid]) {
		mask[tid] = 0;
		cost[get_global_id(1) * w + tid] = 1;
	}
}
