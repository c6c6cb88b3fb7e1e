// `&(a[i])` and every other spelling of the address of an element
// (`(&a[i])`, `&((a))[i]`, `a + i`, `&*(a + i)`) is traced to `a`, as
// `&a[i]` is (issue 7, item 10).
// RUN: rm -rf %t && cd %S && %vastcc --report=- -c access-address-of-parens.cl -o %t.o 2>&1 | %flatjson | FileCheck %s

// CHECK-LABEL: kernel k: {{.*}} virtualizable=true
// CHECK: param k.a: {{.*}} mode=RW {{.*}} pattern=affine
// CHECK: param k.b: {{.*}} mode=W {{.*}} pattern=affine
__kernel void k(__global float *a, __global float *b)
{
	int i = get_global_id(0);
	__global float *p = &(a[i]);
	__global float *q = (&a[i]);
	__global float *r = &((a))[i];
	__global float *s = a + i;
	__global float *t = &*(a + i);
// CHECK: access k [[@LINE+5]]:2: form=deref mode=W size=4 params=a pattern=affine
// CHECK: access k [[@LINE+5]]:2: form=deref mode=W size=4 params=a pattern=affine
// CHECK: access k [[@LINE+5]]:2: form=deref mode=W size=4 params=a pattern=affine
// CHECK: access k [[@LINE+5]]:2: form=deref mode=W size=4 params=a pattern=affine
// CHECK: access k [[@LINE+5]]:2: form=deref mode=W size=4 params=a pattern=affine
	*p = 1.0f;
	*q = 2.0f;
	*r = 3.0f;
	*s = 4.0f;
	*t = 5.0f;
// CHECK: access k [[@LINE+2]]:2: form=subscript mode=W size=4 params=b pattern=affine
// CHECK: access k [[@LINE+1]]:9: form=deref mode=R size=4 params=a pattern=affine
	b[i] = *(&(a[i]));
}
