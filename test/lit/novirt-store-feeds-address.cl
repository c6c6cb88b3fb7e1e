// A global store whose value feeds an address computation (`b[a[i]++]`)
// cannot be sliced into an inspector: the kernel is not virtualizable, with
// a located warning; the stub marks it native-only and says why.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c novirt-store-feeds-address.cl -o %t.o 2>%t.err | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: FileCheck --check-prefix=STUB %s < %t/novirt-store-feeds-address.vast.c

__kernel void bump(__global int *a, __global int *b)
{
	int i = get_global_id(0);
	b[a[i]++] = 1;
}

// CHECK: kernel bump: line=8 col=1 virtualizable=false reason="a global store feeds an address computation" reason_line=11 reason_col=4
// WARN: novirt-store-feeds-address.cl:11:4: warning: kernel 'bump' cannot be virtualized: a global store feeds an address computation; it runs natively when its data fits
// STUB: { .name = "bump", .nparams = 2,
// STUB: .virtualizable = 0, .reason = "a global store feeds an address computation", .location = "novirt-store-feeds-address.cl:11:4",
