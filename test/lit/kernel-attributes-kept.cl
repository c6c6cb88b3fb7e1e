// The kernel attributes of OpenCL C 1.2 §6.7.2 stay on the variants. They
// are launched as a 1-D NDRange of the original work-groups
// (docs/generated-kernels.md), so reqd_work_group_size(X, Y, Z) and
// work_group_size_hint(X, Y, Z) become (X*Y*Z, 1, 1), the local size they
// run with; but the straight variant runs N-D with the original local
// size, and keeps them as written. vec_type_hint is copied. Spellings: before or after the
// return type, __name__ forms, a macro argument. Other attributes are not
// copied. test/check.sh builds the emitted program.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t -c kernel-attributes-kept.cl -o %t.o
// RUN: FileCheck %s < %t/kernel-attributes-kept.vast.cl
#define WX 8

__kernel __attribute__((reqd_work_group_size(WX, 2, 4))) __attribute__((vec_type_hint(float4)))
void k3(__global float *out)
{
	out[get_global_id(0)] = 1.0f;
}

__kernel void __attribute__((__work_group_size_hint__(64, 1, 1), always_inline)) hint(__global float *out)
{
	out[get_global_id(0)] = 2.0f;
}

__kernel void plain(__global float *out)
{
	out[get_global_id(0)] = 3.0f;
}

// CHECK: {{^}}__kernel __attribute__((reqd_work_group_size((8) * ( 2) * ( 4), 1, 1))) __attribute__((vec_type_hint(float4))) void vast_inspect_k3(
// CHECK: {{^}}__kernel __attribute__((reqd_work_group_size((8) * ( 2) * ( 4), 1, 1))) __attribute__((vec_type_hint(float4))) void vast_paged_k3(
// CHECK: {{^}}__kernel __attribute__((reqd_work_group_size(8, 2, 4))) __attribute__((vec_type_hint(float4))) void vast_straight_k3(
// CHECK-NOT: always_inline
// CHECK: {{^}}__kernel __attribute__((work_group_size_hint((64) * ( 1) * ( 1), 1, 1))) void vast_paged_hint(
// CHECK: {{^}}__kernel __attribute__((__work_group_size_hint__(64, 1, 1))) void vast_straight_hint(
// CHECK: {{^}}__kernel void vast_paged_plain(
