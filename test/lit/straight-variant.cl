// The straight variant (docs/generated-kernels.md): the paged kernel's
// arguments, then the box's origin and each buffer's run (its frame
// buffer and delta) as arguments; a prologue that loads nothing; every
// access one add from its buffer's run with no check (vast_trsp), or from
// its slot's run when the buffer is known only at run time (vast_trs);
// the device's own work-item functions (vast_st_*, an N-D launch with a
// global offset); helpers get straight clones. No vast_tr and no vast_trp
// in it, so no page-table walk is compiled in. Pointers stay virtual: a
// NULL buffer (virtual base 0) still compares equal to 0, and only
// dereferences translate.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t -c straight-variant.cl -o %t.o
// RUN: FileCheck %s < %t/straight-variant.vast.cl
// RUN: FileCheck --check-prefix=STUB %s < %t/straight-variant.vast.c

float pick(__global const float *p, int i) { return p[i]; }

__kernel void blend(__global const float *a, __global const float *b,
                    __global float *out, __global const float *bias,
                    int which, float k)
{
	int i = get_global_id(0);
	__global const float *src = which ? a : b;
	out[i] = k * a[i] + src[i] + pick(b, i);
	if (bias)
		out[i] += bias[i];
}

// CHECK-LABEL: {{^}}float vast_straight_pick(vast_ctx *vast_c, __global const float *p, int i)
// CHECK: { return (*(__global const float *)vast_trs(vast_c, (ulong)&(p[i]))); }
// CHECK-LABEL: {{^}}__kernel void vast_straight_blend(ulong vast_va_a, ulong vast_va_b, ulong vast_va_out, ulong vast_va_bias, int which, float k, __global uchar *vast_frames0,
// CHECK-SAME: __global const uint *vast_lpt, __global uint *vast_fault, uint vast_page_shift, ulong4 vast_gsize, ulong4 vast_lsize, ulong4 vast_goff, ulong vast_first_group,
// CHECK-SAME: ulong4 vast_origin, __global uchar *vast_sbuf_a, ulong vast_sdelta_a, __global uchar *vast_sbuf_b, ulong vast_sdelta_b, __global uchar *vast_sbuf_out, ulong vast_sdelta_out, __global uchar *vast_sbuf_bias, ulong vast_sdelta_bias)
// CHECK: vast_init_straight(vast_c, vast_lpt, vast_fault, vast_page_shift, vast_gsize, vast_lsize, vast_goff, vast_first_group, vast_origin);
// CHECK-NEXT: vast_c->frames[0] = vast_frames0;
// CHECK-NEXT: vast_prun vast_run_a = vast_srun(vast_sbuf_a, vast_sdelta_a);
// CHECK-NEXT: vast_prun vast_run_b = vast_srun(vast_sbuf_b, vast_sdelta_b);
// CHECK-NEXT: vast_prun vast_run_out = vast_srun(vast_sbuf_out, vast_sdelta_out);
// CHECK-NEXT: vast_prun vast_run_bias = vast_srun(vast_sbuf_bias, vast_sdelta_bias);
// CHECK: int i = vast_st_get_global_id(vast_c, 0);
// CHECK-NOT: vast_tr(
// CHECK-NOT: vast_trp(
// CHECK: (*(__global float *)vast_trsp(vast_c, (ulong)&(out[i]), vast_run_out)) = k * (*(__global const float *)vast_trsp(vast_c, (ulong)&(a[i]), vast_run_a)) + (*(__global const float *)vast_trs(vast_c, (ulong)&(src[i]))) + vast_straight_pick(vast_c, b, i);
// CHECK-NEXT: if (bias)
// CHECK-NEXT: (*(__global float *)vast_trsp(vast_c, (ulong)&(out[i]), vast_run_out)) += (*(__global const float *)vast_trsp(vast_c, (ulong)&(bias[i]), vast_run_bias));
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}}
// CHECK-LABEL: {{^}}__kernel void vast_merge_blend(

// STUB: { .name = "blend", .nparams = 6,
// STUB: .variants = VAST_HAS_INSPECT | VAST_HAS_PAGED | VAST_HAS_MERGE | VAST_HAS_STRAIGHT,
