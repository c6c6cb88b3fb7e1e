// A helper called from two kernels: its access is reported under each
// kernel and sets the mode of the parameter each passes, and it is cloned
// once per variant. (The access's "params" list: report-helper-access-params.cl.)
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t --report=- -c helper-two-kernels.cl -o %t.o | %flatjson | FileCheck %s
// RUN: FileCheck --check-prefix=GEN %s < %t/helper-two-kernels.vast.cl

float get(__global const float *p, int i)
{
	return p[i];
}

// CHECK-LABEL: kernel first:
// CHECK: param first.x: {{.*}} mode=R
// CHECK: param first.y: {{.*}} mode=W
// CHECK: access first {{[0-9]+}}:9: form=subscript mode=R size=4 params={{.*}} function=get
__kernel void first(__global const float *x, __global float *y)
{
	int i = get_global_id(0);
	y[i] = get(x, i);
}

// CHECK-LABEL: kernel second:
// CHECK: param second.a: {{.*}} mode=W
// CHECK: param second.b: {{.*}} mode=R
// CHECK: access second {{[0-9]+}}:9: form=subscript mode=R size=4 params={{.*}} function=get
__kernel void second(__global float *a, __global const float *b)
{
	a[get_global_id(0)] = get(b, 0) + get(b, 1);
}
// CHECK: helper get: cloned=true
// CHECK-NOT: helper get

// One set of clones, shared by both kernels' variants.
// GEN: {{^}}void vast_inspect_get(vast_ctx *vast_c, __global const float *p, int i){{$}}
// GEN: {{^}}float vast_paged_get(vast_ctx *vast_c, __global const float *p, int i){{$}}
// GEN-NOT: {{^}}{{.*}} get__vast_{{[a-z]+}}(vast_ctx *vast_c, __global const float *p, int i){{$}}
// GEN: {{^}}__kernel void vast_paged_first(
// GEN: vast_paged_get(vast_c, x, i);
// GEN: {{^}}__kernel void vast_paged_second(
// GEN: vast_paged_get(vast_c, b, 0) + vast_paged_get(vast_c, b, 1);
