// Naive matrix multiply C = A * B with a row pointer derived from A.
__kernel void matmul(__global const float *A, __global const float *B,
                     __global float *C, int n)
{
	int x = get_global_id(0), y = get_global_id(1);
	__global const float *row = A + y * n;
	float acc = 0.0f;
	for (int k = 0; k < n; k++)
		acc += row[k] * B[k * n + x];
	C[y * n + x] = acc;
}
