// A buffer parameter past the 32nd is not analysed (points-to sets have 32
// bits): its mode is the widest its address space allows, never `none`,
// so a native run brings back what the kernel wrote (issue 7).
// RUN: cd %S && %vastcc --report=- -c param-past-32nd.cl -o %t.o 2>%t.err | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err

// CHECK: param wide.out: {{.*}} mode=RW
// CHECK: param wide.cin: {{.*}} mode=R 
__kernel void wide(__global const int *a0,
                   __global const int *a1,
                   __global const int *a2,
                   __global const int *a3,
                   __global const int *a4,
                   __global const int *a5,
                   __global const int *a6,
                   __global const int *a7,
                   __global const int *a8,
                   __global const int *a9,
                   __global const int *a10,
                   __global const int *a11,
                   __global const int *a12,
                   __global const int *a13,
                   __global const int *a14,
                   __global const int *a15,
                   __global const int *a16,
                   __global const int *a17,
                   __global const int *a18,
                   __global const int *a19,
                   __global const int *a20,
                   __global const int *a21,
                   __global const int *a22,
                   __global const int *a23,
                   __global const int *a24,
                   __global const int *a25,
                   __global const int *a26,
                   __global const int *a27,
                   __global const int *a28,
                   __global const int *a29,
                   __global const int *a30,
                   __global const int *a31,
// WARN: param-past-32nd.cl:[[@LINE+1]]:20: warning: kernel 'wide' cannot be virtualized: buffer parameter 'out' comes after the 32nd parameter
                   __global int *out, __constant int *cin)
{
	int i = get_global_id(0);
	out[i] = a0[i] + a31[i] + cin[i];
}
