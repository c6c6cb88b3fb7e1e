// A helper that loads into its caller's private variable through a pointer
// (`ld(&x, p)`) is sliced like the same code inlined: the store through the
// pointer is kept only when a caller's slice needs the variable, so a load
// whose value feeds no address is a touch, not a load of real data. The
// kernel is virtualizable even when it writes the buffer it loads from.
// RUN: cd %S && %vastcc --report=- -c virt-helper-out-param.cl -o %t.o 2>%t.err | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err

inline void ld(float *d, __global float *in) { *d = *in; }

// CHECK-LABEL: kernel same: {{.*}} virtualizable=true merge_exact=true
// CHECK: param same.w: {{.*}} mode=RW {{.*}} inspect_reads=false
// CHECK: access same 9:53: form=deref mode=R size=4 params=w {{.*}} function=ld inspect=touch merge=drop
__kernel void same(__global float *w)
{
	float x;
	ld(&x, w + get_global_id(0));
	w[get_global_id(0)] = x;
}

// CHECK-LABEL: kernel other: {{.*}} virtualizable=true merge_exact=true
// CHECK: param other.r: {{.*}} mode=R {{.*}} inspect_reads=false
// CHECK: access other 9:53: form=deref mode=R size=4 params=r {{.*}} function=ld inspect=touch merge=drop
__kernel void other(__global const float *r, __global float *w)
{
	float x;
	ld(&x, r + get_global_id(0));
	w[get_global_id(0)] = x * 2.0f;
}

// An FFT's shape (SHOC fft1D_512): loops load a private array through a
// pointer parameter, the kernel computes on it (helpers passed element
// addresses, __local memory and barriers), and a loop stores it back to the
// same buffer; no address depends on the data.
inline void loads4(float2 *d, __global float2 *in, int stride)
{
	for (int i = 0; i < 4; i++)
		d[i] = in[i * stride];
}

inline void stores4(float2 *d, __global float2 *out, int stride)
{
	int rev[] = {0, 2, 1, 3};
	for (int i = 0; i < 4; i++)
		out[i * stride] = d[rev[i]];
}

inline void bfly(float2 *a, float2 *b)
{
	float2 t = *a;
	*a = t + *b;
	*b = t - *b;
}

// CHECK-LABEL: kernel fft4: {{.*}} virtualizable=true merge_exact=true
// CHECK: param fft4.work: {{.*}} mode=RW {{.*}} inspect_reads=false
// CHECK: access fft4 38:10: form=subscript mode=R size=8 params=work {{.*}} function=loads4 inspect=touch merge=drop
// CHECK: access fft4 45:3: form=subscript mode=W size=8 params=work {{.*}} function=stores4 inspect=touch merge=copy
__kernel void fft4(__global float2 *work)
{
	int tid = get_local_id(0);
	float2 d[4];
	__local float sm[64 * 4];
	work = work + get_group_id(0) * 256 + tid;
	loads4(d, work, 64);
	bfly(&d[0], &d[2]);
	bfly(&d[1], &d[3]);
	for (int i = 0; i < 4; i++)
		sm[tid * 4 + i] = d[i].x;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int i = 0; i < 4; i++)
		d[i].x = sm[((tid + 1) & 63) * 4 + i];
	barrier(CLK_LOCAL_MEM_FENCE);
	stores4(d, work, 64);
}

// Where the variable does feed an address, the helper's store is kept and
// its load is real: a load of data the kernel writes is still refused.
inline void ldi(int *d, __global const int *in) { *d = *in; }

// CHECK-LABEL: kernel index: {{.*}} virtualizable=true
// CHECK: access index 79:56: form=deref mode=R size=4 params=idx {{.*}} function=ldi inspect=load
__kernel void index(__global const int *idx, __global float *out)
{
	int k;
	ldi(&k, idx + get_global_id(0));
	out[k] = 1.0f;
}

inline void ldw(int *d, __global int *in) { *d = *in; }

// CHECK-LABEL: kernel written: {{.*}} virtualizable=false reason="addresses depend on data the kernel writes"
__kernel void written(__global int *idx, __global float *out)
{
	int k;
	ldw(&k, idx + get_global_id(0));
	out[k] = 1.0f;
	idx[get_global_id(0) + 1] = 0;
}

// WARN-NOT: kernel 'same'
// WARN-NOT: kernel 'other'
// WARN-NOT: kernel 'fft4'
// WARN-NOT: kernel 'index'
// WARN: warning: kernel 'written' cannot be virtualized: addresses depend on data the kernel writes
