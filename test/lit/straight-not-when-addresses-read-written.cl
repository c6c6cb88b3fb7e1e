// No straight variant for a kernel whose addresses come from a buffer it
// also writes: its inspector reads that buffer as it was before the
// launch, so only the checked paged kernel (vast_trp, fault word) can
// notice a page the plan missed. The program says why, in a comment where
// the variant would be, and the stub leaves VAST_HAS_STRAIGHT out, so the
// runtime launches the paged kernel for every range.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t -c straight-not-when-addresses-read-written.cl -o %t.o
// RUN: FileCheck %s < %t/straight-not-when-addresses-read-written.vast.cl
// RUN: FileCheck --check-prefix=STUB %s < %t/straight-not-when-addresses-read-written.vast.c

__kernel void chase(__global int *next, __global float *val)
{
	int i = get_global_id(0);
	int j = next[i];
	val[j] += 1.0f;
	next[i] = j + 1;
}

// CHECK-LABEL: {{^}}__kernel void vast_paged_chase(
// CHECK: vast_trp(vast_c, (ulong)&(val[j]), vast_run_val)
// CHECK: {{^}}/* no vast_straight_chase: its addresses depend on a buffer it writes, so only the checked paged kernel can notice a page the inspector missed */
// CHECK-NOT: vast_straight_chase(

// STUB: { .name = "chase",
// STUB: .variants = VAST_HAS_INSPECT | VAST_HAS_PAGED,
