// min(e, hi) with hi fixed for the launch (OpenCL C 6.15.3), in either
// order, is clamp(e, -inf, hi): a new variable over the hull of e for one
// work-group, guarded by clamp <= hi alone, a superset (exact=false). It
// is valid where the hull reaches down to hi (hi - emin >= 0, a `:u63`
// check over the whole range): a work-group wholly past hi reads hi
// alone, outside its hull, so there the host plans with the inspector.
// RUN: cd %S && %vastcc --report=- -c footprint-min.cl -o %t.o | %flatjson | FileCheck %s

// The value first, then the bound; the conversion of gid to int is
// checked over the whole range too.
__kernel void value_first(__global const float *a, __global float *b, int n)
{
	int gid = get_global_id(0);
// CHECK: footprint value_first [[@LINE+1]]:11: affine=true offset=4*clamp0 loops=clamp0=[lsz0*grp0 + goff0..lsz0*grp0 + lsz0 + goff0):1 guards="n - 1 - clamp0" checks="lsz0*grp0 + lid0 + goff0:i32","n - 1 - lsz0*grp0 - goff0:u63" exact=false must_write=false
	b[gid] = a[min(gid, n - 1)];
}

// The bound first: the same descriptor.
__kernel void bound_first(__global const float *a, __global float *b, int n)
{
	int gid = get_global_id(0);
// CHECK: footprint bound_first [[@LINE+1]]:11: affine=true offset=4*clamp0 loops=clamp0=[lsz0*grp0 + goff0..lsz0*grp0 + lsz0 + goff0):1 guards="n - 1 - clamp0" checks="lsz0*grp0 + lid0 + goff0:i32","n - 1 - lsz0*grp0 - goff0:u63" exact=false must_write=false
	b[gid] = a[min(n - 1, gid)];
}

// The argument past the bound: gid + 8 exceeds n - 1 in the last
// work-groups, which read n - 1, inside their hull only while it reaches
// down to n - 1 (n - 9 - emin >= 0 below, with emin = grp * lsz + goff).
// A loop counter's hull comes from its bounds.
__kernel void past(__global const float *a, __global float *b, int n, int m)
{
	int gid = get_global_id(0);
	for (int k = 0; k < m; k++)
// CHECK: footprint past [[@LINE+1]]:13: affine=true offset=4*clamp1 loops=k=[0..m):1,clamp1=[lsz0*grp0 + goff0 + 8..lsz0*grp0 + lsz0 + 7 + goff0 + m):1 guards="n - 1 - clamp1" checks="lsz0*grp0 + lid0 + goff0:i32","n - 9 - lsz0*grp0 - goff0:u63" exact=false must_write=false
		b[gid] += a[min(gid + 8 + k, n - 1)];
}

// A store through min() writes only some of its hull's points: never a
// must-write, so the runtime fills the rest from the host first.
__kernel void store(__global float *b, int n)
{
	int gid = get_global_id(0);
// CHECK: footprint store [[@LINE+1]]:2: affine=true offset=4*clamp0 loops=clamp0=[2*lsz0*grp0 + 2*goff0..2*lsz0*grp0 + 2*lsz0 - 1 + 2*goff0):1 guards="n - clamp0" checks="lsz0*grp0 + lid0 + goff0:i32","n - 2*lsz0*grp0 - 2*goff0:u63" exact=false must_write=false
	b[min(2 * gid, n)] = 1.0f;
}

// No descriptor: both arguments vary, or the min() is a loop bound.
__kernel void none(__global const float *a, __global float *b, int n)
{
	int gid = get_global_id(0), lid = get_local_id(0);
// CHECK: footprint none [[@LINE+1]]:11: affine=false reason="a min() of two values that vary at line [[@LINE+1]]"
	b[gid] = a[min(gid, lid)];
	for (int i = 0; i < min(n, 8); i++)
// CHECK: footprint none [[@LINE+1]]:3: affine=false reason="'i' changes and is not the counter of a for loop around the access at line [[@LINE+1]]"
		b[i] = 0;
}

// Under a guard that already keeps gid at most n - 1 (`if (gid < n)`),
// min(gid, n - 1) is gid where the store runs: exact, a must-write
// (fdtd3d's `out[z * plane + col]`). Another guard leaves the superset.
__kernel void guarded(__global float *b, int n)
{
	int gid = get_global_id(0);
	if (gid < n)
// CHECK: footprint guarded [[@LINE+1]]:3: affine=true offset="4*lsz0*grp0 + 4*lid0 + 4*goff0" loops= guards="n - lsz0*grp0 - lid0 - goff0 - 1" checks="lsz0*grp0 + lid0 + goff0:i32" exact=true must_write=true
		b[min(gid, n - 1)] = 1.0f;
	if (gid < n + 1)
// CHECK: footprint guarded [[@LINE+1]]:3: affine=true offset=4*clamp0 {{.*}} exact=false must_write=false
		b[min(gid, n - 1)] = 2.0f;
}
