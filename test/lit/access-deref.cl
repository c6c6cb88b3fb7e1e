// `*p` and `*(p + i)` are global accesses through the pointer itself.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c access-deref.cl -o %t.o | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=PAGED %s < %t/access-deref.vast.cl

// CHECK-LABEL: kernel deref:
// CHECK: param deref.out: {{.*}} mode=W
// CHECK: param deref.in: {{.*}} mode=R
__kernel void deref(__global int *out, __global const int *in)
{
	int i = get_global_id(0);
// CHECK: access deref [[@LINE+2]]:2: form=deref mode=W size=4 params=out
// CHECK: access deref [[@LINE+1]]:15: form=deref mode=R size=4 params=in
	*(out + i) = *in;
}

// PAGED-LABEL: {{^}}__kernel void vast_paged_deref(
// PAGED: (*(__global int *)vast_trp(vast_c, (ulong)&(*(out + i)), vast_run_out)) = (*(__global const int *)vast_trp(vast_c, (ulong)&(*in), vast_run_in));
