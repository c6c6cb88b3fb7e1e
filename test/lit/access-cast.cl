// An access through a cast of the buffer pointer, `((__global int *)p)[i]`,
// reaches the parameter and takes the cast type's size.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c access-cast.cl -o %t.o | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=PAGED %s < %t/access-cast.vast.cl

// CHECK-LABEL: kernel bits:
// CHECK: param bits.f: {{.*}} elem_type=float elem_size=4 mode=R
// CHECK: param bits.out: {{.*}} elem_type=uchar elem_size=1 mode=W
__kernel void bits(__global float *f, __global uchar *out)
{
	int i = get_global_id(0);
// CHECK: access bits [[@LINE+2]]:2: form=subscript mode=W size=8 params=out
// CHECK: access bits [[@LINE+1]]:31: form=subscript mode=R size=4 params=f
	((__global ulong *)out)[i] = ((__global const uint *)f)[i];
}

// PAGED-LABEL: {{^}}__kernel void vast_paged_bits(
// PAGED: (*(__global ulong *)vast_trp(vast_c, (ulong)&(((__global ulong *)out)[i]), vast_run_out)) = (*(__global const uint *)vast_trp(vast_c, (ulong)&(((__global const uint *)f)[i]), vast_run_f));
