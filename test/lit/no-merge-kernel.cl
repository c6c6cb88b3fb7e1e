// The generated program has no merge kernel (docs/multi.md): a launch split
// over devices merges with a byte diff of the pages two shares may both
// write, exact and memory-bound, where a merge kernel ran the kernel's
// address computations a second time and was compiled for every kernel.
// So no PREFIXmerge_K, no merge clone of a helper, none of the prelude's
// merge helpers (its copy, the destination frame set), and no merge bit
// (4) in the stub's or the JSON's variants (inspect 1 | paged 2 | straight
// 8 = 11, and the paged inspector 16 where it reads buffers). merge_exact
// stays: 0 for a kernel with global atomics, which the runtime keeps on
// one device.
// RUN: rm -rf %t && mkdir -p %t && cd %S && %vastcc --emit-kernels=%t -c no-merge-kernel.cl -o %t.o
// RUN: %vastcc --emit-json=%t/j.json no-merge-kernel.cl
// RUN: FileCheck %s < %t/no-merge-kernel.vast.cl
// RUN: FileCheck --check-prefix=STUB %s < %t/no-merge-kernel.vast.c
// RUN: FileCheck --check-prefix=JSON %s < %t/j.json

int twice(__global const int *p, int i) { return 2 * p[i]; }

__kernel void scale(__global const int *in, __global int *out)
{
	int i = get_global_id(0);
	out[i] = twice(in, i);
}

__kernel void count(__global const int *in, __global int *hist)
{
	atomic_inc(&hist[in[get_global_id(0)] & 15]);
}

// The generated text holds this file, comments and all: no pattern below
// matches itself ({{...}} splits them).
// CHECK-NOT: {{vast_}}copy
// CHECK-NOT: {{vast_}}dst
// CHECK-NOT: {{vast_}}merge_
// CHECK: {{^}}void vast_inspect_twice(vast_ctx
// CHECK: {{^}}int vast_paged_twice(vast_ctx
// CHECK: {{^}}int vast_straight_twice(vast_ctx
// CHECK: {{^}}__kernel void vast_inspect_scale(
// CHECK: {{^}}__kernel void vast_paged_scale(
// CHECK: {{^}}__kernel void vast_straight_scale(
// CHECK: {{^}}__kernel void vast_inspect_count(
// CHECK: {{^}}__kernel void vast_paged_count(
// CHECK: {{^}}__kernel void vast_straight_count(
// CHECK: {{^}}__kernel void vast_pinspect_count(
// CHECK-NOT: {{vast_}}merge_

// STUB-NOT: {{VAST_HAS_}}MERGE
// STUB: {{^}}static const vast_kernel_info
// STUB: {{[.]}}name = "scale"
// STUB: {{[.]}}variants = VAST_HAS_INSPECT | VAST_HAS_PAGED | VAST_HAS_STRAIGHT,
// STUB: {{[.]}}merge_exact = 1,
// STUB: {{[.]}}name = "count"
// STUB: {{[.]}}variants = VAST_HAS_INSPECT | VAST_HAS_PAGED | VAST_HAS_STRAIGHT | VAST_HAS_PINSPECT,
// STUB: {{[.]}}merge_exact = 0,
// STUB-NEXT: {{^}}};

// JSON: "name":{{[[:space:]]*}}"scale"
// JSON: "variants":{{[[:space:]]*}}11,
// JSON: "merge_exact":{{[[:space:]]*}}1,
// JSON: "name":{{[[:space:]]*}}"count"
// JSON: "variants":{{[[:space:]]*}}27,
// JSON: "merge_exact":{{[[:space:]]*}}0,
