// `x == 0 || ... return;` (PolyBench's stencils skip their border this way):
// for x never negative, x != 0 is the guard x - 1 >= 0, so the border test
// folds into the guards and the interior store is exact and must-write.
// A != against anything but 0, or on a side that may be negative, is two
// half-spaces: not folded, the footprint stays a superset (inexact).
// RUN: cd %S && %vastcc --report=- -c footprint-guard-not-zero.cl -o %t.o | %flatjson | FileCheck %s

__kernel void interior(__global const float *in, __global float *out, uint n)
{
	uint x = get_global_id(0), y = get_global_id(1);
	if (x == 0 || y == 0 || x + 1 >= n || y + 1 >= n)
		return;
// CHECK: footprint interior [[@LINE+2]]:2: affine=true offset="4*lsz1*n*grp1 + 4*n*lid1 + 4*goff1*n + 4*lsz0*grp0 + 4*lid0 + 4*goff0" loops= guards="lsz0*grp0 + lid0 + goff0 - 1","lsz1*grp1 + lid1 + goff1 - 1","n - lsz0*grp0 - lid0 - goff0 - 2","n - lsz1*grp1 - lid1 - goff1 - 2" checks={{.*}} exact=true must_write=true
// CHECK: footprint interior [[@LINE+1]]:35: affine=true offset="4*lsz1*n*grp1 + 4*n*lid1 + 4*goff1*n + 4*lsz0*grp0 + 4*lid0 + 4*goff0 - 4" {{.*}} exact=true must_write=false
	out[y * n + x] = in[y * n + x] + in[y * n + x - 1];
}

// 0 on the left works the same.
__kernel void zero_left(__global float *a)
{
	uint x = get_global_id(0);
	if (0 == x)
		return;
// CHECK: footprint zero_left [[@LINE+1]]:2: affine=true offset="4*lsz0*grp0 + 4*lid0 + 4*goff0 - 4" loops= guards="lsz0*grp0 + lid0 + goff0 - 1" checks={{.*}} exact=true must_write=true
	a[x - 1] = 1;
}

// x != 5 leaves a hole in the middle: no guard.
__kernel void not_five(__global float *a)
{
	uint x = get_global_id(0);
	if (x == 5)
		return;
// CHECK: footprint not_five [[@LINE+1]]:2: affine=true offset="4*lsz0*grp0 + 4*lid0 + 4*goff0" loops= guards= checks={{.*}} exact=false must_write=false
	a[x] = 1;
}

// A signed side that may be negative: x != 0 does not mean x >= 1.
__kernel void may_be_negative(__global float *a, int k)
{
	int x = get_global_id(0);
	if (x - k == 0)
		return;
// CHECK: footprint may_be_negative [[@LINE+1]]:2: affine=true {{.*}} guards= checks={{.*}} exact=false must_write=false
	a[x] = 1;
}
