// The stub holds each kernel's footprints (vast/stub.h): per access its
// parameters, mode, size, offset and guards as index ranges into one term
// table per kernel, and a reason where there is no descriptor.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t -c footprint-stub-table.cl -o %t.o
// RUN: FileCheck %s < %t/footprint-stub-table.vast.c

__kernel void k(__global float *a, __global const int *b, int n)
{
	int i = get_global_id(0);
	if (i < n)
		a[i] = a[b[i]];
}

// CHECK: {{^}}static const vast_fp_term vast_stub_fpterms_[[SFX:[0-9a-f]+]]_0[] = {
// a[i]: 4 * (group * size + local + offset)
// CHECK-NEXT: { 4ll, VAST_FP_NAME(VAST_FP_GROUP, 0), { VAST_FP_NAME(VAST_FP_LOCAL_SIZE, 0), VAST_FP_ONE, VAST_FP_ONE } },
// CHECK-NEXT: { 4ll, VAST_FP_NAME(VAST_FP_LOCAL, 0), { VAST_FP_ONE, VAST_FP_ONE, VAST_FP_ONE } },
// CHECK-NEXT: { 4ll, VAST_FP_ONE, { VAST_FP_NAME(VAST_FP_GLOBAL_OFFSET, 0), VAST_FP_ONE, VAST_FP_ONE } },
// its guard: n - i - 1 >= 0
// CHECK-NEXT: { 1ll, VAST_FP_ONE, { VAST_FP_NAME(VAST_FP_ARG, 2), VAST_FP_ONE, VAST_FP_ONE } },
// CHECK-NEXT: { -1ll, VAST_FP_NAME(VAST_FP_GROUP, 0), { VAST_FP_NAME(VAST_FP_LOCAL_SIZE, 0), VAST_FP_ONE, VAST_FP_ONE } },
// CHECK-NEXT: { -1ll, VAST_FP_NAME(VAST_FP_LOCAL, 0), { VAST_FP_ONE, VAST_FP_ONE, VAST_FP_ONE } },
// CHECK-NEXT: { -1ll, VAST_FP_ONE, { VAST_FP_NAME(VAST_FP_GLOBAL_OFFSET, 0), VAST_FP_ONE, VAST_FP_ONE } },
// CHECK-NEXT: { -1ll, VAST_FP_ONE, { VAST_FP_ONE, VAST_FP_ONE, VAST_FP_ONE } },
// CHECK: {{^}}static const vast_fp_form vast_stub_fpguards_[[SFX]]_0[] = {
// CHECK-NEXT: { 3, 5 },
// `int i = get_global_id(0)` converts to 32 bits: one check
// CHECK: {{^}}static const vast_fp_check vast_stub_fpchecks_[[SFX]]_0[] = {
// CHECK-NEXT: { { 8, 3 }, -32 },
// CHECK: {{^}}static const vast_footprint vast_stub_fps_[[SFX]]_0[] = {
// CHECK-NEXT: { .params = 0x1u, .mode = VAST_MODE_W, .size = 4, .affine = 1, .reason = NULL,
// CHECK-NEXT: .offset = { 0, 3 }, .first_loop = 0, .nloops = 0, .first_guard = 0, .nguards = 1,
// CHECK-NEXT: .first_check = 0, .nchecks = 1, .noffset_checks = 0, .exact = 1, .must_write = 1 },
// a[b[i]]: no descriptor, its reason instead
// CHECK-NEXT: { .params = 0x1u, .mode = VAST_MODE_R, .size = 4, .affine = 0, .reason = "a value loaded from memory at line 11",
// CHECK: {{^}}static const vast_kernel_footprints vast_stub_footprints_[[SFX]][] = {
// CHECK-NEXT: { 3, vast_stub_fps_[[SFX]]_0, vast_stub_fpterms_[[SFX]]_0, NULL, vast_stub_fpguards_[[SFX]]_0, vast_stub_fpchecks_[[SFX]]_0 },
// CHECK: .footprints = vast_stub_footprints_[[SFX]],
