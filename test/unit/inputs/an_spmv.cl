// CSR sparse matrix-vector product: x is read through col[] (indirect).
__kernel void spmv(__global const int *rowptr, __global const int *col,
                   __global const float *val, __global const float *x,
                   __global float *y, int n)
{
	int row = get_global_id(0);
	if (row >= n)
		return;
	float sum = 0.0f;
	for (int j = rowptr[row]; j < rowptr[row + 1]; j++)
		sum += val[j] * x[col[j]];
	y[row] = sum;
}
