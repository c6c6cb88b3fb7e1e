// The inspector's and the paged kernel's arguments
// (docs/generated-kernels.md): parameter i keeps index i (buffers become
// `ulong vast_va_NAME`), then the common tail in order (paged:
// VAST_FRAME_BUFS = 8 frame buffers first), then the variant's extras: the
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
