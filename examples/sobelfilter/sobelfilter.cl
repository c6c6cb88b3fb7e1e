/* SPDX-License-Identifier: MIT */
/*
 * SobelFilter: edge magnitude of each channel of an RGBA8 image (one uint
 * per pixel), edges clamped: (|Gx| + |Gy|) / 2 saturated to 255, with the
 * 3x3 Sobel operators. Integer arithmetic, so the GPU and the CPU agree
 * exactly. Each 16x16 work-group stages its tile and a one-pixel halo in
 * __local memory first (coalesced row loads).
 */
#define TILE 16
#define HALO 1
#define TW (TILE + 2 * HALO)

__kernel void sobelfilter(__global const uint *in, __global uint *out,
                          uint w, uint h)
{
	__local uint tile[TW][TW];
	int lx = get_local_id(0), ly = get_local_id(1);
	int x0 = get_group_id(0) * TILE - HALO, y0 = get_group_id(1) * TILE - HALO;
	for (int i = ly * TILE + lx; i < TW * TW; i += TILE * TILE) {
		int gx = clamp(x0 + i % TW, 0, (int)w - 1);
		int gy = clamp(y0 + i / TW, 0, (int)h - 1);
		tile[i / TW][i % TW] = in[(size_t)gy * w + gx];
	}
	barrier(CLK_LOCAL_MEM_FENCE);

	size_t x = get_global_id(0), y = get_global_id(1);
	if (x >= w || y >= h)
		return;
#define P(dx, dy) convert_int4(as_uchar4(tile[ly + (dy)][lx + (dx)]))
	int4 gx = (P(2, 0) + 2 * P(2, 1) + P(2, 2)) - (P(0, 0) + 2 * P(0, 1) + P(0, 2));
	int4 gy = (P(0, 2) + 2 * P(1, 2) + P(2, 2)) - (P(0, 0) + 2 * P(1, 0) + P(2, 0));
#undef P
	uint4 mag = min((abs(gx) + abs(gy)) >> 1, (uint4)255);
	out[y * w + x] = as_uint(convert_uchar4(mag));
}
