// A buffer with global atomics is W|ATOMIC in the stub, and its kernel's
// merge is marked inexact; a kernel without atomics keeps merge_exact = 1.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t -c mode-atomic-stub.cl -o %t.o
// RUN: FileCheck %s < %t/mode-atomic-stub.vast.c

__kernel void counts(__global const int *keys, __global int *hist)
{
	atomic_add(&hist[keys[get_global_id(0)] & 255], 1);
}

__kernel void plain(__global int *hist)
{
	hist[get_global_id(0)] = 0;
}

// CHECK: { .name = "keys", .kind = VAST_PARAM_GLOBAL, .mode = VAST_MODE_R, .pattern = VAST_PAT_AFFINE, .elem_size = 4, .inspect_reads = 1 },
// CHECK: { .name = "hist", .kind = VAST_PARAM_GLOBAL, .mode = VAST_MODE_W | VAST_MODE_ATOMIC, .pattern = VAST_PAT_INDIRECT, .elem_size = 4, .inspect_reads = 0 },
// CHECK: { .name = "hist", .kind = VAST_PARAM_GLOBAL, .mode = VAST_MODE_W, .pattern = VAST_PAT_AFFINE, .elem_size = 4, .inspect_reads = 0 },
// CHECK: { .name = "counts", .nparams = 2,
// CHECK: .merge_exact = 0, .items_independent = 1 },
// CHECK: { .name = "plain", .nparams = 1,
// CHECK: .merge_exact = 1, .items_independent = 1 },
