// A loop that waits on global memory other work-groups write (a spin lock,
// the counter or flag of a hand-made grid barrier) cannot run in paged
// ranges, which run a launch's groups a range at a time: the kernel is
// refused, and the reason says so whatever else the analysis finds. A
// compare-and-swap retry loop, or an atomic_inc handing out work, is no
// wait.
// RUN: cd %S && %vastcc --report=- -c novirt-spin.cl -o %t.o 2>%t.err | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err

// CHECK-LABEL: kernel lock:
// CHECK-SAME: virtualizable=false reason="spins on a global mutex or flag ('mutex', atomic_cmpxchg): work-groups wait for each other, which paged ranges cannot run" reason_line=[[@LINE+7]] reason_col=3
// WARN: novirt-spin.cl:[[@LINE+6]]:3: warning: kernel 'lock' cannot be virtualized: spins on a global mutex or flag ('mutex', atomic_cmpxchg): work-groups wait for each other, which paged ranges cannot run; it runs natively when its data fits
__kernel void lock(__global int *mutex, __global int *count, __global float *x)
{
	int i = get_global_id(0);
	x[i] += 1.0f;
	if (get_local_id(0) == 0) {
		while (atomic_cmpxchg(mutex, 0, 1) != 0)
			;
		*count += 1;
		atomic_xchg(mutex, 0);
	}
	x[x[i] > 0.0f ? i : 0] *= 2.0f;
}

// CHECK-LABEL: kernel grid:
// CHECK-SAME: reason="spins on a global mutex or flag ('count', atomic_add): {{.*}}" reason_line=[[@LINE+7]] reason_col=3
__kernel void grid(__global int *count, __global float *x, int ngroups)
{
	int i = get_global_id(0);
	x[i] += 1.0f;
	if (get_local_id(0) == 0) {
		atomic_inc(count);
		while (atomic_add(count, 0) < ngroups)
			;
	}
	barrier(CLK_GLOBAL_MEM_FENCE);
	x[i] *= 2.0f;
}

// CHECK-LABEL: kernel flag:
// CHECK-SAME: reason="spins on a global mutex or flag ('flag', a volatile load): {{.*}}" reason_line=[[@LINE+6]] reason_col=2
__kernel void flag(__global volatile int *flag, __global float *x)
{
	int i = get_global_id(0);
	if (i == 0)
		*flag = 1;
	while (*flag == 0)
		;
	x[i] = 1.0f;
}

// CHECK-LABEL: kernel poll:
// CHECK-SAME: reason="spins on a global mutex or flag ('done', atomic_or): {{.*}}" reason_line=[[@LINE+5]] reason_col=2
__kernel void poll(__global int *done, __global float *x)
{
	int v;
	x[get_global_id(0)] = 1.0f;
	do
		v = atomic_or(done, 0);
	while (!v);
}

inline void fadd(__global float *p, float v)
{
	union { float f; uint u; } o, n;
	do {
		o.f = *p;
		n.f = o.f + v;
	} while (atomic_cmpxchg((__global uint *)p, o.u, n.u) != o.u);
}

// CHECK-LABEL: kernel retry:
// CHECK-NOT: spins
// CHECK-SAME: {{$}}
__kernel void retry(__global const float *x, __global float *h)
{
	fadd(&h[0], x[get_global_id(0)]);
}

// CHECK-LABEL: kernel queue:
// CHECK-NOT: spins
// CHECK-SAME: {{$}}
__kernel void queue(__global int *next, __global float *x, int n)
{
	int t;
	while ((t = atomic_inc(next)) < n)
		x[t] = 1.0f;
}
