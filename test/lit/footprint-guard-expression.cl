// Conditions inside expressions guard like an if's: an access in a branch
// of `?:` runs when the condition is true (first branch) or false (second),
// one on the right of `&&` when the left is true, of `||` when it is false.
// fdtd2d's `y == 0 ? source : ... hz[(y - 1) * w + x]` reads row y - 1 only
// for y >= 1: the guard folds in and the footprint is exact (before, it was
// a superset reaching a row before the buffer, so every launch fell back
// to the inspector). A condition that is not affine leaves the footprint a
// superset, as an if's does.
// RUN: cd %S && %vastcc --report=- -c footprint-guard-expression.cl -o %t.o | %flatjson | FileCheck %s

__kernel void second_branch(__global float *ey, __global const float *hz, uint w, uint h)
{
	uint x = get_global_id(0), y = get_global_id(1);
	if (x >= w || y >= h)
		return;
// CHECK: footprint second_branch [[@LINE+2]]:2: affine=true {{.*}} exact=true must_write=true
// CHECK: footprint second_branch [[@LINE+1]]:34: affine=true offset="4*lsz1*w*grp1 + 4*w*lid1 + 4*goff1*w - 4*w + 4*lsz0*grp0 + 4*lid0 + 4*goff0" loops= guards="w - lsz0*grp0 - lid0 - goff0 - 1","h - lsz1*grp1 - lid1 - goff1 - 1","lsz1*grp1 + lid1 + goff1 - 1" checks={{.*}} exact=true must_write=false
	ey[y * w + x] = y == 0 ? 0.0f : hz[(y - 1) * w + x];
}

__kernel void first_branch(__global float *a, __global const float *b, uint n)
{
	uint x = get_global_id(0);
// CHECK: footprint first_branch [[@LINE+1]]:17: affine=true offset="4*lsz0*grp0 + 4*lid0 + 4*goff0" loops= guards="n - lsz0*grp0 - lid0 - goff0 - 1" checks={{.*}} exact=true must_write=false
	a[x] = x < n ? b[x] : 0.0f;
}

__kernel void and_or(__global int *a, __global const int *b, uint n)
{
	uint x = get_global_id(0);
// CHECK: footprint and_or [[@LINE+1]]:19: affine=true offset="4*lsz0*grp0 + 4*lid0 + 4*goff0 - 4" loops= guards="lsz0*grp0 + lid0 + goff0 - 1" checks={{.*}} exact=true must_write=false
	int l = x > 0 && b[x - 1] > 0;
// CHECK: footprint and_or [[@LINE+1]]:20: affine=true offset="4*lsz0*grp0 + 4*lid0 + 4*goff0" loops= guards="n - lsz0*grp0 - lid0 - goff0 - 1" checks={{.*}} exact=true must_write=false
	int r = x >= n || b[x] > 0;
	a[x] = l + r;
}

// A condition on data is no guard: the read is a superset, inexact.
__kernel void data_condition(__global float *a, __global const float *b)
{
	uint x = get_global_id(0);
// CHECK: footprint data_condition [[@LINE+1]]:23: affine=true {{.*}} guards= checks={{.*}} exact=false must_write=false
	a[x] = b[x] > 0.0f ? b[x + 1] : 0.0f;
}
