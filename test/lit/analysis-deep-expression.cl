// A 20,000-term sum compiles (PoCL and clang accept it): no walk of the
// analysis or of the rewrite recurses once per operand, so no stack depth
// grows with the input (issue 7, item 5). The kernel is generated here.
// RUN: rm -rf %t && mkdir -p %t && %python -c "print('__kernel void deep(__global const float *a, __global float *o)\n{\n\to[get_global_id(0)] = ' + ' + '.join(['a[1]'] * 20000) + ';\n}')" > %t/deep.cl
// RUN: cd %t && %vastcc --emit-kernels=%t/out --report=- -c deep.cl -o deep.o | %flatjson | FileCheck %s
// RUN: grep -c 'a\[1\]' %t/out/deep.vast.cl | FileCheck --check-prefix=GEN %s

// CHECK-LABEL: kernel deep: {{.*}} virtualizable=true
// CHECK: param deep.a: {{.*}} mode=R {{.*}} pattern=affine
// CHECK: param deep.o: {{.*}} mode=W {{.*}} pattern=affine
// CHECK: access deep 3:2: form=subscript mode=W size=4 params=o pattern=affine
// CHECK: access deep 3:24: form=subscript mode=R size=4 params=a pattern=affine
// CHECK: access deep 3:140017: form=subscript mode=R size=4 params=a pattern=affine
// GEN: {{[1-9]}}
