/* Locations of accesses on lines with macros (test_an_colmap.c). */
#include "an_colmap.h"
#define IDX(x, y) ((y) * 64 + (x))
#define LOAD(p, i) ((p)[(i)])
#define N 16
__kernel void k(__global const float *in, __global float *out)
{
	int x = get_global_id(0), y = get_global_id(1); /* two
	lines */ out[IDX(x, y)] = in[x];
	out[N] = LOAD(in,
	              y) + in[N + __LINE__];
	barrier(CLK_GLOBAL_MEM_FENCE); out[y] = hget(in, x);
}
__kernel void bad(__global float *a, __global ulong *o)
{
	o[N] = IDX(1, 2) + (ulong)(a + 1);
}
