// A counter declared once and counting several loops in turn (PolyBench's
// gramschmidt_kernel3: `int i;` for two loops, the id shifted by a scalar
// argument, `j = get_global_id(0) + (k + 1)`) is each loop's counter inside
// that loop. After a loop, or in a value taken before it, it is not: there
// the access has no descriptor. Nor is it a counter of a loop whose body
// assigns it (an inner loop counting with it too).
// RUN: cd %S && %vastcc --report=- -c footprint-loop-shared-counter.cl -o %t.o | %flatjson | FileCheck %s

__kernel void gs3(__global float *a, __global float *r, __global const float *q, int k, int m,
                  int n)
{
	int j = get_global_id(0) + (k + 1);
	if ((j < n)) {
		r[k * n + j] = 0.0f;
		int i;
		for (i = 0; i < m; i++)
// CHECK: footprint gs3 [[@LINE+3]]:4: affine=true offset="4*n*k + 4*lsz0*grp0 + 4*lid0 + 4*goff0 + 4*k + 4" loops=i=[0..m):1 guards="n - lsz0*grp0 - lid0 - goff0 - k - 2" checks="lsz0*grp0 + lid0 + goff0 + k + 1:i32" exact=true must_write=true
// CHECK: footprint gs3 [[@LINE+2]]:20: affine=true offset="4*n*i + 4*k" loops=i=[0..m):1 guards="n - lsz0*grp0 - lid0 - goff0 - k - 2" checks="lsz0*grp0 + lid0 + goff0 + k + 1:i32" exact=true must_write=false
// CHECK: footprint gs3 [[@LINE+1]]:35: affine=true offset="4*n*i + 4*lsz0*grp0 + 4*lid0 + 4*goff0 + 4*k + 4" loops=i=[0..m):1 {{.*}} exact=true must_write=false
			r[k * n + j] += q[i * n + k] * a[i * n + j];
		for (i = 0; i < m; i++)
// CHECK: footprint gs3 [[@LINE+1]]:4: affine=true offset="4*n*i + 4*lsz0*grp0 + 4*lid0 + 4*goff0 + 4*k + 4" loops=i=[0..m):1 {{.*}} exact=true must_write=true
			a[i * n + j] -= q[i * n + k] * r[k * n + j];
	}
}

__kernel void after(__global float *a, int n)
{
	int i;
	for (i = 0; i < n; i++)
// CHECK: footprint after [[@LINE+1]]:3: affine=true offset=4*i loops=i=[0..n):1 guards= checks= exact=true must_write=true
		a[i] = 0;
// CHECK: footprint after [[@LINE+1]]:2: affine=false reason="'i' changes and is not the counter of a for loop around the access at line [[@LINE+1]]"
	a[i] = 1;
	int x = i;
	for (i = 0; i < n; i++)
// CHECK: footprint after [[@LINE+1]]:3: affine=false reason="'i' changes and is not the counter of a for loop around the access at line [[@LINE-2]]"
		a[x + i] = 2;
	for (i = 0; i < n; i++)
		for (i = 0; i < 2; i++)
// CHECK: footprint after [[@LINE+1]]:4: affine=true offset=4*i loops=i=[0..2):1 guards= checks= exact=false must_write=false
			a[i] = 3;
}
