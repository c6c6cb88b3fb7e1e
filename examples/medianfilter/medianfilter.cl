/* SPDX-License-Identifier: MIT */
/*
 * MedianFilter: 3x3 median of each channel of an RGBA8 image (one uint per
 * pixel), edges clamped. Each 16x16 work-group stages its tile plus a
 * one-pixel halo in __local memory (coalesced row loads), then every item
 * takes the median of its 9 neighbours with a 19-exchange sorting network
 * over uint4 channel vectors.
 */
#define TILE 16
#define HALO 1
#define TW (TILE + 2 * HALO)

#define SORT2(a, b) do { uint4 t_ = min(a, b); b = max(a, b); a = t_; } while (0)

static uint4 median9(uint4 p0, uint4 p1, uint4 p2, uint4 p3, uint4 p4,
                     uint4 p5, uint4 p6, uint4 p7, uint4 p8)
{
	/* Paeth's network: after it p4 holds the median. */
	SORT2(p1, p2); SORT2(p4, p5); SORT2(p7, p8);
	SORT2(p0, p1); SORT2(p3, p4); SORT2(p6, p7);
	SORT2(p1, p2); SORT2(p4, p5); SORT2(p7, p8);
	SORT2(p0, p3); SORT2(p5, p8); SORT2(p4, p7);
	SORT2(p3, p6); SORT2(p1, p4); SORT2(p2, p5);
	SORT2(p4, p7); SORT2(p4, p2); SORT2(p6, p4);
	SORT2(p4, p2);
	return p4;
}

__kernel void medianfilter(__global const uint *in, __global uint *out,
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
	uint4 p[9];
	for (int dy = 0; dy < 3; dy++)
		for (int dx = 0; dx < 3; dx++)
			p[dy * 3 + dx] = convert_uint4(as_uchar4(tile[ly + dy][lx + dx]));
	uint4 m = median9(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8]);
	out[y * w + x] = as_uint(convert_uchar4(m));
}
