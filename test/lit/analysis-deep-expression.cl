// A 20,000-term sum compiles (PoCL and clang accept it): no walk of the
// analysis or of the rewrite recurses once per operand, so no stack depth
// grows with the input (issue 7, item 5). The kernel is generated here.
// A 20,000-term pointer sum and a chain of 20,000 ?: are followed to `a`
// in a loop as well.
// RUN: rm -rf %t && mkdir -p %t && %python -c "print('__kernel void deep(__global const float *a, __global float *o)\n{\n\to[get_global_id(0)] = ' + ' + '.join(['a[1]'] * 20000) + ';\n}')" > %t/deep.cl
// RUN: %python -c "print('__kernel void chain(__global const float *a, __global float *o, int n)\n{\n\t__global const float *p = a' + ' + 1' * 20000 + ';\n\t__global const float *q = ' + 'n > 1 ? a : ' * 20000 + 'p;\n\to[get_global_id(0)] = *q;\n}')" >> %t/deep.cl
// (-c renders the variants into the stub; no --emit-kernels, so that
// check.sh does not hand PoCL a program of 80,000 terms to build.)
// RUN: cd %t && %vastcc --report=- -c deep.cl -o deep.o | %flatjson | FileCheck %s

// CHECK-LABEL: kernel deep: {{.*}} virtualizable=true
// CHECK: param deep.a: {{.*}} mode=R {{.*}} pattern=affine
// CHECK: param deep.o: {{.*}} mode=W {{.*}} pattern=affine
// CHECK: access deep 3:2: form=subscript mode=W size=4 params=o pattern=affine
// CHECK: access deep 3:24: form=subscript mode=R size=4 params=a pattern=affine
// CHECK: access deep 3:140017: form=subscript mode=R size=4 params=a pattern=affine
// CHECK-LABEL: kernel chain: {{.*}} virtualizable=true
// CHECK: param chain.a: {{.*}} mode=R
// CHECK: access chain 9:24: form=deref mode=R size=4 params=a
