// The straight variant (docs/generated-kernels.md): the paged kernel's
// arguments, then the box's origin and each buffer's run (its frame
// buffer and delta) as arguments. Each __global buffer parameter is a
// pointer to where its virtual base lies in the frames, so the body and
// the straight helper clones are the original's, accesses untranslated
// (no vast_tr, vast_trp, vast_trs or vast_trsp in them: the device
// compiler sees the original's addressing); the work-item functions are
// the device's own (vast_st_*, an N-D launch with a global offset). A
// NULL buffer is still NULL (0 + 0 - 0). straight-variant-constant.cl:
// a program with a __constant buffer translates instead.
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
// CHECK: { return p[i]; }
// CHECK-LABEL: {{^}}__kernel void vast_straight_blend(ulong vast_va_a, ulong vast_va_b, ulong vast_va_out, ulong vast_va_bias, int which, float k, __global uchar *vast_frames0,
// CHECK-SAME: __global const uint *vast_lpt, __global uint *vast_fault, uint vast_page_shift, ulong4 vast_gsize, ulong4 vast_lsize, ulong4 vast_goff, ulong vast_first_group,
// CHECK-SAME: ulong4 vast_origin, __global uchar *vast_sbuf_a, ulong vast_sdelta_a, __global uchar *vast_sbuf_b, ulong vast_sdelta_b, __global uchar *vast_sbuf_out, ulong vast_sdelta_out, __global uchar *vast_sbuf_bias, ulong vast_sdelta_bias)
// CHECK: vast_init_straight(vast_c, vast_lpt, vast_fault, vast_page_shift, vast_gsize, vast_lsize, vast_goff, vast_first_group, vast_origin);
// CHECK-NEXT: vast_c->frames[0] = vast_frames0;
// CHECK-NEXT: const __global float *a = (const __global float *)(vast_sbuf_a + (vast_va_a - vast_sdelta_a));
// CHECK-NEXT: const __global float *b = (const __global float *)(vast_sbuf_b + (vast_va_b - vast_sdelta_b));
// CHECK-NEXT: __global float *out = (__global float *)(vast_sbuf_out + (vast_va_out - vast_sdelta_out));
// CHECK-NEXT: const __global float *bias = (const __global float *)(vast_sbuf_bias + (vast_va_bias - vast_sdelta_bias));
// CHECK-NOT: vast_tr
// CHECK: int i = vast_st_get_global_id(vast_c, 0);
// CHECK-NEXT: __global const float *src = which ? a : b;
// CHECK-NEXT: out[i] = k * a[i] + src[i] + vast_straight_pick(vast_c, b, i);
// CHECK-NEXT: if (bias)
// CHECK-NEXT: out[i] += bias[i];
// CHECK-EMPTY:
// CHECK-NEXT: {{^}}}

// STUB: { .name = "blend", .nparams = 6,
// STUB: .variants = VAST_HAS_INSPECT | VAST_HAS_PAGED | VAST_HAS_STRAIGHT,
