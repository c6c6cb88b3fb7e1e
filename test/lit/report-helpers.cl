// "helpers": every function the kernels call, and whether it is cloned (it
// reaches global memory or a work-item function); a pure helper is not
// cloned and is called unchanged from every variant.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c report-helpers.cl -o %t.o | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=GEN %s < %t/report-helpers.vast.cl

float sq(float v) { return v * v; }
uint lane(void) { return get_local_id(0); }
void put(__global float *p, float v) { *p = sq(v); }

__kernel void k(__global float *out)
{
	put(out + get_global_id(0), (float)lane());
}

// CHECK-DAG: helper sq: cloned=false
// CHECK-DAG: helper lane: cloned=true
// CHECK-DAG: helper put: cloned=true

// GEN-NOT: {{sq__vast_[a-z]+}}
// GEN-LABEL: {{^}}void vast_paged_put(vast_ctx *vast_c, __global float *p, float v){{$}}
// GEN: { (*(__global float *)vast_tr(vast_c, (ulong)&(*p))) = sq(v); }
// GEN-LABEL: {{^}}__kernel void vast_paged_k(
// GEN: vast_paged_put(vast_c, out + vast_get_global_id(vast_c, 0), (float)vast_paged_lane(vast_c));
