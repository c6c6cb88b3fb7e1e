// A loop bound may be an affine function of the ids and of outer
// counters: PolyBench's covar_kernel walks from its own column to the end,
// `for (j2 = j1; j2 < m + 1; j2++)` with j1 = get_global_id(0) + 1, a
// triangle per work-item. The descriptor is exact; the host takes the hull
// of such a loop over a range of groups (a superset: docs/footprints.md).
// RUN: cd %S && %vastcc --report=- -c footprint-loop-bound-id.cl -o %t.o | %flatjson | FileCheck %s

__kernel void covar(__global float *symmat, __global const float *data, int m, int n)
{
	int j1 = get_global_id(0) + 1;
	int i, j2;
	if ((j1 >= 1) && (j1 < (m + 1))) {
		for (j2 = j1; j2 < (m + 1); j2++) {
// CHECK: footprint covar [[@LINE+1]]:4: affine=true offset="4*lsz0*m*grp0 + 4*m*lid0 + 4*goff0*m + 4*m + 4*lsz0*grp0 + 4*lid0 + 4*goff0 + 4 + 4*j2" loops=j2=[lsz0*grp0 + lid0 + goff0 + 1..m + 1):1 guards="lsz0*grp0 + lid0 + goff0","m - goff0 - lsz0*grp0 - lid0 - 1" checks="lsz0*grp0 + lid0 + goff0 + 1:i32" exact=true must_write=true
			symmat[j1 * (m + 1) + j2] = 0.0f;
			for (i = 1; i < (n + 1); i++)
// CHECK: footprint covar [[@LINE+1]]:59: affine=true offset="4*m*i + 4*i + 4*j2" loops=j2=[lsz0*grp0 + lid0 + goff0 + 1..m + 1):1,i=[1..n + 1):1 {{.*}} exact=true must_write=false
				symmat[j1 * (m + 1) + j2] += data[i * (m + 1) + j1] * data[i * (m + 1) + j2];
// CHECK: footprint covar [[@LINE+1]]:4: affine=true offset="4*m*j2 + 4*j2 + 4*lsz0*grp0 + 4*lid0 + 4*goff0 + 4" loops=j2=[lsz0*grp0 + lid0 + goff0 + 1..m + 1):1 {{.*}} exact=true must_write=true
			symmat[j2 * (m + 1) + j1] = symmat[j1 * (m + 1) + j2];
		}
	}
}
