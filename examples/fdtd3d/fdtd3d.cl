/* SPDX-License-Identifier: MIT */
/*
 * FDTD3d: one time step of a radius-2 star stencil over a DX x DY x DZ
 * volume (x fastest), in the style of the GPU SDK sample: a 2-D grid of
 * work-items covers x and y, and each item marches along z. The x/y
 * neighbours come from the current plane staged with its halo in __local
 * memory; the z neighbours live in a register queue, so each step reads
 * one new value per item. Points within RADIUS of a face are copied
 * unchanged, so the output is fully written. Offsets are size_t.
 */
#define RADIUS 2
#define TX 32
#define TY 8
#define LW (TX + 2 * RADIUS)
#define LH (TY + 2 * RADIUS)

__kernel void fdtd3d(__global const float *in, __global float *out, uint dx,
                     uint dy, uint dz, float c0, float c1, float c2)
{
	__local float tile[LH][LW];
	int lx = get_local_id(0), ly = get_local_id(1);
	int x = get_global_id(0), y = get_global_id(1);
	int x0 = get_group_id(0) * TX - RADIUS, y0 = get_group_id(1) * TY - RADIUS;
	size_t plane = (size_t)dx * dy;
	/* Items past the edge still load (clamped) and meet every barrier. */
	size_t col = (size_t)min(y, (int)dy - 1) * dx + min(x, (int)dx - 1);
	int inside_xy = x >= RADIUS && x < (int)dx - RADIUS && y >= RADIUS &&
	                y < (int)dy - RADIUS;

	/* q[RADIUS + k] holds the value at z + k. */
	float q[2 * RADIUS + 1];
	for (int k = -RADIUS; k <= RADIUS; k++)
		q[RADIUS + k] = in[clamp(k, 0, (int)dz - 1) * plane + col];

	for (int z = 0; z < (int)dz; z++) {
		for (int i = ly * TX + lx; i < LW * LH; i += TX * TY) {
			int gx = clamp(x0 + i % LW, 0, (int)dx - 1);
			int gy = clamp(y0 + i / LW, 0, (int)dy - 1);
			tile[i / LW][i % LW] = in[z * plane + (size_t)gy * dx + gx];
		}
		barrier(CLK_LOCAL_MEM_FENCE);

		int cx = lx + RADIUS, cy = ly + RADIUS;
		float v = q[RADIUS];
		if (inside_xy && z >= RADIUS && z < (int)dz - RADIUS)
			v = c0 * v +
			    c1 * (tile[cy][cx - 1] + tile[cy][cx + 1] + tile[cy - 1][cx] +
			          tile[cy + 1][cx] + q[RADIUS - 1] + q[RADIUS + 1]) +
			    c2 * (tile[cy][cx - 2] + tile[cy][cx + 2] + tile[cy - 2][cx] +
			          tile[cy + 2][cx] + q[RADIUS - 2] + q[RADIUS + 2]);
		if (x < (int)dx && y < (int)dy)
			out[z * plane + col] = v;
		barrier(CLK_LOCAL_MEM_FENCE);

		for (int k = 0; k < 2 * RADIUS; k++)
			q[k] = q[k + 1];
		q[2 * RADIUS] = in[min(z + RADIUS + 1, (int)dz - 1) * plane + col];
	}
}
