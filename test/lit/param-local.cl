// A __local pointer parameter is not a buffer: its accesses are not
// reported, it keeps its type in every variant (the runtime sets it with a
// size and NULL), and the barrier stays in the paged kernel.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c param-local.cl -o %t.o | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=GEN %s < %t/param-local.vast.cl

// CHECK-LABEL: kernel reduce:
// CHECK: param reduce.in: index=0 kind=global
// CHECK: param reduce.partial: index=1 kind=global
// CHECK: param reduce.tmp: index=2 kind=local type="__local float *" elem_type=float elem_size=4 mode=none atomic=false pattern=none inspect_reads=false
__kernel void reduce(__global const float *in, __global float *partial, __local float *tmp)
{
	int l = get_local_id(0);
// CHECK: access reduce [[@LINE+1]]:11: form=subscript mode=R size=4 params=in
	tmp[l] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
		if (l < s)
			tmp[l] += tmp[l + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (l == 0)
// CHECK: access reduce [[@LINE+1]]:3: form=subscript mode=W size=4 params=partial
		partial[get_group_id(0)] = tmp[0];
}
// CHECK-NOT: access reduce

// GEN-LABEL: {{^}}__kernel void vast_inspect_reduce(ulong vast_va_in, ulong vast_va_partial, __local float *tmp,
// GEN-LABEL: {{^}}__kernel void vast_paged_reduce(ulong vast_va_in, ulong vast_va_partial, __local float *tmp,
// GEN: tmp[l] = (*(__global const float *)vast_trp(vast_c, (ulong)&(in[vast_get_global_id(vast_c, 0)]), vast_run_in));
// GEN: barrier(CLK_LOCAL_MEM_FENCE);
// GEN: for (int s = vast_get_local_size(vast_c, 0) / 2; s > 0; s >>= 1) {
// GEN: tmp[l] += tmp[l + s];
// GEN: (*(__global float *)vast_trp(vast_c, (ulong)&(partial[vast_get_group_id(vast_c, 0)]), vast_run_partial)) = tmp[0];
