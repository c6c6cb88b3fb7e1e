/* SPDX-License-Identifier: MIT */
/*
 * padout: a pure output written under guards into a padded image. Each
 * work-item of a 16x16 work-group writes one pixel of a W x H image whose
 * rows are PITCH pixels apart (PITCH >= W); the padding at the end of each
 * row and the rows past H are not the kernel's: their bytes must keep
 * what the host put there. The input is read at an index loaded from it
 * (no footprint descriptor can bound that: the launch is planned by the
 * inspector); the output's store is an affine must-write under the guards
 * x < w, y < h.
 */
__kernel void padout(__global const uint *in, __global uint *out,
                     uint w, uint h, uint pitch)
{
	size_t x = get_global_id(0), y = get_global_id(1);
	if (x >= w || y >= h)
		return;
	uint v = in[y * w + x];
	out[y * pitch + x] = v ^ (in[y * w + v % w] >> 1);
}
