// Every generated function is preceded by a #line directive to the user's
// file (as named on the command line), and the body continues with the
// user's line numbers, so a device compiler's error points at the source.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t -c line-directives.cl -o %t.o
// RUN: FileCheck %s < %t/line-directives.vast.cl
// RUN: mkdir -p %t/sub && cd %S && %vastcc --emit-kernels=%t/sub -c ./line-directives.cl -o %t.o
// RUN: FileCheck --check-prefix=DOTSLASH %s < %t/sub/line-directives.vast.cl

float twice(float v) { return 2.0f * v; }

void put(__global float *p, float v)
{
	*p = twice(v);
}

__kernel void k(__global float *out)
{
	put(out + get_global_id(0), 1.0f);
}

// The original program starts at line 1 of the user's file.
// CHECK: {{^}}#line 1 "line-directives.cl"{{$}}
// CHECK-LABEL: {{^}}/* vastcc: helper clones */
// CHECK: {{^}}#line 11 "line-directives.cl"{{$}}
// CHECK-NEXT: {{^}}void vast_inspect_put(vast_ctx *vast_c, __global float *p, float v);
// CHECK: {{^}}void vast_straight_put(vast_ctx *vast_c, __global float *p, float v);
// CHECK-NEXT: {{^}}#line 11 "line-directives.cl"{{$}}
// CHECK-NEXT: {{^}}void vast_inspect_put(vast_ctx *vast_c, __global float *p, float v){{$}}
// CHECK-NEXT: {{^}}#line 12 "line-directives.cl"{{$}}
// CHECK-NEXT: {{^}}{{{$}}
// CHECK-LABEL: {{^}}/* vastcc: kernel variants */
// CHECK-NEXT: {{^}}#line 16 "line-directives.cl"{{$}}
// CHECK-NEXT: {{^}}__kernel void vast_inspect_k(
// CHECK: {{^}}#line 17 "line-directives.cl"{{$}}
// CHECK: {{^}}#line 16 "line-directives.cl"{{$}}
// CHECK-NEXT: {{^}}__kernel void vast_paged_k(
// CHECK: {{^}}#line 16 "line-directives.cl"{{$}}
// CHECK-NEXT: {{^}}__kernel void vast_straight_k(
// CHECK-NOT: {{^}}#line {{.*}}/{{.*}}line-directives.cl

// DOTSLASH: {{^}}#line 16 "./line-directives.cl"{{$}}
// DOTSLASH-NEXT: {{^}}__kernel void vast_inspect_k(
