
/* Hand-written as lib/rewrite would emit them (docs/generated-kernels.md). */
#line 2 "vadd.cl"
__kernel void vast_inspect_vadd(ulong vast_va_a, ulong vast_va_b, ulong vast_va_c, uint n,
	__global uchar *vast_pas, __global const ulong *vast_pasinfo,
	__global uint *vast_fault, uint vast_page_shift, ulong4 vast_gsize,
	ulong4 vast_lsize, ulong4 vast_goff, ulong vast_first_group)
{
	vast_ctx vast_c;
	vast_init_inspect(&vast_c, vast_pas, vast_pasinfo, vast_fault, vast_page_shift,
	                  vast_gsize, vast_lsize, vast_goff, vast_first_group);
	size_t i = vast_get_global_id(&vast_c, 0);
	if (i < n) {
		vast_touch(&vast_c, vast_va_a + i * 4, 4);
		vast_touch(&vast_c, vast_va_b + i * 4, 4);
		vast_touch(&vast_c, vast_va_c + i * 4, 4);
	}
}

__kernel void vast_paged_vadd(ulong vast_va_a, ulong vast_va_b, ulong vast_va_c, uint n,
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
	__global const float *a = (__global const float *)vast_va_a;
	__global const float *b = (__global const float *)vast_va_b;
	__global float *c = (__global float *)vast_va_c;
	size_t i = vast_get_global_id(&vast_c, 0);
	if (i < n)
		*(__global float *)vast_tr(&vast_c, (ulong)(c + i)) =
			*(__global const float *)vast_tr(&vast_c, (ulong)(a + i)) +
			*(__global const float *)vast_tr(&vast_c, (ulong)(b + i));
}

__kernel void vast_inspect_evens(ulong vast_va_a, uint n,
	__global uchar *vast_pas, __global const ulong *vast_pasinfo,
	__global uint *vast_fault, uint vast_page_shift, ulong4 vast_gsize,
	ulong4 vast_lsize, ulong4 vast_goff, ulong vast_first_group)
{
	vast_ctx vast_c;
	vast_init_inspect(&vast_c, vast_pas, vast_pasinfo, vast_fault, vast_page_shift,
	                  vast_gsize, vast_lsize, vast_goff, vast_first_group);
	size_t i = vast_get_global_id(&vast_c, 0);
	if (2 * i < n)
		vast_touch(&vast_c, vast_va_a + 2 * i * 4, 4);
}

__kernel void vast_paged_evens(ulong vast_va_a, uint n,
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
	__global int *a = (__global int *)vast_va_a;
	size_t i = vast_get_global_id(&vast_c, 0);
	if (2 * i < n)
		*(__global int *)vast_tr(&vast_c, (ulong)(a + 2 * i)) = (int)i * 3 + 1;
}

/* Deliberately wrong inspector: it forgets `a`, so the paged kernel
 * faults and the runtime must refuse the result. */
__kernel void vast_inspect_copy1(ulong vast_va_a, ulong vast_va_b,
	__global uchar *vast_pas, __global const ulong *vast_pasinfo,
	__global uint *vast_fault, uint vast_page_shift, ulong4 vast_gsize,
	ulong4 vast_lsize, ulong4 vast_goff, ulong vast_first_group)
{
	vast_ctx vast_c;
	vast_init_inspect(&vast_c, vast_pas, vast_pasinfo, vast_fault, vast_page_shift,
	                  vast_gsize, vast_lsize, vast_goff, vast_first_group);
	size_t i = vast_get_global_id(&vast_c, 0);
	vast_touch(&vast_c, vast_va_b + i * 4, 4);
}

__kernel void vast_paged_copy1(ulong vast_va_a, ulong vast_va_b,
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
	__global const float *a = (__global const float *)vast_va_a;
	__global float *b = (__global float *)vast_va_b;
	size_t i = vast_get_global_id(&vast_c, 0);
	*(__global float *)vast_tr(&vast_c, (ulong)(b + i)) =
		*(__global const float *)vast_tr(&vast_c, (ulong)(a + i));
}
