// A pointer derived from a parameter (`row = A + y*w`, then `row[x]`) reaches
// that parameter; its accesses keep the affine pattern, and every variant
// keeps the derivation since it feeds addresses.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c access-derived-pointer.cl -o %t.o | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=GEN %s < %t/access-derived-pointer.vast.cl

// CHECK-LABEL: kernel rowsum:
// CHECK: param rowsum.A: {{.*}} mode=R {{.*}} pattern=affine
// CHECK: param rowsum.out: {{.*}} mode=W {{.*}} pattern=affine
__kernel void rowsum(__global const float *A, __global float *out, int w)
{
	int y = get_global_id(0);
	__global const float *row = A + y * w;
	__global float *o = out + y;
	float s = 0.0f;
	for (int x = 0; x < w; x++)
// CHECK: access rowsum [[@LINE+1]]:8: form=subscript mode=R size=4 params=A pattern=affine
		s += row[x];
// CHECK: access rowsum [[@LINE+1]]:2: form=deref mode=W size=4 params=out pattern=affine
	*o = s;
}

// GEN-LABEL: {{^}}__kernel void vast_inspect_rowsum(
// GEN: __global const float *row = A + y * w;
// GEN: vast_touch(vast_c, (ulong)&(row[x]), 4);
// GEN: vast_touch(vast_c, (ulong)&(*o), 4);
// GEN-LABEL: {{^}}__kernel void vast_paged_rowsum(
// GEN: s += (*(__global const float *)vast_trp(vast_c, (ulong)&(row[x]), vast_run_A));
// GEN: (*(__global float *)vast_trp(vast_c, (ulong)&(*o), vast_run_out)) = s;
