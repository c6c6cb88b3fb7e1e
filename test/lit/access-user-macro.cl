// An access spelled inside a user macro is found and rewritten in the
// macro-expanded text. (Its column: report-column-after-macro.cl.)
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c access-user-macro.cl -o %t.o | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=GEN %s < %t/access-user-macro.vast.cl

#define IDX(x, y) ((y) * W + (x))
#define STORE(p, i, v) p[i] = (v)
#define W 64

// CHECK-LABEL: kernel transpose:
// CHECK: param transpose.in: {{.*}} mode=R {{.*}} pattern=affine
// CHECK: param transpose.out: {{.*}} mode=W {{.*}} pattern=affine
__kernel void transpose(__global const float *in, __global float *out)
{
	int x = get_global_id(0), y = get_global_id(1);
// CHECK: access transpose [[@LINE+2]]:2: form=subscript mode=W size=4 params=out
// CHECK: access transpose [[@LINE+1]]:{{[0-9]+}}: form=subscript mode=R size=4 params=in
	STORE(out, IDX(y, x), in[IDX(x, y)]);
}

// GEN-LABEL: {{^}}__kernel void vast_paged_transpose(
// GEN: (*(__global float *)vast_trp(vast_c, (ulong)&(out[((x) * 64 + (y))]), vast_run_out)) = ((*(__global const float *)vast_trp(vast_c, (ulong)&(in[((y) * 64 + (x))]), vast_run_in)));
