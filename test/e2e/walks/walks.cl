/* SPDX-License-Identifier: MIT */
/* Kernels a new user writes first, whose work-groups touch a few bytes of
 * many pages (issue 9): at a quarter and a tenth of their data each group's
 * 4 KiB pages do not fit, its bytes do. walks.c runs one per process. */

/* C = A B, A m x k, B k x n, row-major, one work-item per element of C:
 * a group reads all k rows of a column strip of B. */
__kernel void gemm(__global const float *A, __global const float *B,
                   __global float *C, int m, int k, int n)
{
	int col = get_global_id(0), row = get_global_id(1);
	if (row >= m || col >= n)
		return;
	float s = 0.0f;
	for (int i = 0; i < k; i++)
		s += A[row * k + i] * B[i * n + col];
	C[row * n + col] = s;
}

/* y = A^T x, A rows x cols: work-item j walks column j of A. */
__kernel void atx(__global const float *A, __global const float *x,
                  __global float *y, int rows, int cols)
{
	int j = get_global_id(0);
	if (j < cols) {
		float s = 0.0f;
		for (int i = 0; i < rows; i++)
			s += A[i * cols + j] * x[i];
		y[j] = s;
	}
}

/* Column sums of a uint matrix (wrapping, so exact in any order) whose rows are not a multiple of a page:
 * each group's strip straddles pages. */
__kernel void colsum(__global const uint *a, __global uint *sums, uint rows, uint cols)
{
	uint j = get_global_id(0);
	if (j >= cols)
		return;
	uint s = 0;
	for (uint i = 0; i < rows; i++)
		s += a[i * cols + j];
	sums[j] = s;
}

/* Column sums of the left half of the columns over every row, of the
 * right half over every other row: the groups on either side stride by
 * one pitch or by another, and the group that holds both by two (no one
 * box: pages). */
__kernel void twopitch(__global const uint *a, __global uint *sums, uint rows, uint cols)
{
	uint j = get_global_id(0);
	if (j >= cols)
		return;
	uint s = 0;
	if (2 * j < cols)
		for (uint i = 0; i < rows; i++)
			s += a[i * cols + j];
	if (2 * j >= cols)
		for (uint i = 0; i < rows / 2; i++)
			s += a[2 * i * cols + j];
	sums[j] = s;
}

/* Column sums of the left half of the columns only: the groups of the
 * right half touch no byte of a (their ranges' boxes of it are empty). */
__kernel void leftcols(__global const uint *a, __global uint *sums, uint rows, uint cols)
{
	uint j = get_global_id(0);
	if (j >= cols)
		return;
	uint s = 0;
	if (2 * j < cols)
		for (uint i = 0; i < rows; i++)
			s += a[i * cols + j];
	sums[j] = s;
}

/* colsum after adding one to each element it sums: a column strip read
 * and written (every byte of it: a must-write that still needs the
 * bytes it reads filled in). */
__kernel void colbump(__global uint *a, __global uint *sums, uint rows, uint cols)
{
	uint j = get_global_id(0);
	if (j >= cols)
		return;
	uint s = 0;
	for (uint i = 0; i < rows; i++) {
		a[i * cols + j] = a[i * cols + j] + 1;
		s += a[i * cols + j];
	}
	sums[j] = s;
}

/* transpose, writing only the odd elements of in (a guard on the data:
 * no must-write, so every box of out goes in before it comes back). */
__kernel void tposeodd(__global const int *in, __global int *out, int w, int h)
{
	int x = get_global_id(0), y = get_global_id(1);
	if (x < w && y < h && (in[y * w + x] & 1))
		out[x * h + y] = in[y * w + x];
}

/* The first n elements of a, plus one (n: the global size). */
__kernel void bump(__global uint *a)
{
	a[get_global_id(0)] += 1;
}

/* out (w x h) = in (h x w) transposed: a group reads a tile's rows and
 * writes a column strip of out, part of each page. */
__kernel void transpose(__global const float *in, __global float *out, int w, int h)
{
	int x = get_global_id(0), y = get_global_id(1);
	if (x < w && y < h)
		out[x * h + y] = in[y * w + x];
}

/* A row of in (h x n) read clamped at its end into a row of out twice
 * as wide (h x 2n): the right half of the NDRange reads only in's last
 * column, so those groups' hull of j misses [0, n - 1]. Their
 * descriptor's checks fail and the inspector plans the launch
 * (docs/footprints.md, clamp()). */
__kernel void clampfar(__global const float *in, __global float *out, int n)
{
	int j = get_global_id(0), y = get_global_id(1);
	out[y * 2 * n + j] = in[y * n + clamp(j, 0, n - 1)];
}

/* clampfar with min() and max() (clamp()s with one bound infinite): the
 * groups wholly past n - 1, or wholly below 0, fail the checks and the
 * inspector plans the launch. */
__kernel void minfar(__global const float *in, __global float *out, int n)
{
	int j = get_global_id(0), y = get_global_id(1);
	out[y * 2 * n + j] = in[y * n + min(n - 1, j)];
}

__kernel void maxfar(__global const float *in, __global float *out, int n)
{
	int j = get_global_id(0), y = get_global_id(1);
	out[y * 2 * n + j] = in[y * n + max(j - n, 0)];
}

/* A store through min() that writes every other element of its hull:
 * not a must-write, so the elements between keep out's first bytes. */
__kernel void minstore(__global const float *in, __global float *out, int n)
{
	int j = get_global_id(0), y = get_global_id(1);
	out[y * 2 * n + min(2 * j, 2 * n - 1)] = in[y * n + j];
}

/* 5-point stencil on a w x h grid, the border copied. */
__kernel void stencil(__global const float *in, __global float *out, int w, int h)
{
	int x = get_global_id(0), y = get_global_id(1);
	if (x >= w || y >= h)
		return;
	float v = in[y * w + x];
	if (x > 0 && y > 0 && x < w - 1 && y < h - 1)
		v = 0.5f * v + 0.125f * (in[(y - 1) * w + x] + in[(y + 1) * w + x] +
		                         in[y * w + x - 1] + in[y * w + x + 1]);
	out[y * w + x] = v;
}
