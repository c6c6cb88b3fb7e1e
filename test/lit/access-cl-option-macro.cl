// A -D macro from --cl-options is expanded for the analysis: the access it
// spells is found, and the options are recorded in the report and the stub.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --cl-options="-DGET(p,i)=p[i] -DN=4" --report=- -c access-cl-option-macro.cl -o %t.o | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=STUB %s < %t/access-cl-option-macro.vast.c
// RUN: FileCheck --check-prefix=GEN %s < %t/access-cl-option-macro.vast.cl

// CHECK: file access-cl-option-macro.cl cl_options="-DGET(p,i)=p[i] -DN=4"
// CHECK-LABEL: kernel k:
// CHECK: param k.a: {{.*}} mode=R
__kernel void k(__global const float *a, __global float *b)
{
	int i = get_global_id(0);
// CHECK: access k [[@LINE+2]]:2: form=subscript mode=W size=4 params=b
// CHECK: access k [[@LINE+1]]:9: form=subscript mode=R size=4 params=a
	b[i] = GET(a, i * N);
}

// STUB: .cl_options = "-DGET(p,i)=p[i] -DN=4",

// GEN-LABEL: {{^}}__kernel void vast_paged_k(
// GEN: (*(__global float *)vast_trp(vast_c, (ulong)&(b[i]), vast_run_b)) = (*(__global const float *)vast_trp(vast_c, (ulong)&(a[i * 4]), vast_run_a));
