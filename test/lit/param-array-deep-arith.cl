// An array-syntax parameter (`__global float b[]`, a pointer: C99
// 6.7.5.3p7) reached through 70 additions, deeper than the 64 levels the
// analysis once followed before it stopped silently and called the
// pointer untraceable: the access is b's alone, and the kernel stays
// virtualizable (issue 9 item 6: walks run to their end).
// RUN: cd %S && %vastcc --report=- -c param-array-deep-arith.cl -o %t.o | %flatjson | FileCheck %s
// RUN: cd %S && %vastcc -c param-array-deep-arith.cl -o %t.o 2>&1 | count 0

// CHECK: kernel deep: {{.*}} virtualizable=true
// CHECK: access deep {{.*}} params=out
// CHECK: access deep {{.*}} params=b pattern=
__kernel void deep(__global float b[], __global float *out)
{
	out[get_global_id(0)] = *(b + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1);
}
