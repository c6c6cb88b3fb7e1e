// An element of an array field of a struct element, `s[i].arr[j]`, is an
// access of the struct buffer: it reaches `s` and the kernel stays
// virtualizable.
// RUN: cd %S && %vastcc --report=- -c access-struct-array-field.cl -o %t.o 2>%t.err | %flatjson | FileCheck %s
// RUN: count 0 < %t.err

typedef struct { float arr[4]; int n; } rec;

// CHECK: kernel pick: {{.*}} virtualizable=true
// CHECK: param pick.s: {{.*}} elem_type="const rec" elem_size=20 mode=R
__kernel void pick(__global const rec *s, __global float *o)
{
	int i = get_global_id(0);
// CHECK: access pick [[@LINE+1]]:9: form=subscript mode=R size=4 params=s
	o[i] = s[i].arr[2];
}
