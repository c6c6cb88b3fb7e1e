// An index computed in a type narrower than 64 bits wraps where its affine
// form does not (unsigned: C99 6.2.5p9; a narrowing conversion: 6.3.1.3):
// every such operation or conversion is a check, a form that must stay in
// its type's range (u32: [0, 2^32), i32: [-2^31, 2^31)) for the
// descriptor to hold; the host refuses the descriptor otherwise. So is a
// conversion between int and uint, which keeps the value only where it is
// in both types' ranges (an int argument to a uint parameter: `x - k`
// with x < k is 2^32 - (k - x) as a uint), but of a scalar argument alone,
// which the host takes only where it reads the same as either.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c footprint-narrow-wrap.cl -o %t.o | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=STUB %s < %t/footprint-narrow-wrap.vast.c

__kernel void w(__global float *a, uint n)
{
	uint x = get_global_id(0);
// CHECK: footprint w [[@LINE+1]]:2: affine=true offset="4*lsz0*n*grp0 + 4*n*lid0 + 4*goff0*n + 4" loops= guards= checks="lsz0*grp0 + lid0 + goff0:u32","lsz0*n*grp0 + n*lid0 + goff0*n:u32","lsz0*n*grp0 + n*lid0 + goff0*n + 1:u32" exact=true must_write=true
	a[x * n + 1] = 0;
// CHECK: footprint w [[@LINE+1]]:2: affine=true offset="4*lsz0*grp0 + 4*lid0 + 4*goff0" loops= guards= checks="lsz0*grp0 + lid0 + goff0:i32" exact=true must_write=true
	a[(int)get_global_id(0)] = 1;
// 64-bit arithmetic has no check.
// CHECK: footprint w [[@LINE+1]]:2: affine=true offset="8*lsz0*grp0 + 8*lid0 + 8*goff0" loops= guards= checks= exact=true must_write=true
	a[get_global_id(0) * 2] = 2;
}

__kernel void s(__global float *a, int k, uint m)
{
	int x = get_global_id(0);
	uint u = x - k;
// CHECK: footprint s [[@LINE+1]]:2: affine=true offset="4*lsz0*grp0 + 4*lid0 + 4*goff0 - 4*k" loops= guards= checks="lsz0*grp0 + lid0 + goff0:i32","lsz0*grp0 + lid0 + goff0 - k:u32" exact=true must_write=true
	a[u] = 0;
// CHECK: footprint s [[@LINE+1]]:2: affine=true offset=4*m loops= guards= checks= exact=true must_write=true
	a[(int)m] = 1;
}

// STUB: {{^}}static const vast_fp_check vast_stub_fpchecks_[[SFX:[0-9a-f]+]]_0[] = {
// STUB-NEXT: { 
// STUB-SAME: , 32 },
// STUB: , -32 },
// STUB: .first_check = 0, .nchecks = 3, .noffset_checks = 3,
// STUB: .first_check = 3, .nchecks = 1, .noffset_checks = 1,
// STUB: .first_check = 0, .nchecks = 0, .noffset_checks = 0,
