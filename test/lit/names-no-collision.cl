// Generated names never collide with the program's: the user's names
// begin with vast_ (a kernel `vast_paged_k` next to `k`, locals named like
// the generated arguments, a kernel named like a prelude function), so
// every added name, the prelude's macros included, takes the prefix
// vast1_ instead, and the stub records it for the runtime. Identifiers in
// comments do not count. test/check.sh builds the emitted program.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t -c names-no-collision.cl -o %t.o
// RUN: FileCheck %s < %t/names-no-collision.vast.cl
// RUN: FileCheck --check-prefix=STUB %s < %t/names-no-collision.vast.c
// A macro named like the prelude's, from the build options, moves it too.
// RUN: rm -rf %t2 && %vastcc --emit-kernels=%t2 --cl-options=-DVAST_VA_SHIFT=3 -c %S/Inputs/vadd.cl -o %t2.o
// RUN: FileCheck --check-prefix=OPT %s < %t2/vadd.vast.cl

__kernel void k(__global float *out)
{
	size_t vast_gsize = get_global_id(0);
	float vast_c = 2.0f, vast_frames = 1.0f;
	int vast_lpt = 3;
	out[vast_gsize] = vast_c + vast_frames + vast_lpt;
}

__kernel void vast_paged_k(__global float *out)
{
	out[get_global_id(0)] = 3.0f;
}

__kernel void init_paged(__global float *out)
{
	out[get_global_id(0)] = 4.0f;
}

// CHECK: {{^}}#define VAST1_VA_SHIFT 44
// CHECK: {{^}}} vast1_ctx;
// CHECK: {{^}}__kernel void vast_paged_k(__global float *out)
// CHECK-LABEL: {{^}}__kernel void vast1_paged_k(ulong vast1_va_out, __global uchar *vast1_frames0,
// CHECK: vast1_init_paged(vast1_c, vast1_lpt,
// CHECK-NEXT: vast1_c->frames[0] = vast1_frames0;
// CHECK: size_t vast_gsize = vast1_get_global_id(vast1_c, 0);
// CHECK: (*(__global float *)vast1_trp(vast1_c, (ulong)&(out[vast_gsize]), vast1_run_out)) = vast_c + vast_frames + vast_lpt;
// CHECK: {{^}}__kernel void vast1_paged_vast_paged_k(
// CHECK: {{^}}__kernel void vast1_paged_init_paged(
// CHECK-NOT: {{[^_]}}vast_init
// STUB: .prefix = "vast1_",
// OPT: {{^}}#define VAST1_VA_SHIFT 44
// OPT: {{^}}__kernel void vast1_paged_vadd(
