// Guards: an `if (c) return;` at the top of the kernel guards what follows
// with !c; an affine `if` guards its arm; a condition on loaded data keeps
// the footprint (a superset) but makes it inexact, so no must-write; an
// unsigned comparison is folded only where both sides are never negative.
// RUN: cd %S && %vastcc --report=- -c footprint-guarded.cl -o %t.o | %flatjson | FileCheck %s

__kernel void guarded(__global const float *in, __global float *out, __global int *flag,
                      int n, uint m)
{
	int gid = get_global_id(0);
	if (gid >= n)
		return;
// CHECK: footprint guarded [[@LINE+2]]:2: affine=true offset="4*lsz0*grp0 + 4*lid0 + 4*goff0" loops= guards="n - lsz0*grp0 - lid0 - goff0 - 1" checks={{.*}} exact=true must_write=true
// CHECK: footprint guarded [[@LINE+1]]:13: affine=true {{.*}} exact=true must_write=false
	out[gid] = in[gid];
	if (in[gid] > 0)
// CHECK: footprint guarded [[@LINE+1]]:3: affine=true offset="4*lsz0*grp0 + 4*lid0 + 4*goff0" loops= guards="n - lsz0*grp0 - lid0 - goff0 - 1" checks={{.*}} exact=false must_write=false
		flag[gid] = 1;
	if (get_global_id(0) < m)
// CHECK: footprint guarded [[@LINE+1]]:3: affine=true offset="4*lsz0*grp0 + 4*lid0 + 4*goff0 + 4*n" loops= guards="n - lsz0*grp0 - lid0 - goff0 - 1","m - lsz0*grp0 - lid0 - goff0 - 1" checks={{.*}} exact=true must_write=true
		flag[gid + n] = 2;
}

// `x - 1 < m` in unsigned arithmetic wraps at x = 0: not a guard.
__kernel void wraps(__global float *a, uint m)
{
	uint x = get_global_id(0);
	if (x - 1 < m)
// CHECK: footprint wraps [[@LINE+1]]:3: affine=true offset="4*lsz0*grp0 + 4*lid0 + 4*goff0" loops= guards= checks={{.*}} exact=false must_write=false
		a[x] = 0;
}

// A jump elsewhere in the kernel may skip the access.
__kernel void jumps(__global float *a, __global const int *c)
{
	if (c[0])
		return;
// CHECK: footprint jumps [[@LINE+1]]:2: affine=true {{.*}} exact=false must_write=false
	a[get_global_id(0)] = 1;
}
