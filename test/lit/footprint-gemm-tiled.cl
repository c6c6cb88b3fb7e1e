// Footprints of a tiled gemm: A walks a row strip tile by tile, B a column
// strip, both through a loop whose step is the tile; C is one element per
// work-item, written unconditionally.
// RUN: cd %S && %vastcc --report=- -c footprint-gemm-tiled.cl -o %t.o | %flatjson | FileCheck %s

#define TS 16
__kernel void gemm(__global const float *A, __global const float *B, __global float *C, int n)
{
	__local float As[TS][TS], Bs[TS][TS];
	int lx = get_local_id(0), ly = get_local_id(1);
	int col = get_global_id(0), row = get_global_id(1);
	float acc = 0;
	for (int k = 0; k < n; k += TS) {
// CHECK: footprint gemm [[@LINE+1]]:16: affine=true offset="4*lsz1*n*grp1 + 4*n*lid1 + 4*goff1*n + 4*k + 4*lid0" loops=k=[0..n):16 guards= checks={{.*}} exact=true must_write=false
		As[ly][lx] = A[row * n + k + lx];
// CHECK: footprint gemm [[@LINE+1]]:16: affine=true offset="4*n*k + 4*n*lid1 + 4*lsz0*grp0 + 4*lid0 + 4*goff0" loops=k=[0..n):16 guards= checks={{.*}} exact=true must_write=false
		Bs[ly][lx] = B[(k + ly) * n + col];
		barrier(CLK_LOCAL_MEM_FENCE);
		for (int kk = 0; kk < TS; kk++)
			acc += As[ly][kk] * Bs[kk][lx];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
// CHECK: footprint gemm [[@LINE+1]]:2: affine=true offset="4*lsz1*n*grp1 + 4*n*lid1 + 4*goff1*n + 4*lsz0*grp0 + 4*lid0 + 4*goff0" loops= guards= checks={{.*}} exact=true must_write=true
	C[row * n + col] = acc;
}
