// switch/case/default, do-while and early return around accesses survive in
// every variant, and reqd_work_group_size is kept flattened to the 1-D
// launch of whole groups the variants run as (kernel-attributes-kept.cl).
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t -c control-flow-kept.cl -o %t.o
// RUN: FileCheck %s < %t/control-flow-kept.vast.cl

__kernel __attribute__((reqd_work_group_size(8, 8, 1))) void branchy(__global float *a, int n)
{
	size_t i = get_global_id(0);
	if (i >= n)
		return;
	switch (i & 3) {
	case 0: a[0] = 1; break;
	default: a[i] = 2;
	}
	do { a[1] = 3; } while (0);
}

// CHECK: {{^}}__kernel __attribute__((reqd_work_group_size(8, 8, 1))) void branchy(__global float *a, int n)
// CHECK-LABEL: {{^}}__kernel __attribute__((reqd_work_group_size((8) * ( 8) * ( 1), 1, 1))) void vast_inspect_branchy(ulong vast_va_a, int n,
// CHECK: if (i >= n)
// CHECK-NEXT: return;
// CHECK-NEXT: switch (i & 3) {
// CHECK-NEXT: case 0: { vast_touch(vast_c, (ulong)&(a[0]), 4); } break;
// CHECK-NEXT: default: { vast_touch(vast_c, (ulong)&(a[i]), 4); }
// CHECK-NEXT: }
// CHECK-NEXT: do { { vast_touch(vast_c, (ulong)&(a[1]), 4); } } while (0);
// CHECK-LABEL: {{^}}__kernel __attribute__((reqd_work_group_size((8) * ( 8) * ( 1), 1, 1))) void vast_paged_branchy(ulong vast_va_a, int n,
// CHECK: case 0: (*(__global float *)vast_trp(vast_c, (ulong)&(a[0]), vast_run_a)) = 1; break;
