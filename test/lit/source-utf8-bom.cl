// A UTF-8 byte-order mark at the start of the file is accepted, as clang
// and PoCL accept it, on the path that skips the preprocessor (no
// directive in the file) too; the generated program does not carry it.
// RUN: rm -rf %t && mkdir -p %t && printf '\357\273\277' > %t/bom.cl
// RUN: sed -n '/^__kernel/,$p' %s >> %t/bom.cl
// RUN: cd %t && %vastcc --emit-kernels=%t/gen -c bom.cl -o %t/bom.o 2>&1 | count 0
// RUN: FileCheck %s < %t/gen/bom.vast.cl
// CHECK: {{^}}#line 1 "bom.cl"
// CHECK-NEXT: {{^}}__kernel void k(
// CHECK: {{^}}__kernel void vast_paged_k(
__kernel void k(__global float *out)
{
	out[get_global_id(0)] = 1.0f;
}
