// SPDX-License-Identifier: MIT
// reach.cl - kernels of third-party shapes vastcc used to refuse although
// it can run them exactly (reach.sh).

// Column statistics: a guarded store to an address stored before.
__kernel void colstd(__global const float *data, __global const float *mean,
                     __global float *std, int n, int m, float eps)
{
	int j = get_global_id(0);
	if (j >= m)
		return;
	std[j] = 0.0f;
	for (int i = 0; i < n; i++)
		std[j] += (data[i * m + j] - mean[j]) * (data[i * m + j] - mean[j]);
	std[j] = sqrt(std[j] / (float)n);
	if (std[j] <= eps)
		std[j] = 1.0f;
}

// An FFT's shape: helpers load a private array through a pointer and
// store it back to the same buffer; __local exchange in between.
inline void loads4(float2 *d, __global float2 *in, int stride)
{
	for (int i = 0; i < 4; i++)
		d[i] = in[i * stride];
}

inline void stores4(float2 *d, __global float2 *out, int stride)
{
	int rev[] = {0, 2, 1, 3};
	for (int i = 0; i < 4; i++)
		out[i * stride] = d[rev[i]];
}

inline void bfly(float2 *a, float2 *b)
{
	float2 t = *a;
	*a = t + *b;
	*b = t - *b;
}

__kernel void fft4(__global float2 *work)
{
	int tid = get_local_id(0);
	float2 d[4];
	__local float sm[64 * 4];
	work = work + get_group_id(0) * 256 + tid;
	loads4(d, work, 64);
	bfly(&d[0], &d[2]);
	bfly(&d[1], &d[3]);
	for (int i = 0; i < 4; i++)
		sm[tid * 4 + i] = d[i].x;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int i = 0; i < 4; i++)
		d[i].x = sm[((tid + 1) & 63) * 4 + i];
	barrier(CLK_LOCAL_MEM_FENCE);
	bfly(&d[0], &d[1]);
	stores4(d, work, 64);
}

// A load into a private out-parameter, then a store to the same element.
inline void ld(float *d, __global float *in) { *d = *in; }

__kernel void outparam(__global float *w)
{
	float x;
	ld(&x, w + get_global_id(0));
	w[get_global_id(0)] = x * 2.0f + 1.0f;
}

// CRC32 by nibbles over a two-dimensional program-scope table, the shape of
// crc32_slice8's `crc32Table[8][256]`: row 1 is row 0 for the next nibble.
__constant uint crc_nib[2][16] = {
	{ 0x00000000u, 0x1db71064u, 0x3b6e20c8u, 0x26d930acu, 0x76dc4190u, 0x6b6b51f4u,
	  0x4db26158u, 0x5005713cu, 0xedb88320u, 0xf00f9344u, 0xd6d6a3e8u, 0xcb61b38cu,
	  0x9b64c2b0u, 0x86d3d2d4u, 0xa00ae278u, 0xbdbdf21cu },
	{ 0x00000000u, 0x1db71064u, 0x3b6e20c8u, 0x26d930acu, 0x76dc4190u, 0x6b6b51f4u,
	  0x4db26158u, 0x5005713cu, 0xedb88320u, 0xf00f9344u, 0xd6d6a3e8u, 0xcb61b38cu,
	  0x9b64c2b0u, 0x86d3d2d4u, 0xa00ae278u, 0xbdbdf21cu } };

__kernel void crc(__global const uint *data, int n, __global uint *res)
{
	uint c = 0xffffffffu;
	int base = get_global_id(0) * n;
	for (int k = 0; k < n; k++) {
		uint w = data[base + k];
		for (int b = 0; b < 32; b += 8) {
			c ^= (w >> b) & 0xffu;
			c = crc_nib[0][c & 15u] ^ (c >> 4);
			c = crc_nib[1][c & 15u] ^ (c >> 4);
		}
	}
	res[get_global_id(0)] = ~c;
}
