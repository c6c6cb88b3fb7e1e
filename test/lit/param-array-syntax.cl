// A parameter declared with array syntax, `__global float b[]`, is a
// pointer (C99 6.7.5.3p7, OpenCL C 6.9): a buffer parameter like
// `__global float *b`, so the kernel stays virtualizable.
// RUN: cd %S && %vastcc --report=- -c param-array-syntax.cl -o %t.o | %flatjson | FileCheck %s
// RUN: cd %S && %vastcc -c param-array-syntax.cl -o %t.o 2>&1 | count 0

// CHECK: kernel copy: {{.*}} virtualizable=true
// CHECK: param copy.b: index=0 kind=global {{.*}} elem_type=float elem_size=4 mode=R
// CHECK: access copy {{.*}} params=b
__kernel void copy(__global float b[], __global float *out)
{
	out[get_global_id(0)] = b[get_global_id(0)];
}
