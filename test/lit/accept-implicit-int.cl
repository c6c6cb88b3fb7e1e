// Implicit int (`const x = 2;`) and an integer initialized from a pointer
// are warnings in the device compilers (PoCL's clang 15), errors by
// default in clang 19: vastcc accepts what the device accepts, and the
// generated program builds (test/check.sh builds every emitted program).
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t -c accept-implicit-int.cl -o %t.o 2>&1 | count 0
// RUN: FileCheck %s < %t/accept-implicit-int.vast.cl
// CHECK: {{^}}__kernel void vast_paged_k(
// CHECK: const x = 2;
__kernel void k(__global float *out)
{
	const x = 2;
	out[get_global_id(0)] = x;
}
