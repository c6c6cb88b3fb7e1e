// The paged kernel loads each buffer parameter's run once, after
// vast_init_paged, and an access in the kernel that the analysis proves
// reaches one buffer translates through it (vast_trp); an access in a helper
// (whose pointer may come from any caller) keeps vast_tr.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t -c paged-hoisted-run.cl -o %t.o
// RUN: FileCheck %s < %t/paged-hoisted-run.vast.cl

float pick(__global const float *p, int i) { return p[i]; }

__kernel void scale(__global const float *in, __global float *out,
                    __local float *tmp, float k, int n)
{
	int i = get_global_id(0);
	__global const float *row = in + i * n;
	out[i] = k * row[0] + pick(in, i);
}

// CHECK-LABEL: {{^}}float vast_paged_pick(vast_ctx *vast_c, __global const float *p, int i)
// CHECK: { return (*(__global const float *)vast_tr(vast_c, (ulong)&(p[i]))); }
// CHECK-LABEL: {{^}}__kernel void vast_paged_scale(
// CHECK: vast_init_paged(vast_c, vast_lpt, vast_fault, vast_page_shift, vast_gsize, vast_lsize, vast_goff, vast_first_group);
// CHECK-NEXT: vast_c->frames[0] = vast_frames0;
// CHECK-NEXT: vast_prun vast_run_in = vast_run(vast_c, vast_va_in);
// CHECK-NEXT: vast_prun vast_run_out = vast_run(vast_c, vast_va_out);
// CHECK-NOT: vast_run_tmp
// CHECK: (*(__global float *)vast_trp(vast_c, (ulong)&(out[i]), vast_run_out)) = k * (*(__global const float *)vast_trp(vast_c, (ulong)&(row[0]), vast_run_in)) + vast_paged_pick(vast_c, in, i);
