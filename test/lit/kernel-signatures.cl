// The three variants' arguments (docs/generated-kernels.md): parameter i
// keeps index i (buffers become `ulong vast_va_NAME`), then the common tail
// n..n+7 in order, then the variant's extras: the merge kernel's
// destination frames, the inspector's data of the buffers it reads.
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
// CHECK-SAME: {{ }}__global uchar *vast_frames, __global const uint *vast_lpt, __global uint *vast_fault,
// CHECK-SAME: {{ }}uint vast_page_shift, ulong4 vast_gsize, ulong4 vast_lsize, ulong4 vast_goff, ulong vast_first_group){{$}}
// CHECK: vast_init_paged(vast_c, vast_frames, vast_lpt, vast_fault, vast_page_shift, vast_gsize, vast_lsize, vast_goff, vast_first_group);

// CHECK-LABEL: {{^}}__kernel void vast_merge_k(
// CHECK-SAME: ulong vast_va_idx, float a, ulong vast_va_x, __local int *scratch,
// CHECK-SAME: {{ }}__global uchar *vast_frames, __global const uint *vast_lpt, __global uint *vast_fault,
// CHECK-SAME: {{ }}uint vast_page_shift, ulong4 vast_gsize, ulong4 vast_lsize, ulong4 vast_goff, ulong vast_first_group,
// CHECK-SAME: {{ }}__global uchar *vast_dst){{$}}
// CHECK: vast_init_paged(vast_c, vast_frames, vast_lpt, vast_fault, vast_page_shift, vast_gsize, vast_lsize, vast_goff, vast_first_group);
// CHECK-NEXT: vast_c->dst = vast_dst;
