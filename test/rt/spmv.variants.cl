
/* Hand-written as lib/rewrite would emit them (docs/generated-kernels.md). */
#line 2 "spmv.cl"
__kernel void vast_inspect_spmv(ulong vast_va_rowptr, ulong vast_va_col,
	ulong vast_va_val, ulong vast_va_x, ulong vast_va_y, uint nrows,
	__global uchar *vast_pas, __global const ulong *vast_pasinfo,
	__global uint *vast_fault, uint vast_page_shift, ulong4 vast_gsize,
	ulong4 vast_lsize, ulong4 vast_goff, ulong vast_first_group,
	__global uchar *vast_data_rowptr, __global uchar *vast_data_col)
{
	vast_ctx vast_c;
	vast_init_inspect(&vast_c, vast_pas, vast_pasinfo, vast_fault, vast_page_shift,
	                  vast_gsize, vast_lsize, vast_goff, vast_first_group);
	if (vast_va_rowptr)
		vast_c.data[(vast_va_rowptr >> VAST_VA_SHIFT) - 1] = vast_data_rowptr;
	if (vast_va_col)
		vast_c.data[(vast_va_col >> VAST_VA_SHIFT) - 1] = vast_data_col;
	size_t r = vast_get_global_id(&vast_c, 0);
	if (r >= nrows)
		return;
	int j0 = *(__global const int *)vast_load(&vast_c, vast_va_rowptr + r * 4, 4);
	int j1 = *(__global const int *)vast_load(&vast_c, vast_va_rowptr + (r + 1) * 4, 4);
	for (int j = j0; j < j1; j++) {
		vast_touch(&vast_c, vast_va_val + (ulong)j * 4, 4);
		int cj = *(__global const int *)vast_load(&vast_c, vast_va_col + (ulong)j * 4, 4);
		vast_touch(&vast_c, vast_va_x + (ulong)cj * 4, 4);
	}
	vast_touch(&vast_c, vast_va_y + r * 4, 4);
}

__kernel void vast_paged_spmv(ulong vast_va_rowptr, ulong vast_va_col,
	ulong vast_va_val, ulong vast_va_x, ulong vast_va_y, uint nrows,
	__global uchar *vast_frames0, __global uchar *vast_frames1,
	__global uchar *vast_frames2, __global uchar *vast_frames3,
	__global uchar *vast_frames4, __global uchar *vast_frames5,
	__global uchar *vast_frames6, __global uchar *vast_frames7,
	__global const uint *vast_lpt,
	__global uint *vast_fault, uint vast_page_shift, ulong4 vast_gsize,
	ulong4 vast_lsize, ulong4 vast_goff, ulong vast_first_group)
{
	vast_ctx vast_c;
	vast_init_paged(&vast_c, vast_lpt, vast_fault, vast_page_shift,
	                vast_gsize, vast_lsize, vast_goff, vast_first_group);
	vast_c.frames[0] = vast_frames0; vast_c.frames[1] = vast_frames1;
	vast_c.frames[2] = vast_frames2; vast_c.frames[3] = vast_frames3;
	vast_c.frames[4] = vast_frames4; vast_c.frames[5] = vast_frames5;
	vast_c.frames[6] = vast_frames6; vast_c.frames[7] = vast_frames7;
	__global const int *rowptr = (__global const int *)vast_va_rowptr;
	__global const int *col = (__global const int *)vast_va_col;
	__global const float *val = (__global const float *)vast_va_val;
	__global const float *x = (__global const float *)vast_va_x;
	__global float *y = (__global float *)vast_va_y;
	size_t r = vast_get_global_id(&vast_c, 0);
	if (r >= nrows)
		return;
	float s = 0.0f;
	for (int j = *(__global const int *)vast_tr(&vast_c, (ulong)(rowptr + r));
	     j < *(__global const int *)vast_tr(&vast_c, (ulong)(rowptr + r + 1)); j++)
		s += *(__global const float *)vast_tr(&vast_c, (ulong)(val + j)) *
		     *(__global const float *)vast_tr(&vast_c,
		         (ulong)(x + *(__global const int *)vast_tr(&vast_c, (ulong)(col + j))));
	*(__global float *)vast_tr(&vast_c, (ulong)(y + r)) = s;
}
