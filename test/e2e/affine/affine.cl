// SPDX-License-Identifier: MIT
// affine.cl - kernels whose every access is affine, of the shapes of
// third-party programs that vastcc planned with the inspector (affine.sh).

// Covariance (PolyBench's covar_kernel): an inner loop from the work-item's
// own column to the end, a triangle of the matrix per work-item.
__kernel void covar(__global float *symmat, __global const float *data, int m, int n)
{
	int j1 = get_global_id(0) + 1;
	int i, j2;
	if ((j1 >= 1) && (j1 < (m + 1))) {
		for (j2 = j1; j2 < (m + 1); j2++) {
			symmat[j1 * (m + 1) + j2] = 0.0f;
			for (i = 1; i < (n + 1); i++)
				symmat[j1 * (m + 1) + j2] += data[i * (m + 1) + j1] * data[i * (m + 1) + j2];
			symmat[j2 * (m + 1) + j1] = symmat[j1 * (m + 1) + j2];
		}
	}
}

// Gram-Schmidt's third kernel (PolyBench's gramschmidt_kernel3): the id
// shifted by a scalar argument, one counter for two loops.
__kernel void gramschmidt(__global float *a, __global float *r, __global const float *q,
                          int k, int m, int n)
{
	int j = get_global_id(0) + (k + 1);
	if ((j < n)) {
		r[k * n + j] = 0.0f;
		int i;
		for (i = 0; i < m; i++)
			r[k * n + j] += q[i * n + k] * a[i * n + j];
		for (i = 0; i < m; i++)
			a[i * n + j] -= q[i * n + k] * r[k * n + j];
	}
}

// A load into a private out-parameter through a helper.
inline void ld(float *d, __global const float *in) { *d = *in; }

__kernel void ldout(__global const float *w, __global float *o)
{
	float x;
	ld(&x, w + get_global_id(0));
	o[get_global_id(0)] = x * 2.0f + 1.0f;
}

// An FFT's globalLoads8 and globalStores8 (SHOC fft1D_512): helpers loop
// over a private array through a pointer parameter, strided in the buffer.
inline void loads8(float2 *data, __global const float2 *in, int stride)
{
	for (int i = 0; i < 8; i++)
		data[i] = in[i * stride];
}

inline void stores8(float2 *data, __global float2 *out, int stride)
{
	for (int i = 0; i < 8; i++)
		out[i * stride] = data[i];
}

__kernel void fft8(__global const float2 *in, __global float2 *out)
{
	int tid = get_local_id(0);
	int blockIdx = get_group_id(0) * 512 + tid;
	float2 data[8];
	in = in + blockIdx;
	out = out + blockIdx;
	loads8(data, in, 64);
	for (int i = 0; i < 4; i++) {
		float2 t = data[i];
		data[i] = t + data[i + 4];
		data[i + 4] = t - data[i + 4];
	}
	stores8(data, out, 64);
}
