// A __constant pointer parameter is a buffer (kind constant): it gets a
// virtual base like a __global one and its reads are translated.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c param-constant.cl -o %t.o | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=GEN %s < %t/param-constant.vast.cl
// RUN: FileCheck --check-prefix=STUB %s < %t/param-constant.vast.c

// Program-scope __constant tables are part of the program, not a buffer.
__constant float table[4] = { 1.0f, 2.0f, 3.0f, 4.0f };

// CHECK-LABEL: kernel weights:
// CHECK: param weights.coef: index=0 kind=constant type="__constant float *" elem_type=float elem_size=4 mode=R {{.*}} pattern=direct
__kernel void weights(__constant float *coef, __global float *out)
{
	int i = get_global_id(0);
// CHECK: access weights [[@LINE+2]]:2: form=subscript mode=W size=4 params=out
// CHECK: access weights [[@LINE+1]]:11: form=subscript mode=R size=4 params=coef
	out[i] = coef[i % 4] * table[i & 3];
}
// CHECK-NOT: access weights

// GEN-LABEL: {{^}}__kernel void vast_paged_weights(ulong vast_va_coef, ulong vast_va_out,
// GEN: __constant float *coef = (__constant float *)vast_va_coef;
// GEN: = (*(__global const float *)vast_trp(vast_c, (ulong)&(coef[i % 4]), vast_run_coef)) * table[i & 3];

// STUB: { .name = "coef", .kind = VAST_PARAM_CONSTANT, .mode = VAST_MODE_R,
