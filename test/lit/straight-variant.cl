// The straight variant (docs/generated-kernels.md): the paged kernel's
// arguments and prologue, and every access one add from its buffer's run
// with no check (vast_trsp), or from its slot's run when the buffer is
// known only at run time (vast_trs); helpers get straight clones. No
// vast_tr and no vast_trp in it, so no page-table walk is compiled in.
// Pointers stay virtual: a NULL buffer (virtual base 0) still compares
// equal to 0, and only dereferences translate.
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
// CHECK-SAME: __global const uint *vast_lpt, __global uint *vast_fault, uint vast_page_shift, ulong4 vast_gsize, ulong4 vast_lsize, ulong4 vast_goff, ulong vast_first_group)
// CHECK: vast_init_paged(vast_c, vast_lpt, vast_fault, vast_page_shift, vast_gsize, vast_lsize, vast_goff, vast_first_group);
// CHECK-NEXT: vast_c->frames[0] = vast_frames0;
// CHECK-NEXT: vast_prun vast_run_a = vast_run(vast_c, vast_va_a);
// CHECK-NEXT: vast_prun vast_run_b = vast_run(vast_c, vast_va_b);
// CHECK-NEXT: vast_prun vast_run_out = vast_run(vast_c, vast_va_out);
// CHECK-NEXT: vast_prun vast_run_bias = vast_run(vast_c, vast_va_bias);
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
