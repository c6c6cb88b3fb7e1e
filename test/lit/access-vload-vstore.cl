// vloadN/vstoreN access N elements at p + off*N (OpenCL 1.2 §6.12.7): the
// access is N*sizeof(T) bytes, and the paged kernel translates the address
// of the first element and calls the builtin with offset 0.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c access-vload-vstore.cl -o %t.o | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=GEN %s < %t/access-vload-vstore.vast.cl

// CHECK-LABEL: kernel vec:
// CHECK: param vec.in: {{.*}} mode=R {{.*}} pattern=affine
// CHECK: param vec.out: {{.*}} mode=W {{.*}} pattern=affine
__kernel void vec(__global const float *in, __global float *out)
{
	int i = get_global_id(0);
// CHECK: access vec [[@LINE+1]]:13: form=vload mode=R size=16 params=in
	float4 v = vload4(i, in);
// CHECK: access vec [[@LINE+1]]:2: form=vstore mode=W size=32 params=out
	vstore8((float8)(v, v), i, out);
// CHECK: access vec [[@LINE+1]]:2: form=vstore mode=W size=12 params=out
	vstore3(v.xyz, 0, out + 3 * i);
}

// GEN-LABEL: {{^}}__kernel void vast_inspect_vec(
// GEN: vast_touch(vast_c, (ulong)((in) + (size_t)(i) * 4), 16);
// GEN: vast_touch(vast_c, (ulong)((out) + (size_t)(i) * 8), 32);
// GEN: vast_touch(vast_c, (ulong)((out + 3 * i) + (size_t)(0) * 3), 12);
// GEN-LABEL: {{^}}__kernel void vast_paged_vec(
// GEN: float4 v = vload4(0, (__global const float *)vast_trp(vast_c, (ulong)((in) + (size_t)(i) * 4), vast_run_in));
// GEN: vstore8((float8)(v, v), 0, (__global float *)vast_trp(vast_c, (ulong)((out) + (size_t)(i) * 8), vast_run_out));
