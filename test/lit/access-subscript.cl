// An array subscript of a buffer parameter is a global access: read on the
// right of '=', write on the left, with the element's size.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c access-subscript.cl -o %t.o | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=PAGED %s < %t/access-subscript.vast.cl

// CHECK-LABEL: kernel copy:
// CHECK: param copy.dst: index=0 kind=global {{.*}} elem_size=8 mode=W
// CHECK: param copy.src: index=1 kind=global {{.*}} elem_size=8 mode=R
__kernel void copy(__global double *dst, __global const double *src)
{
	size_t i = get_global_id(0);
// CHECK: access copy [[@LINE+2]]:2: form=subscript mode=W size=8 params=dst
// CHECK: access copy [[@LINE+1]]:11: form=subscript mode=R size=8 params=src
	dst[i] = src[i];
}

// PAGED-LABEL: {{^}}__kernel void vast_paged_copy(
// PAGED: (*(__global double *)vast_trp(vast_c, (ulong)&(dst[i]), vast_run_dst)) = (*(__global const double *)vast_trp(vast_c, (ulong)&(src[i]), vast_run_src));
