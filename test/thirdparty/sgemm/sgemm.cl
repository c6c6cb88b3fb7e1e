/* SPDX-License-Identifier: MIT */
/* C = A * B for row-major square matrices, tiled through local memory.
 * TILE (the work-group's side) and REAL come from the build options. */
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void sgemm(__global const REAL *a, __global const REAL *b, __global REAL *c, int n)
{
	__local REAL ta[TILE][TILE], tb[TILE][TILE];
	int tx = get_local_id(0), ty = get_local_id(1);
	int col = get_global_id(0), row = get_global_id(1);
	REAL acc = 0;
	for (int t = 0; t < n; t += TILE) {
		ta[ty][tx] = a[row * n + t + tx];
		tb[ty][tx] = b[(t + ty) * n + col];
		barrier(CLK_LOCAL_MEM_FENCE);
		for (int k = 0; k < TILE; k++)
			acc += ta[ty][k] * tb[k][tx];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	c[row * n + col] = acc;
}
