// A pointer to global memory stored into memory would leak a virtual
// address out of the paged kernel: not virtualizable.
// RUN: cd %S && %vastcc --report=- -c novirt-pointer-stored.cl -o %t.o 2>%t.err | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err

__kernel void leak(__global float *a, __global float *b)
{
	__global float * __global *slot = (__global float * __global *)b;
	slot[get_global_id(0)] = a + get_global_id(0);
}

// CHECK: kernel leak: {{.*}} virtualizable=false reason="a pointer to global memory is stored into memory" reason_line=9 reason_col=2
// WARN: novirt-pointer-stored.cl:9:2: warning: kernel 'leak' cannot be virtualized: a pointer to global memory is stored into memory; it runs natively when its data fits
