// The merge kernel re-computes only the addresses the kernel writes and
// copies those bytes (vast_copy) from the source frames to the destination:
// reads and the computation of stored values are gone.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c merge-copies-writes.cl -o %t.o | %flatjson | FileCheck --check-prefix=REPORT %s
// RUN: FileCheck %s < %t/merge-copies-writes.vast.cl

// REPORT: kernel saxpy: {{.*}} merge_exact=true
// REPORT: access saxpy {{.*}} mode=R {{.*}} params=x {{.*}} merge=drop
// REPORT: access saxpy {{.*}} mode=W {{.*}} params=y {{.*}} merge=copy
// REPORT: access saxpy {{.*}} mode=R {{.*}} params=y {{.*}} merge=drop
// REPORT: access saxpy {{.*}} mode=W {{.*}} params=flags {{.*}} merge=copy
__kernel void saxpy(float a, __global const float *x, __global float *y, __global uchar *flags)
{
	int i = get_global_id(0);
	float v = a * x[i];
	y[i] = v + y[i];
	if (i % 64 == 0)
		flags[i / 64] = 1;
}

// CHECK-LABEL: {{^}}__kernel void vast_merge_saxpy(
// CHECK: int i = vast_get_global_id(vast_c, 0);
// CHECK-NEXT: {{^[[:blank:]]*;$}}
// CHECK-NEXT: { vast_copy(vast_c, (ulong)&(y[i]), 4); }
// CHECK-NEXT: if (i % 64 == 0)
// CHECK-NEXT: { vast_copy(vast_c, (ulong)&(flags[i / 64]), 1); }
// CHECK-NOT: vast_tr(
// CHECK-NOT: x[i]
// CHECK: {{^}}}
