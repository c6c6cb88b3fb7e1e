// Access modes: a read is R, a store W, a compound assignment or ++/-- is
// one RW access; a parameter's mode joins its accesses'.
// RUN: cd %S && %vastcc --emit-kernels=%t --report=- -c mode-read-write.cl -o %t.o | %flatjson | FileCheck %s

// CHECK-LABEL: kernel modes:
// CHECK: param modes.r: {{.*}} mode=R atomic=false
// CHECK: param modes.w: {{.*}} mode=W atomic=false
// CHECK: param modes.rw: {{.*}} mode=RW atomic=false
// CHECK: param modes.inc: {{.*}} mode=RW atomic=false
// CHECK: param modes.both: {{.*}} mode=RW atomic=false
// CHECK: param modes.unused: {{.*}} mode=none atomic=false pattern=none
__kernel void modes(__global const int *r, __global int *w, __global int *rw,
                    __global int *inc, __global int *both, __global int *unused)
{
	int i = get_global_id(0);
// CHECK: access modes [[@LINE+2]]:2: form=subscript mode=W size=4 params=w
// CHECK: access modes [[@LINE+1]]:9: form=subscript mode=R size=4 params=r
	w[i] = r[i];
// CHECK: access modes [[@LINE+1]]:2: form=subscript mode=RW size=4 params=rw {{.*}} merge=copy
	rw[i] *= 3;
// CHECK: access modes [[@LINE+1]]:2: form=subscript mode=RW size=4 params=inc
	inc[i]++;
// CHECK: access modes [[@LINE+1]]:4: form=subscript mode=RW size=4 params=inc
	--inc[i + 1];
// CHECK: access modes [[@LINE+2]]:2: form=subscript mode=W size=4 params=both
// CHECK: access modes [[@LINE+1]]:16: form=subscript mode=R size=4 params=both
	both[i + 1] = both[i];
}
