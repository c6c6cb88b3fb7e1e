// Footprint loops take their bounds from scalar arguments and outer loop
// counters: `i <= hi` is [lo, hi + 1), `j += 2` a step of 2, and an inner
// loop's bounds may name the outer counter.
// RUN: cd %S && %vastcc --report=- -c footprint-loop-bounds-args.cl -o %t.o | %flatjson | FileCheck %s

__kernel void band(__global const float *a, __global float *out, int lo, int hi, int stride)
{
	int g = get_global_id(0);
	float s = 0;
	for (int i = lo; i <= hi; i++)
		for (int j = i; j < i + 4; j += 2)
// CHECK: footprint band [[@LINE+1]]:9: affine=true offset="4*stride*i + 4*j + 4*lsz0*grp0 + 4*lid0 + 4*goff0" loops=i=[lo..hi + 1):1,j=[i..i + 4):2 guards= checks={{.*}} exact=true must_write=false
			s += a[i * stride + j + g];
	out[g] = s;
}

// A counting-down loop is not of the supported form: an access that names
// its counter has no descriptor.
__kernel void down(__global float *a, int n)
{
	for (int i = n - 1; i >= 0; i--)
// CHECK: footprint down [[@LINE+1]]:3: affine=false reason="'i' changes and is not the counter of a for loop around the access at line [[@LINE+1]]"
		a[i] = 0;
}

// An unsigned comparison is a loop bound only where both sides are never
// negative: `i < m` with i from -2 compares -2 as a huge unsigned value.
__kernel void u(__global float *a, uint m)
{
	for (int i = -2; i < m; i++)
// CHECK: footprint u [[@LINE+1]]:3: affine=false reason="'i' changes and is not the counter of a for loop around the access at line [[@LINE+1]]"
		a[i + 2] = 0;
	for (uint j = 0; j < m; j++)
// CHECK: footprint u [[@LINE+1]]:3: affine=true offset=4*j loops=j=[0..m):1 guards= checks= exact=true must_write=true
		a[j] = 1;
}
