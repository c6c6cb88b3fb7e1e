// clamp(e, lo, hi) with lo and hi fixed for the launch (OpenCL C 6.15.4)
// is a new variable over the hull of e for one work-group, guarded by
// lo <= clamp <= hi: a superset (exact=false), valid where the hull meets
// [lo, hi], which checks over the whole range assert (`:u63`, >= 0);
// where they fail, the host plans the launch with the inspector. The hull
// takes `i % d` as [0, d - 1] and `i / d` from i's constant bounds:
// the SDK filters' tile-and-halo loop reads the group's 18 x 18 pixels.
// RUN: cd %S && %vastcc --report=- -c footprint-clamp.cl -o %t.o | %flatjson | FileCheck %s

#define TILE 16
#define TW (TILE + 2)
__kernel void halo(__global const uint *in, __global uint *out, uint w, uint h)
{
	__local uint tile[TW][TW];
	int lx = get_local_id(0), ly = get_local_id(1);
	int x0 = get_group_id(0) * TILE - 1, y0 = get_group_id(1) * TILE - 1;
	for (int i = ly * TILE + lx; i < TW * TW; i += TILE * TILE) {
		int gx = clamp(x0 + i % TW, 0, (int)w - 1);
		int gy = clamp(y0 + i / TW, 0, (int)h - 1);
// CHECK: footprint halo [[@LINE+1]]:26: affine=true offset="4*w*clamp1 + 4*clamp2" loops=i=[16*lid1 + lid0..324):256,clamp1=[16*grp1 - 1..16*grp1 + 17):1,clamp2=[16*grp0 - 1..16*grp0 + 17):1 guards=clamp1,"h - 1 - clamp1",clamp2,"w - 1 - clamp2" checks=lid1:i32,lid0:i32,"16*grp1 - 1:i32","16*grp1 + 16:u63","h - 16*grp1:u63","h - 1:u63","16*grp0 - 1:i32","16*grp0 + 16:u63","w - 16*grp0:u63","w - 1:u63" exact=false must_write=false
		tile[i / TW][i % TW] = in[(size_t)gy * w + gx];
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	out[get_global_id(1) * w + get_global_id(0)] = tile[ly + 1][lx + 1];
}

// A 1-D neighbour, clamped at the edges: the hull of gid - 1 over the
// work-group is [grp*lsz + goff - 1, grp*lsz + lsz + goff - 2]; the
// conversion of gid to int is checked over the whole range too.
__kernel void left(__global const float *a, __global float *b, int n)
{
	int gid = get_global_id(0);
// CHECK: footprint left [[@LINE+1]]:11: affine=true offset=4*clamp0 loops=clamp0=[lsz0*grp0 + goff0 - 1..lsz0*grp0 + lsz0 - 1 + goff0):1 guards=clamp0,"n - 1 - clamp0" checks="lsz0*grp0 + lid0 + goff0:i32","lsz0*grp0 + lsz0 - 2 + goff0:u63","n - goff0 - lsz0*grp0:u63","n - 1:u63" exact=false must_write=false
	b[gid] = a[clamp(gid - 1, 0, n - 1)];
}

// No descriptor: a bound that varies, a hull whose sign vastcc cannot
// tell (n * lid: n may be negative), a quotient of a value whose bounds
// are not constants.
__kernel void none(__global const float *a, __global float *b, int n)
{
	int gid = get_global_id(0), lid = get_local_id(0);
// CHECK: footprint none [[@LINE+1]]:11: affine=false reason="a clamp() whose bounds vary at line [[@LINE+1]]"
	b[gid] = a[clamp(gid, 0, gid)];
// CHECK: footprint none [[@LINE+1]]:12: affine=false reason="a value whose bounds vastcc cannot tell (a symbol of unknown sign) at line [[@LINE+1]]"
	b[gid] += a[clamp(n * lid, 0, n)];
// CHECK: footprint none [[@LINE+1]]:12: affine=false reason="a quotient of a value with bounds that are not constants at line [[@LINE+1]]"
	b[gid] += a[clamp(gid / 4, 0, n)];
}

// A clamp() in a loop bound is not one: the loop is only a condition.
__kernel void bound(__global float *a, int n)
{
	for (int i = 0; i < clamp(n, 0, 8); i++)
// CHECK: footprint bound [[@LINE+1]]:3: affine=false reason="'i' changes and is not the counter of a for loop around the access at line [[@LINE+1]]"
		a[i] = 0;
}
