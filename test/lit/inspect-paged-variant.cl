// The paged inspector (docs/generated-kernels.md): a kernel whose
// inspector reads a buffer's contents gets vast_pinspect_K, the inspector's
// body with the paged kernel's arguments and prologue (frames, LPT, fault
// word, geometry) and then the PAS and its description. Its loads are the
// inspector's vast_load, which translates through the LPT when one is set
// (vast_init_paged sets it, vast_init_inspect clears it), and its helper
// calls go to the inspector's clones. A kernel whose inspector reads no
// data gets none, and the stub records the variant.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t -c inspect-paged-variant.cl -o %t.o
// RUN: FileCheck %s < %t/inspect-paged-variant.vast.cl
// RUN: FileCheck --check-prefix=STUB %s < %t/inspect-paged-variant.vast.c

uint at(__global const uint *idx, uint i) { return idx[i]; }

__kernel void gather(__global const uint *idx, __global const float *src,
                     __global float *dst, uint n)
{
	uint i = get_global_id(0);
	if (i < n)
		dst[i] = src[at(idx, i)] + src[idx[n + i]];
}

__kernel void copy(__global const float *src, __global float *dst)
{
	dst[get_global_id(0)] = src[get_global_id(0)];
}

// CHECK: {{^}}__global uchar *vast_load(vast_ctx *c, ulong v, uint n)
// CHECK: if (c->lpt)
// CHECK-NEXT: return vast_tr(c, v);
// CHECK: {{^}}void vast_init_pas(vast_ctx *c, __global uchar *pas, __global const ulong *pasinfo)
// CHECK-LABEL: {{^}}void vast_init_inspect(
// CHECK: c->lpt = 0;
// CHECK-LABEL: {{^}}uint vast_inspect_at(vast_ctx *vast_c, __global const uint *idx, uint i)
// CHECK-LABEL: {{^}}__kernel void vast_pinspect_gather(ulong vast_va_idx, ulong vast_va_src, ulong vast_va_dst, uint n, __global uchar *vast_frames0,
// CHECK-SAME: __global uchar *vast_frames7, __global const uint *vast_lpt, __global uint *vast_fault, uint vast_page_shift, ulong4 vast_gsize, ulong4 vast_lsize, ulong4 vast_goff, ulong vast_first_group, __global uchar *vast_pas, __global const ulong *vast_pasinfo)
// CHECK-NEXT: {
// CHECK-NEXT: vast_ctx vast_c_; vast_ctx *vast_c = &vast_c_;
// CHECK-NEXT: vast_init_paged(vast_c, vast_lpt, vast_fault, vast_page_shift, vast_gsize, vast_lsize, vast_goff, vast_first_group);
// CHECK-NEXT: vast_c->frames[0] = vast_frames0;
// CHECK-SAME: vast_c->frames[7] = vast_frames7;
// CHECK-NEXT: vast_init_pas(vast_c, vast_pas, vast_pasinfo);
// CHECK-NOT: vast_data_
// CHECK-NOT: vast_run(
// CHECK: vast_touch(vast_c, (ulong)&(src[vast_inspect_at(vast_c, idx, i)]), 4);
// CHECK-SAME: vast_touch(vast_c, (ulong)&(src[(*(__global const uint *)vast_load(vast_c, (ulong)&(idx[n + i]), 4))]), 4);
// CHECK-LABEL: {{^}}__kernel void vast_inspect_copy(
// CHECK-NOT: vast_pinspect_copy

// STUB: { .name = "gather", .nparams = 4,
// STUB: .variants = VAST_HAS_INSPECT | VAST_HAS_PAGED | VAST_HAS_STRAIGHT | VAST_HAS_PINSPECT,
// STUB: { .name = "copy", .nparams = 2,
// STUB: .variants = VAST_HAS_INSPECT | VAST_HAS_PAGED | VAST_HAS_STRAIGHT,
