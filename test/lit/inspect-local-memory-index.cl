// An index staged through __local memory still feeds an address: the
// inspector keeps the global load (from its data argument), the __local
// store and the barrier around it.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c inspect-local-memory-index.cl -o %t.o | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=INSPECT %s < %t/inspect-local-memory-index.vast.cl

// CHECK-LABEL: kernel rotate:
// CHECK: param rotate.idx: {{.*}} mode=R {{.*}} inspect_reads=true
// CHECK: param rotate.x: {{.*}} mode=W {{.*}} pattern=indirect inspect_reads=false
__kernel void rotate(__global const int *idx, __global float *x, __local int *t)
{
	int l = get_local_id(0);
	t[l] = idx[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	x[t[(l + 1) % get_local_size(0)]] = 1.0f;
}

// INSPECT-LABEL: {{^}}__kernel void vast_inspect_rotate(
// INSPECT-SAME: __global uchar *vast_data_idx)
// INSPECT: t[l] = (*(__global const int *)vast_load(vast_c, (ulong)&(idx[vast_get_global_id(vast_c, 0)]), 4));
// INSPECT-NEXT: barrier(CLK_LOCAL_MEM_FENCE);
// INSPECT-NEXT: { vast_touch(vast_c, (ulong)&(x[t[(l + 1) % vast_get_local_size(vast_c, 0)]]), 4); }
