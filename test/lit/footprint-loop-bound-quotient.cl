// A loop bound that divides by a constant, `t < wA / 16` (the SDK's tiled
// matrixmul) or `t <= n >> 2`: C's quotient of a value that is never
// negative is floor(E / d), so the counter ranges over the hull [lo, E)
// and the guard `E - d*t - d >= 0` (`E - d*t >= 0` for <=) makes it exact.
// A numerator that may be negative (C truncates towards zero) or a
// conversion that may change the quotient's value leaves the counter
// unknown, and the access without a descriptor.
// RUN: cd %S && %vastcc --report=- -c footprint-loop-bound-quotient.cl -o %t.o | %flatjson | FileCheck %s

#define BLOCK 16
__kernel void tiled(__global float *C, __global const float *A, __global const float *B,
                    uint wA, uint wB)
{
	__local float As[BLOCK][BLOCK], Bs[BLOCK][BLOCK];
	size_t col = get_global_id(0), row = get_global_id(1);
	size_t tx = get_local_id(0), ty = get_local_id(1);
	float sum = 0.0f;
	for (uint t = 0; t < wA / BLOCK; t++) {
// CHECK: footprint tiled [[@LINE+1]]:16: affine=true offset="4*lsz1*wA*grp1 + 4*wA*lid1 + 4*goff1*wA + 64*t + 4*lid0" loops=t=[0..wA):1 guards="wA - 16*t - 16" checks=16*t:u32 exact=true must_write=false
		As[ty][tx] = A[row * wA + t * BLOCK + tx];
// CHECK: footprint tiled [[@LINE+1]]:16: affine=true offset="64*wB*t + 4*wB*lid1 + 4*lsz0*grp0 + 4*lid0 + 4*goff0" loops=t=[0..wA):1 guards="wA - 16*t - 16" checks=16*t:u32 exact=true must_write=false
		Bs[ty][tx] = B[(size_t)(t * BLOCK + ty) * wB + col];
		barrier(CLK_LOCAL_MEM_FENCE);
		for (int k = 0; k < BLOCK; k++)
			sum += As[ty][k] * Bs[k][tx];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
// CHECK: footprint tiled [[@LINE+1]]:2: affine=true {{.*}} exact=true must_write=true
	C[row * wB + col] = sum;
}

__kernel void quot(__global float *a, uint n, int m)
{
	for (uint t = 0; t <= n >> 2; t++)
// CHECK: footprint quot [[@LINE+1]]:3: affine=true offset=4*t loops=t=[0..n + 1):1 guards="n - 4*t" checks= exact=true must_write=true
		a[t] = 0;
	for (int i = 0; i < m / 4; i++)
// CHECK: footprint quot [[@LINE+1]]:3: affine=false reason="'i' changes and is not the counter of a for loop around the access at line [[@LINE+1]]"
		a[i] = 1;
	for (int i = 0; i < (char)(n / 4); i++)
// CHECK: footprint quot [[@LINE+1]]:3: affine=false reason="'i' changes and is not the counter of a for loop around the access at line [[@LINE+1]]"
		a[i] = 2;
}
