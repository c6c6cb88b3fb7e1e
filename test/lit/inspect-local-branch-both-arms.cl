// Issue 7 item 2: an `if` on __local data is not computed by the inspector
// (that would need the group's __local stores and a barrier under a
// branch): it marks the pages of both arms. The __local store and the
// barrier go, and `a` is no longer read. A branch that defines a variable
// an address needs is still computed, with its stores and barrier.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c inspect-local-branch-both-arms.cl -o %t.o | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=INSPECT %s < %t/inspect-local-branch-both-arms.vast.cl

// CHECK-LABEL: kernel k:
// CHECK: param k.a: {{.*}} pattern=affine inspect_reads=false
// CHECK: param k.idx: {{.*}} inspect_reads=true
__kernel void k(__global const float *a, __global const int *idx, __global float *out,
                __global float *out2, int n)
{
	__local float s[256];
	int g = get_global_id(0), l = get_local_id(0);
	if (g < n) {
		s[l] = a[g];
		barrier(CLK_LOCAL_MEM_FENCE);
		if (s[l] < 0.5f) out[g] = 1.0f;
		else out2[idx[g]] += 2.0f;
	}
}

// CHECK-LABEL: kernel pick:
// CHECK: param pick.a: {{.*}} inspect_reads=true
__kernel void pick(__global const float *a, __global float *out)
{
	__local float s[256];
	int g = get_global_id(0), l = get_local_id(0), j = g;
	s[l] = a[g];
	barrier(CLK_LOCAL_MEM_FENCE);
	if (s[(l + 1) % 256] < 0.5f)
		j = 0;
	out[j] = 1.0f;
}

// INSPECT-LABEL: {{^}}__kernel void vast_inspect_k(
// INSPECT-NOT: vast_data_a
// INSPECT: if (g < n) {
// INSPECT-NEXT: { vast_touch(vast_c, (ulong)&(a[g]), 4); }
// INSPECT-NEXT: ;
// INSPECT-NEXT: { vast_touch(vast_c, (ulong)&(out[g]), 4); vast_touch(vast_c, (ulong)&(out2[(*(__global const int *)vast_load(vast_c, (ulong)&(idx[g]), 4))]), 4); }
// INSPECT-LABEL: {{^}}__kernel void vast_inspect_pick(
// INSPECT: s[l] = (*(__global const float *)vast_load(vast_c, (ulong)&(a[g]), 4));
// INSPECT-NEXT: barrier(CLK_LOCAL_MEM_FENCE);
// INSPECT-NEXT: if (s[(l + 1) % 256] < 0.5f)
// INSPECT-NEXT: j = 0;
// INSPECT-NEXT: { vast_touch(vast_c, (ulong)&(out[j]), 4); }
