// vload_half/vstore_half[N][_rte] read and write halfs (2 bytes each) and
// convert; vloada_halfN steps by the aligned size (4 for N=3).
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c access-vload-half.cl -o %t.o | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=PAGED %s < %t/access-vload-half.vast.cl

// CHECK-LABEL: kernel halves:
// CHECK: param halves.h: {{.*}} elem_type="const half" elem_size=2 mode=R
// CHECK: param halves.o: {{.*}} elem_type=half elem_size=2 mode=W
__kernel void halves(__global const half *h, __global half *o)
{
	int i = get_global_id(0);
// CHECK: access halves [[@LINE+1]]:12: form=vload mode=R size=2 params=h
	float f = vload_half(i, h);
// CHECK: access halves [[@LINE+1]]:13: form=vload mode=R size=8 params=h
	float4 g = vload_half4(i, h);
// CHECK: access halves [[@LINE+1]]:2: form=vstore mode=W size=2 params=o
	vstore_half_rte(f, i, o);
// CHECK: access halves [[@LINE+1]]:2: form=vstore mode=W size=8 params=o
	vstore_half4(g, i, o);
// CHECK: access halves [[@LINE+1]]:2: form=vstore mode=W size=6 params=o
	vstorea_half3(g.xyz, i, o);
}

// PAGED-LABEL: {{^}}__kernel void vast_paged_halves(
// PAGED: float f = vload_half(0, (__global const half *)vast_trp(vast_c, (ulong)((h) + (size_t)(i) * 1), vast_run_h));
// PAGED: float4 g = vload_half4(0, (__global const half *)vast_trp(vast_c, (ulong)((h) + (size_t)(i) * 4), vast_run_h));
// PAGED: vstore_half_rte(f, 0, (__global half *)vast_trp(vast_c, (ulong)((o) + (size_t)(i) * 1), vast_run_o));
// PAGED: vstore_half4(g, 0, (__global half *)vast_trp(vast_c, (ulong)((o) + (size_t)(i) * 4), vast_run_o));
// PAGED: vstorea_half3(g.xyz, 0, (__global half *)vast_trp(vast_c, (ulong)((o) + (size_t)(i) * 4), vast_run_o));
