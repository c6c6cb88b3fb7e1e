// The straight variant of a program with a __constant buffer parameter
// (docs/generated-kernels.md): a __constant pointer cannot point into the
// frames (a __global buffer), so its straight kernels keep virtual
// pointers and translate: an access known to reach one buffer parameter
// by one add from that parameter's run (vast_trsp, the run from its
// arguments), any other from its slot's run (vast_trs). Every kernel of
// the program does, as helpers' straight clones serve them all.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t -c straight-variant-constant.cl -o %t.o
// RUN: FileCheck %s < %t/straight-variant-constant.vast.cl

__kernel void scale(__global float *out, __constant float *coef, int n)
{
	int i = get_global_id(0);
	if (i < n)
		out[i] = coef[0] * out[i];
}

__kernel void copy(__global float *dst, __global const float *src)
{
	dst[get_global_id(0)] = src[get_global_id(0)];
}

// CHECK-LABEL: {{^}}__kernel void vast_straight_scale(
// CHECK: vast_prun vast_run_out = vast_srun(vast_sbuf_out, vast_sdelta_out);
// CHECK-NEXT: vast_prun vast_run_coef = vast_srun(vast_sbuf_coef, vast_sdelta_coef);
// CHECK-NEXT: __global float *out = (__global float *)vast_va_out;
// CHECK-NEXT: __constant float *coef = (__constant float *)vast_va_coef;
// CHECK: (*(__global float *)vast_trsp(vast_c, (ulong)&(out[i]), vast_run_out)) = (*(__global const float *)vast_trsp(vast_c, (ulong)&(coef[0]), vast_run_coef)) * (*(__global float *)vast_trsp(vast_c, (ulong)&(out[i]), vast_run_out));
// CHECK-LABEL: {{^}}__kernel void vast_straight_copy(
// CHECK: __global float *dst = (__global float *)vast_va_dst;
// CHECK: (*(__global float *)vast_trsp(vast_c, (ulong)&(dst[vast_st_get_global_id(vast_c, 0)]), vast_run_dst)) = (*(__global const float *)vast_trsp(vast_c, (ulong)&(src[vast_st_get_global_id(vast_c, 0)]), vast_run_src));
