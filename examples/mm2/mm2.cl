/* SPDX-License-Identifier: MIT */
/*
 * 2mm (PolyBench): tmp = alpha * A * B, then D = beta * D + tmp * C, all
 * row-major floats (A is ni x nk, B nk x nj, C nj x nl, D ni x nl). One
 * work-item per output element and the naive loop over k, as PolyBench/GPU
 * writes it: every row of work-groups reads all of B (then all of C), so a
 * paged launch's ranges share those buffers whole.
 */
__kernel void mm2_kernel1(__global float *tmp, __global const float *A,
                          __global const float *B, float alpha, int ni, int nj, int nk)
{
	int j = get_global_id(0), i = get_global_id(1);
	if (i < ni && j < nj) {
		float acc = 0.0f;
		for (int k = 0; k < nk; k++)
			acc += alpha * A[i * nk + k] * B[k * nj + j];
		tmp[i * nj + j] = acc;
	}
}

__kernel void mm2_kernel2(__global float *D, __global const float *tmp,
                          __global const float *C, float beta, int ni, int nj, int nl)
{
	int j = get_global_id(0), i = get_global_id(1);
	if (i < ni && j < nl) {
		float acc = beta * D[i * nl + j];
		for (int k = 0; k < nj; k++)
			acc += tmp[i * nj + k] * C[k * nl + j];
		D[i * nl + j] = acc;
	}
}
