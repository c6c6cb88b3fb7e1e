// Footprint of a column walk (Aᵀx): work-item j reads A[i * ny + j] for
// every row i of a loop bounded by an argument: the offset names the loop
// counter with the argument as its coefficient, the loop its bounds, and
// the guard `j < ny` becomes ny - j - 1 >= 0 on every access under it.
// RUN: cd %S && %vastcc --report=- -c footprint-column-walk.cl -o %t.o | %flatjson | FileCheck %s

__kernel void atx(__global const float *A, __global const float *x, __global float *y,
                  int nx, int ny)
{
	int j = get_global_id(0);
	if (j < ny) {
		float s = 0;
		for (int i = 0; i < nx; i++)
// CHECK: footprint atx [[@LINE+2]]:9: affine=true offset="4*ny*i + 4*lsz0*grp0 + 4*lid0 + 4*goff0" loops=i=[0..nx):1 guards="ny - lsz0*grp0 - lid0 - goff0 - 1" checks={{.*}} exact=true must_write=false
// CHECK: footprint atx [[@LINE+1]]:25: affine=true offset=4*i loops=i=[0..nx):1 guards="ny - lsz0*grp0 - lid0 - goff0 - 1" checks={{.*}} exact=true must_write=false
			s += A[i * ny + j] * x[i];
// CHECK: footprint atx [[@LINE+1]]:3: affine=true offset="4*lsz0*grp0 + 4*lid0 + 4*goff0" loops= guards="ny - lsz0*grp0 - lid0 - goff0 - 1" checks={{.*}} exact=true must_write=true
		y[j] = s;
	}
}
