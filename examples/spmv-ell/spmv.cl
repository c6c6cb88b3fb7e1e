/* SPDX-License-Identifier: MIT */
/*
 * SpMV in ELL format: y = A x for an N x N sparse matrix with K stored
 * entries per row, kept column-major (entry k of row r at k*N + r) so
 * that consecutive work-items read consecutive elements of val and col.
 * x is read through the column indices: an indirect access, the case the
 * VAST inspector must run with the index data in hand.
 */
__kernel void spmv_ell(__global const float *val, __global const uint *col,
                       __global const float *x, __global float *y, ulong n,
                       uint K)
{
	size_t row = get_global_id(0);
	if (row >= n)
		return;
	float sum = 0.0f;
	for (uint k = 0; k < K; k++) {
		size_t i = (size_t)k * n + row;
		sum += val[i] * x[col[i]];
	}
	y[row] = sum;
}
