// The three variants' arguments (docs/generated-kernels.md): parameter i
// keeps index i (buffers become `ulong vast_va_NAME`), then the common tail
// in order (paged and merge: VAST_FRAME_BUFS = 8 frame buffers first), then
// the variant's extras: the merge kernel's destination frame buffers, the
// inspector's data of the buffers it reads.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t -c kernel-signatures.cl -o %t.o
// RUN: FileCheck %s < %t/kernel-signatures.vast.cl

__kernel void k(__global const int *idx, float a, __global float *x, __local int *scratch)
{
	x[idx[get_global_id(0)]] = a;
}

// CHECK-LABEL: {{^}}__kernel void vast_inspect_k(
// CHECK-SAME: ulong vast_va_idx, float a, ulong vast_va_x, __local int *scratch,
// CHECK-SAME: {{ }}__global uchar *vast_pas, __global const ulong *vast_pasinfo, __global uint *vast_fault,
// CHECK-SAME: {{ }}uint vast_page_shift, ulong4 vast_gsize, ulong4 vast_lsize, ulong4 vast_goff, ulong vast_first_group,
// CHECK-SAME: {{ }}__global uchar *vast_data_idx){{$}}
// CHECK: vast_init_inspect(vast_c, vast_pas, vast_pasinfo, vast_fault, vast_page_shift, vast_gsize, vast_lsize, vast_goff, vast_first_group);

// CHECK-LABEL: {{^}}__kernel void vast_paged_k(
// CHECK-SAME: ulong vast_va_idx, float a, ulong vast_va_x, __local int *scratch,
// CHECK-SAME: {{ }}__global uchar *vast_frames0, __global uchar *vast_frames1, __global uchar *vast_frames2, __global uchar *vast_frames3, __global uchar *vast_frames4, __global uchar *vast_frames5, __global uchar *vast_frames6, __global uchar *vast_frames7,
// CHECK-SAME: {{ }}__global const uint *vast_lpt, __global uint *vast_fault,
// CHECK-SAME: {{ }}uint vast_page_shift, ulong4 vast_gsize, ulong4 vast_lsize, ulong4 vast_goff, ulong vast_first_group){{$}}
// CHECK: vast_init_paged(vast_c, vast_lpt, vast_fault, vast_page_shift, vast_gsize, vast_lsize, vast_goff, vast_first_group);
// CHECK-NEXT: vast_c->frames[0] = vast_frames0; vast_c->frames[1] = vast_frames1; vast_c->frames[2] = vast_frames2; vast_c->frames[3] = vast_frames3; vast_c->frames[4] = vast_frames4; vast_c->frames[5] = vast_frames5; vast_c->frames[6] = vast_frames6; vast_c->frames[7] = vast_frames7;

// CHECK-LABEL: {{^}}__kernel void vast_merge_k(
// CHECK-SAME: ulong vast_va_idx, float a, ulong vast_va_x, __local int *scratch,
// CHECK-SAME: {{ }}__global uchar *vast_frames0, __global uchar *vast_frames1, __global uchar *vast_frames2, __global uchar *vast_frames3, __global uchar *vast_frames4, __global uchar *vast_frames5, __global uchar *vast_frames6, __global uchar *vast_frames7,
// CHECK-SAME: {{ }}__global const uint *vast_lpt, __global uint *vast_fault,
// CHECK-SAME: {{ }}uint vast_page_shift, ulong4 vast_gsize, ulong4 vast_lsize, ulong4 vast_goff, ulong vast_first_group,
// CHECK-SAME: {{ }}__global uchar *vast_dst0, __global uchar *vast_dst1, __global uchar *vast_dst2, __global uchar *vast_dst3, __global uchar *vast_dst4, __global uchar *vast_dst5, __global uchar *vast_dst6, __global uchar *vast_dst7){{$}}
// CHECK: vast_init_paged(vast_c, vast_lpt, vast_fault, vast_page_shift, vast_gsize, vast_lsize, vast_goff, vast_first_group);
// CHECK-NEXT: vast_c->frames[0] = vast_frames0; vast_c->frames[1] = vast_frames1; vast_c->frames[2] = vast_frames2; vast_c->frames[3] = vast_frames3; vast_c->frames[4] = vast_frames4; vast_c->frames[5] = vast_frames5; vast_c->frames[6] = vast_frames6; vast_c->frames[7] = vast_frames7;
// CHECK-NEXT: vast_c->dst[0] = vast_dst0; vast_c->dst[1] = vast_dst1; vast_c->dst[2] = vast_dst2; vast_c->dst[3] = vast_dst3; vast_c->dst[4] = vast_dst4; vast_c->dst[5] = vast_dst5; vast_c->dst[6] = vast_dst6; vast_c->dst[7] = vast_dst7;
