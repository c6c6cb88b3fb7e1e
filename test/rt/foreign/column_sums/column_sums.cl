/* SPDX-License-Identifier: MIT */
/* Column sums of a row-major matrix: work-item j walks column j. A
 * work-group of 64 columns touches 256 bytes of every row, so with 4 KiB
 * pages it needs a page per row (1 MiB here) although its bytes are 64
 * KiB: at a tenth of the data it pages only with smaller pages. */
__kernel void column_sums(__global const float *a, __global float *sums,
                          uint rows, uint cols)
{
	uint j = get_global_id(0);
	if (j >= cols)
		return;
	float s = 0.0f;
	for (uint i = 0; i < rows; i++)
		s += a[i * cols + j];
	sums[j] = s;
}
