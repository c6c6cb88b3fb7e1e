// Footprint of a row walk: out[i] and in[i] with i = get_global_id(0) are
// one element per work-item, the id unfolded into group, local id and
// offset (OpenCL C 6.15.1); the unconditional store is a must-write, the
// load is not.
// RUN: cd %S && %vastcc --report=- -c footprint-row-walk.cl -o %t.o | %flatjson | FileCheck %s

__kernel void scale(__global const float *in, __global float *out, float k)
{
	size_t i = get_global_id(0);
// CHECK: footprint scale [[@LINE+2]]:2: affine=true offset="4*lsz0*grp0 + 4*lid0 + 4*goff0" loops= guards= checks={{.*}} exact=true must_write=true
// CHECK: footprint scale [[@LINE+1]]:11: affine=true offset="4*lsz0*grp0 + 4*lid0 + 4*goff0" loops= guards= checks={{.*}} exact=true must_write=false
	out[i] = in[i] * k;
}

// A read-modify-write (x[i] += ..) writes every byte it touches too.
__kernel void bump(__global int2 *x)
{
// CHECK: footprint bump [[@LINE+1]]:2: affine=true offset="8*lsz0*grp0 + 8*lid0 + 8*goff0" loops= guards= checks={{.*}} exact=true must_write=true
	x[get_global_id(0)] += (int2)(1, 2);
}

// A store to one component of a vector element writes only part of it.
__kernel void part(__global float4 *v)
{
// CHECK: footprint part [[@LINE+1]]:2: affine=true offset="16*lsz0*grp0 + 16*lid0 + 16*goff0" loops= guards= checks={{.*}} exact=true must_write=false
	v[get_global_id(0)].y = 0;
}
