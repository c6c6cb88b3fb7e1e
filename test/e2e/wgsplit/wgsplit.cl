/* SPDX-License-Identifier: MIT */
/* Kernels whose one work-group touches more bytes than the device budget
 * (wgsplit.sh). Work-item r scales row r of w floats: a group of 1024
 * rows is the whole buffer. */
__kernel void rows(__global const float *in, __global float *out, int w)
{
	size_t r = get_global_id(0);
	for (int j = 0; j < w; j++)
		out[r * w + j] = in[r * w + j] * 3.0f + (float)r;
}

/* The global id written out from the group's: as independent. */
__kernel void rowsid(__global const float *in, __global float *out, int w)
{
	size_t r = get_group_id(0) * get_local_size(0) + get_local_id(0);
	for (int j = 0; j < w; j++)
		out[r * w + j] = in[r * w + j] * 3.0f + (float)r;
}

/* 2-D: work-item (x, y) scales row y * gx + x. */
__kernel void rows2d(__global const float *in, __global float *out, int w)
{
	size_t r = get_global_id(1) * get_global_size(0) + get_global_id(0);
	for (int j = 0; j < w; j++)
		out[r * w + j] = in[r * w + j] * 3.0f + (float)get_global_id(1);
}

/* Its value depends on the local id: a group cannot be split. */
__kernel void rowslid(__global const float *in, __global float *out, int w)
{
	size_t r = get_global_id(0);
	for (int j = 0; j < w; j++)
		out[r * w + j] = in[r * w + j] * 3.0f + (float)get_local_id(0);
}

/* A covariance: work-item j1 reads columns j1 .. m - 1 of all n rows,
 * so work-item 0 reads the whole matrix. */
__kernel void covar(__global const float *data, __global float *sym, int m, int n)
{
	int j1 = get_global_id(0);
	if (j1 >= m)
		return;
	for (int j2 = j1; j2 < m; j2++) {
		float s = 0.0f;
		for (int i = 0; i < n; i++)
			s += data[i * m + j1] * data[i * m + j2];
		sym[j1 * m + j2] = s;
	}
}

/* The same with a barrier: its groups cannot be split. */
__kernel void covarb(__global const float *data, __global float *sym, int m, int n)
{
	int j1 = get_global_id(0);
	if (j1 < m)
		for (int j2 = j1; j2 < m; j2++) {
			float s = 0.0f;
			for (int i = 0; i < n; i++)
				s += data[i * m + j1] * data[i * m + j2];
			sym[j1 * m + j2] = s;
		}
	barrier(CLK_GLOBAL_MEM_FENCE);
}
