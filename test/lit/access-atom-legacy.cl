// The cl_khr_global_int32_base_atomics spelling atom_* (OpenCL 1.0) is an
// atomic access like atomic_*.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c access-atom-legacy.cl -o %t.o | %flatjson | FileCheck %s

#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : enable

// CHECK-LABEL: kernel count: {{.*}} merge_exact=false
// CHECK: param count.n: {{.*}} mode=W atomic=true
__kernel void count(__global int *n, __global int *old)
{
// CHECK: access count [[@LINE+1]]:2: form=atomic mode=W atomic=true size=4 params=n
	atom_add(n, 2);
// CHECK: access count [[@LINE+2]]:2: form=subscript mode=W size=4 params=old
// CHECK: access count [[@LINE+1]]:26: form=atomic mode=W atomic=true size=4 params=n
	old[get_global_id(0)] = atom_inc(n + 1);
}
