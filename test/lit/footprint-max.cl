// max(e, lo) with lo fixed for the launch (OpenCL C 6.15.3), in either
// order, is clamp(e, lo, +inf): a new variable over the hull of e for one
// work-group, guarded by lo <= clamp alone, a superset (exact=false). It
// is valid where the hull reaches up to lo (emax - lo >= 0, a `:u63`
// check over the whole range): a work-group wholly below lo reads lo
// alone, outside its hull, so there the host plans with the inspector.
// RUN: cd %S && %vastcc --report=- -c footprint-max.cl -o %t.o | %flatjson | FileCheck %s

// The value first, then the bound.
__kernel void value_first(__global const float *a, __global float *b, int n)
{
	int gid = get_global_id(0);
// CHECK: footprint value_first [[@LINE+1]]:11: affine=true offset=4*clamp0 loops=clamp0=[lsz0*grp0 + goff0 - 1..lsz0*grp0 + lsz0 - 1 + goff0):1 guards=clamp0 checks="lsz0*grp0 + lid0 + goff0:i32","lsz0*grp0 + lsz0 - 2 + goff0:u63" exact=false must_write=false
	b[gid] = a[max(gid - 1, 0)];
}

// The bound first: the same descriptor.
__kernel void bound_first(__global const float *a, __global float *b, int n)
{
	int gid = get_global_id(0);
// CHECK: footprint bound_first [[@LINE+1]]:11: affine=true offset=4*clamp0 loops=clamp0=[lsz0*grp0 + goff0 - 1..lsz0*grp0 + lsz0 - 1 + goff0):1 guards=clamp0 checks="lsz0*grp0 + lid0 + goff0:i32","lsz0*grp0 + lsz0 - 2 + goff0:u63" exact=false must_write=false
	b[gid] = a[max(0, gid - 1)];
}

// The argument past the bound: gid - n is below the bound 0 in the
// first work-groups, which read 0, inside their hull only while it
// reaches up to 0 (emax - 0 >= 0 below, with emax = grp * lsz + lsz - 1 +
// goff - n).
__kernel void past(__global const float *a, __global float *b, int n)
{
	int gid = get_global_id(0);
// CHECK: footprint past [[@LINE+1]]:11: affine=true offset=4*clamp0 loops=clamp0=[lsz0*grp0 + goff0 - n..lsz0*grp0 + lsz0 - n + goff0):1 guards=clamp0 checks="lsz0*grp0 + lid0 + goff0:i32","lsz0*grp0 + lsz0 - 1 + goff0 - n:u63" exact=false must_write=false
	b[gid] = a[max(gid - n, 0)];
}

// No descriptor: both arguments vary.
__kernel void none(__global const float *a, __global float *b)
{
	int gid = get_global_id(0), lid = get_local_id(0);
// CHECK: footprint none [[@LINE+1]]:11: affine=false reason="a max() of two values that vary at line [[@LINE+1]]"
	b[gid] = a[max(gid, lid)];
}
