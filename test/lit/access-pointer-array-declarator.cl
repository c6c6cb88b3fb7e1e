// A pointer kept in a private array of pointers, or a pointer to an array
// (`float (*m)[4]`), reaches the parameter it was initialized with: the
// array sizes in a declarator are expressions before the initializer, not
// the initializer (issue 7, item 1). Writes through them are attributed to
// `a`, so the runtime brings `a` back after the kernel.
// RUN: rm -rf %t && cd %S && %vastcc --report=- -c access-pointer-array-declarator.cl -o %t.o | %flatjson | FileCheck %s

// CHECK-LABEL: kernel ptr_array: {{.*}} virtualizable=true
// CHECK: param ptr_array.a: {{.*}} mode=W
__kernel void ptr_array(__global float *a)
{
	__global float *ptrs[1] = { a };
// CHECK: access ptr_array [[@LINE+1]]:2: form=subscript mode=W size=4 params=a
	ptrs[0][get_global_id(0)] = 5.0f;
}

// CHECK-LABEL: kernel ptr_to_array: {{.*}} virtualizable=true
// CHECK: param ptr_to_array.a: {{.*}} mode=W
__kernel void ptr_to_array(__global float *a)
{
	__global float (*m)[4] = (__global float (*)[4])a;
// CHECK: access ptr_to_array [[@LINE+1]]:2: form=subscript mode=W size=4 params=a
	m[get_global_id(0) / 4][2] = 5.0f;
}
