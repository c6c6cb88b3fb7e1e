// An access in a helper is described in the kernel's terms where the
// helper is called from one place: its parameters stand for the call's
// arguments (C99 6.5.2.2p4), and the loops and ifs around the call are
// around the access. A load into an out-parameter (`ld(&x, w + gid)`), an
// FFT's loop of strided loads into a private array through a buffer
// parameter the kernel moved once (SHOC fft1D_512's `work = work +
// blockIdx;` and globalLoads8), a helper calling a helper inside the
// kernel's loop and if, and a store through a uint parameter (a check that
// the int argument stays in its range).
// RUN: cd %S && %vastcc --report=- -c footprint-helper.cl -o %t.o | %flatjson | FileCheck %s

// CHECK: footprint outparam [[@LINE+1]]:59: affine=true offset="4*lsz0*grp0 + 4*lid0 + 4*goff0" loops= guards= checks= exact=true must_write=false
inline void ld(float *d, __global const float *in) { *d = *in; }

__kernel void outparam(__global const float *w, __global float *o)
{
	float x;
	ld(&x, w + get_global_id(0));
	o[get_global_id(0)] = x;
}

inline void loads8(float2 *data, __global float2 *in, int stride)
{
	for (int i = 0; i < 8; i++)
// CHECK: footprint fft [[@LINE+1]]:13: affine=true offset="4096*grp0 + 8*lid0 + 512*i" loops=i=[0..8):1 guards= checks=lid0:i32,"512*grp0 + lid0:i32" exact=true must_write=false
		data[i] = in[i * stride];
}

inline void stores8(float2 *data, __global float2 *out, int stride)
{
	for (int i = 0; i < 8; i++)
// CHECK: footprint fft [[@LINE+1]]:3: affine=true offset="4096*grp0 + 8*lid0 + 512*i" loops=i=[0..8):1 guards= checks=lid0:i32,"512*grp0 + lid0:i32" exact=true must_write=true
		out[i * stride] = data[i];
}

__kernel void fft(__global float2 *work)
{
	int tid = get_local_id(0);
	int blockIdx = get_group_id(0) * 512 + tid;
	float2 data[8];
	work = work + blockIdx;
	loads8(data, work, 64);
	stores8(data, work, 64);
}

// CHECK: footprint nested [[@LINE+1]]:60: affine=true offset="4*lsz0*grp0 + 4*lid0 + 4*goff0 + 8*k" loops=k=[0..4):1 guards="n - lsz0*grp0 - lid0 - goff0 - 1" checks="lsz0*grp0 + lid0 + goff0:i32" exact=true must_write=false
inline float get2(__global const float *p, int k) { return p[2 * k]; }
inline float sum4(__global const float *p, int n) { float s = 0; for (int k = 0; k < 4; k++) s += get2(p, k); return s; }
// CHECK: footprint nested [[@LINE+1]]:54: affine=true offset="4*lsz0*grp0 + 4*lid0 + 4*goff0 + 4*n" loops= guards= checks="lsz0*grp0 + lid0 + goff0:i32","lsz0*grp0 + lid0 + goff0 + n:u32" exact=true must_write=true
inline void st(__global float *p, uint i, float v) { p[i] = v; }

__kernel void nested(__global const float *a, __global float *out, int n)
{
	int g = get_global_id(0);
	float x = 0.0f;
	if (g < n)
		x = sum4(a + g, n);
	st(out, g + n, x);
}

// A helper that may return before its access: a superset, not exact.
// CHECK: footprint early [[@LINE+1]]:64: affine=true offset="4*lsz0*grp0 + 4*lid0 + 4*goff0" loops= guards= checks={{.*}} exact=false must_write=false
inline void set(__global float *p, int i) { if (i % 2) return; p[i] = 0; }

__kernel void early(__global float *a)
{
	set(a, get_global_id(0));
}

// A pointer moved twice, the second time under an if: no descriptor.
__kernel void moved(__global float *a, int n)
{
	a = a + get_group_id(0) * 64;
	if (n > 0)
		a = a + 1;
// CHECK: footprint moved [[@LINE+1]]:2: affine=false reason="pointer 'a' is assigned or its address taken at line [[@LINE+1]]"
	a[get_local_id(0)] = 0;
}
