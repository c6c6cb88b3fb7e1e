// An access under a branch on loaded data is indirect even with an affine
// address: which pages it touches depends on the data. The inspector loads
// the condition's data and keeps the branch.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c pattern-indirect-branch.cl -o %t.o | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=INSPECT %s < %t/pattern-indirect-branch.vast.cl

// CHECK-LABEL: kernel masked:
// CHECK: param masked.mask: {{.*}} mode=R {{.*}} pattern=affine inspect_reads=true
// CHECK: param masked.out: {{.*}} mode=W {{.*}} pattern=indirect inspect_reads=false
__kernel void masked(__global const int *mask, __global float *out)
{
	int i = get_global_id(0);
// CHECK: access masked [[@LINE+1]]:6: form=subscript mode=R size=4 params=mask pattern=affine {{.*}} inspect=load
	if (mask[i])
// CHECK: access masked [[@LINE+1]]:3: form=subscript mode=W size=4 params=out pattern=indirect {{.*}} inspect=touch
		out[i] = 1.0f;
}

// INSPECT-LABEL: {{^}}__kernel void vast_inspect_masked(
// INSPECT: if ((*(__global const int *)vast_load(vast_c, (ulong)&(mask[i]), 4)))
// INSPECT: { vast_touch(vast_c, (ulong)&(out[i]), 4); }
