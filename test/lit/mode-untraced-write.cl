// A write through a pointer vastcc cannot trace (here rebuilt from an
// integer) may change any __global buffer of the kernel: every one is RW
// for the runtime, so that its native run brings all of them back, and
// the kernel is not virtualizable, with the location of the write
// (issue 7, item 1). A __constant buffer cannot be written: it stays R.
// RUN: rm -rf %t && cd %S && %vastcc --report=- -c mode-untraced-write.cl -o %t.o 2>%t.err | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err

// CHECK-LABEL: kernel scatter:
// CHECK-SAME: virtualizable=false reason="a pointer to global memory is converted to an integer" reason_line=[[@LINE+9]] reason_col=15
// CHECK: param scatter.a: {{.*}} mode=RW
// CHECK: param scatter.b: {{.*}} mode=RW
// CHECK: param scatter.c: {{.*}} mode=R
// CHECK: param scatter.n: {{.*}} mode=none
// WARN: mode-untraced-write.cl:[[@LINE+4]]:15: warning: kernel 'scatter' cannot be virtualized: a pointer to global memory is converted to an integer
__kernel void scatter(__global float *a, __global float *b, __constant float *c, int n)
{
	int i = get_global_id(0);
	ulong addr = (ulong)a + (ulong)(i * n) * sizeof(float);
	__global float *p = (__global float *)addr;
// CHECK: access scatter [[@LINE+1]]:2: form=subscript mode=W size=4 params=b
	b[i] = c[0];
// CHECK: access scatter [[@LINE+1]]:2: form=deref mode=W size=4 params=a,b
	*p = 1.0f;
}
