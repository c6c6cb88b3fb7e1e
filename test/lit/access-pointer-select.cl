// A pointer chosen between two parameters (`c ? a : b`) may reach both: the
// access names both and both are written; the selection is kept in the
// inspector because it feeds the address.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c access-pointer-select.cl -o %t.o | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=INSPECT %s < %t/access-pointer-select.vast.cl

// CHECK-LABEL: kernel sel:
// CHECK: param sel.a: {{.*}} mode=W
// CHECK: param sel.b: {{.*}} mode=W
// CHECK: param sel.c: {{.*}} mode=none
__kernel void sel(__global float *a, __global float *b, int c)
{
	int i = get_global_id(0);
	__global float *p = c ? a : b;
// CHECK: access sel [[@LINE+1]]:2: form=subscript mode=W size=4 params=a,b pattern=affine
	p[i] = 2.0f;
}

// INSPECT-LABEL: {{^}}__kernel void vast_inspect_sel(
// INSPECT: __global float *p = c ? a : b;
// INSPECT: { vast_touch(vast_c, (ulong)&(p[i]), 4); }
