// Pointers stay virtual in the paged kernel: each buffer parameter arrives
// as its virtual base `vast_va_p` and is rebuilt as the original pointer
// type, so pointer arithmetic, comparisons and aliases are unchanged; only
// dereferences go through vast_tr.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t -c paged-virtual-base.cl -o %t.o
// RUN: FileCheck %s < %t/paged-virtual-base.vast.cl

__kernel void walk(__global const float *restrict src, __global float *dst, int n)
{
	__global const float *p = src + get_global_id(0) * n;
	__global const float *end = p + n;
	__global float *q = dst + get_global_id(0);
	float s = 0.0f;
	while (p < end)
		s += *p++;
	*q = s;
}

// CHECK-LABEL: {{^}}__kernel void vast_paged_walk(ulong vast_va_src, ulong vast_va_dst, int n,
// CHECK: const __global float *restrict src = (const __global float *)vast_va_src;
// CHECK-NEXT: __global float *dst = (__global float *)vast_va_dst;
// CHECK: __global const float *p = src + vast_get_global_id(vast_c, 0) * n;
// CHECK-NEXT: __global const float *end = p + n;
// CHECK-NEXT: __global float *q = dst + vast_get_global_id(vast_c, 0);
// CHECK: while (p < end)
// CHECK-NEXT: s += (*(__global const float *)vast_trp(vast_c, (ulong)&(*p++), vast_run_src));
// CHECK-NEXT: (*(__global float *)vast_trp(vast_c, (ulong)&(*q), vast_run_dst)) = s;
