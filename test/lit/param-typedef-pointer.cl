// A buffer parameter spelled through a pointer typedef is a buffer like any
// other: virtual base, rebuilt with the typedef's name, accesses translated.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c param-typedef-pointer.cl -o %t.o | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=GEN %s < %t/param-typedef-pointer.vast.cl

typedef __global float *fptr;

// CHECK-LABEL: kernel fill: {{.*}} virtualizable=true
// CHECK: param fill.a: index=0 kind=global type=fptr {{.*}} elem_size=4 mode=W atomic=false pattern=affine
// CHECK: param fill.c: index=1 kind=global type="__global int *const" elem_type=int elem_size=4 mode=R
__kernel void fill(fptr a, global int * const c)
{
	int i = get_global_id(0);
	a[i] = c[0];
}

// GEN-LABEL: {{^}}__kernel void vast_paged_fill(ulong vast_va_a, ulong vast_va_c,
// GEN: fptr a = (fptr)vast_va_a;
// GEN-NEXT: __global int *const c = (__global int *const)vast_va_c;
// GEN: (*(__global float *)vast_trp(vast_c, (ulong)&(a[i]), vast_run_a)) = (*(__global int *)vast_trp(vast_c, (ulong)&(c[0]), vast_run_c));
