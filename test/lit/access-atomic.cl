// OpenCL 1.1 atomic_* builtins are atomic writes of their pointer argument:
// mode W with "atomic", and the kernel's merge is not exact (no byte merge
// adds two devices' atomic updates).
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c access-atomic.cl -o %t.o | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=PAGED %s < %t/access-atomic.vast.cl

// CHECK-LABEL: kernel histo: {{.*}} virtualizable=true merge_exact=false
// CHECK: param histo.bins: {{.*}} mode=W atomic=true pattern=indirect
// CHECK: param histo.data: {{.*}} mode=R atomic=false pattern=affine inspect_reads=true
// CHECK: param histo.hi: {{.*}} elem_type="volatile uint" {{.*}} mode=W atomic=true
__kernel void histo(__global int *bins, __global const uchar *data, volatile __global uint *hi)
{
	int i = get_global_id(0);
// CHECK: access histo [[@LINE+2]]:2: form=atomic mode=W atomic=true size=4 params=bins pattern=indirect
// CHECK: access histo [[@LINE+1]]:19: form=subscript mode=R size=1 params=data pattern=affine {{.*}} inspect=load
	atomic_inc(&bins[data[i]]);
// CHECK: access histo [[@LINE+1]]:2: form=atomic mode=W atomic=true size=4 params=hi pattern=affine
	atomic_max(hi, (uint)i);
// CHECK: access histo [[@LINE+1]]:2: form=atomic mode=W atomic=true size=4 params=bins pattern=affine
	atomic_cmpxchg(bins, 0, 1);
}

// PAGED-LABEL: {{^}}__kernel void vast_paged_histo(
// PAGED: atomic_inc((__global volatile int *)vast_trp(vast_c, (ulong)(&bins[(*(__global const uchar *)vast_trp(vast_c, (ulong)&(data[i]), vast_run_data))]), vast_run_bins));
// PAGED: atomic_max((__global volatile uint *)vast_trp(vast_c, (ulong)(hi), vast_run_hi), (uint)i);
