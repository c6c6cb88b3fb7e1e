/* SPDX-License-Identifier: MIT */
/* Jacobi iteration for -laplace(u) = f on a 2-D grid, and the per-group
 * squared change used as the convergence test. */
__kernel void jacobi_step(__global const float *u, __global float *unew,
                          __global const float *f, const int nx, const int ny,
                          const float h2)
{
	int x = get_global_id(0);
	int y = get_global_id(1);
	if (x >= nx || y >= ny)
		return;
	int i = y * nx + x;
	if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
		unew[i] = u[i];
		return;
	}
	unew[i] = 0.25f * (u[i - 1] + u[i + 1] + u[i - nx] + u[i + nx] + h2 * f[i]);
}

__kernel void change_norm(__global const float *a, __global const float *b,
                          __global float *partial, __local float *scratch,
                          const int nx, const int ny)
{
	int x = get_global_id(0);
	int y = get_global_id(1);
	int lid = get_local_id(1) * get_local_size(0) + get_local_id(0);
	int lsz = get_local_size(0) * get_local_size(1);
	float d = 0.0f;
	if (x < nx && y < ny) {
		d = a[y * nx + x] - b[y * nx + x];
		d = d * d;
	}
	scratch[lid] = d;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int s = lsz / 2; s > 0; s >>= 1) {
		if (lid < s)
			scratch[lid] += scratch[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		partial[get_group_id(1) * get_num_groups(0) + get_group_id(0)] = scratch[0];
}
