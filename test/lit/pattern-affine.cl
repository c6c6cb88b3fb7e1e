// Affine: the byte offset is affine in work-item ids, with literals, scalar
// parameters and `for` induction variables as coefficients and terms
// (matrix multiply's A[y*w+k] and B[k*w+x]).
// RUN: cd %S && %vastcc --emit-kernels=%t --report=- -c pattern-affine.cl -o %t.o | %flatjson | FileCheck %s

// CHECK-LABEL: kernel mm:
// CHECK: param mm.A: {{.*}} pattern=affine inspect_reads=false
// CHECK: param mm.B: {{.*}} pattern=affine inspect_reads=false
// CHECK: param mm.C: {{.*}} pattern=affine inspect_reads=false
__kernel void mm(__global const float *A, __global const float *B, __global float *C, int w)
{
	int x = get_global_id(0), y = get_global_id(1);
	float s = 0.0f;
	for (int k = 0; k < w; k++)
// CHECK: access mm [[@LINE+2]]:8: form=subscript mode=R size=4 params=A pattern=affine
// CHECK: access mm [[@LINE+1]]:23: form=subscript mode=R size=4 params=B pattern=affine
		s += A[y * w + k] * B[k * w + x];
// CHECK: access mm [[@LINE+1]]:2: form=subscript mode=W size=4 params=C pattern=affine
	C[(y << 4) * w + x - 1 + get_group_id(0) * 3] = s;
}
