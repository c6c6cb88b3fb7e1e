/* CSR sparse matrix times vector: x is gathered through col (indirect). */
__kernel void spmv(__global const int *rowptr, __global const int *col,
                   __global const float *val, __global const float *x,
                   __global float *y, uint nrows)
{
	size_t r = get_global_id(0);
	if (r >= nrows)
		return;
	float s = 0.0f;
	for (int j = rowptr[r]; j < rowptr[r + 1]; j++)
		s += val[j] * x[col[j]];
	y[r] = s;
}
