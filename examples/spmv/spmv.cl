/* SPDX-License-Identifier: MIT */
/*
 * y = A * x, A in CSR form, one row per work-item. The load x[col[j]] is
 * indirect: its address depends on data read from another buffer.
 */
__kernel void spmv(__global const uint *rowptr, __global const uint *col,
                   __global const float *val, __global const float *x,
                   __global float *y, uint nrows)
{
	uint row = get_global_id(0);
	if (row >= nrows)
		return;
	float sum = 0.0f;
	for (uint j = rowptr[row]; j < rowptr[row + 1]; j++)
		sum += val[j] * x[col[j]];
	y[row] = sum;
}
