/* SPDX-License-Identifier: MIT */
/*
 * MatrixMul: C = A * B (A is hA x wA, B is wA x wB, row-major floats), the
 * GPU SDK's tiled kernel: each 16x16 work-group computes one 16x16 tile of
 * C, stepping through A's tile row and B's tile column through __local
 * tiles so that every global load is coalesced and reused 16 times.
 * Dimensions are multiples of BLOCK; row offsets are size_t because A and
 * C may hold more than 2^32 elements.
 */
#define BLOCK 16

__kernel void matrixmul(__global float *C, __global const float *A,
                        __global const float *B, uint wA, uint wB)
{
	__local float As[BLOCK][BLOCK];
	__local float Bs[BLOCK][BLOCK];
	size_t col = get_global_id(0), row = get_global_id(1);
	size_t tx = get_local_id(0), ty = get_local_id(1);
	float sum = 0.0f;

	for (uint t = 0; t < wA / BLOCK; t++) {
		As[ty][tx] = A[row * wA + t * BLOCK + tx];
		Bs[ty][tx] = B[(size_t)(t * BLOCK + ty) * wB + col];
		barrier(CLK_LOCAL_MEM_FENCE);
		for (int k = 0; k < BLOCK; k++)
			sum += As[ty][k] * Bs[k][tx];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	C[row * wB + col] = sum;
}
