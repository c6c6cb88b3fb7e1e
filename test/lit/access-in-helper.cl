// Accesses inside a helper the kernel calls count for the kernel's
// parameters (through the helper's pointer parameter), and the helper is
// cloned per variant with the context as first argument.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c access-in-helper.cl -o %t.o | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=GEN %s < %t/access-in-helper.vast.cl

// CHECK-LABEL: kernel k:
// CHECK: param k.out: {{.*}} mode=W
// CHECK: access k [[@LINE+3]]:2: form=subscript mode=W size=4 params=out {{.*}} function=store inspect=touch merge=copy
void store(__global float *p, int i, float v)
{
	p[i] = v;
}

__kernel void k(__global float *out, float v)
{
	store(out, get_global_id(0), v);
}
// CHECK: helper store: cloned=true

// GEN-LABEL: {{^}}void vast_paged_store(vast_ctx *vast_c, __global float *p, int i, float v)
// GEN: (*(__global float *)vast_tr(vast_c, (ulong)&(p[i]))) = v;
// GEN-LABEL: {{^}}__kernel void vast_paged_k(
// GEN: vast_paged_store(vast_c, out, vast_get_global_id(vast_c, 0), v);
