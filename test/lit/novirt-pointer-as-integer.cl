// A global pointer converted to an integer and stored leaks a virtual
// address just like storing the pointer itself: not virtualizable.
// RUN: cd %S && %vastcc --report=- -c novirt-pointer-as-integer.cl -o %t.o 2>%t.err | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err

__kernel void addr(__global float *a, __global ulong *out)
{
	out[get_global_id(0)] = (ulong)(a + get_global_id(0));
}

// CHECK: kernel addr: {{.*}} virtualizable=false reason="{{.*}}" reason_line=8
// WARN: novirt-pointer-as-integer.cl:8:{{[0-9]+}}: warning: kernel 'addr' cannot be virtualized:
