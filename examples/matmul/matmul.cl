/* SPDX-License-Identifier: MIT */
/*
 * C = A * B, A is M x K, B is K x N, row-major. 2-D NDRange of TILE x TILE
 * work-groups; each group stages one tile of A and one of B in __local
 * memory per step (the NVIDIA SDK's MatrixMul, with bounds checks so any
 * size works).
 */
#define TILE 16

__kernel void matmul(__global const float *A, __global const float *B,
                     __global float *C, uint M, uint N, uint K)
{
	__local float As[TILE][TILE];
	__local float Bs[TILE][TILE];
	uint tx = get_local_id(0), ty = get_local_id(1);
	uint col = get_global_id(0), row = get_global_id(1);
	float acc = 0.0f;

	for (uint t = 0; t < K; t += TILE) {
		As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.0f;
		Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : 0.0f;
		barrier(CLK_LOCAL_MEM_FENCE);
		for (uint k = 0; k < TILE; k++)
			acc += As[ty][k] * Bs[k][tx];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (row < M && col < N)
		C[row * N + col] = acc;
}
