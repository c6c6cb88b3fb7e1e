// The element type of a buffer parameter spelled through a pointer typedef
// is the pointee's, as for any buffer.
// RUN: cd %S && %vastcc --report=- -c param-typedef-elem-type.cl -o %t.o | %flatjson | FileCheck %s

typedef __global float *fptr;

// CHECK: param fill.a: index=0 kind=global type=fptr elem_type=float elem_size=4
__kernel void fill(fptr a)
{
	a[get_global_id(0)] = 0.0f;
}
