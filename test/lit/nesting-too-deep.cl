// 254 nested parentheses around an access: valid (device compilers take
// 256), but translation adds three levels. The variants of such a kernel,
// and the clones of such a helper and of the kernels calling it, are left
// out: the program builds (test/check.sh), the stub marks the kernels not
// virtualizable with the reason (they run natively), and the other
// kernels keep their variants.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t -c nesting-too-deep.cl -o %t.o
// RUN: FileCheck %s < %t/nesting-too-deep.vast.cl
// RUN: FileCheck --check-prefix=STUB %s < %t/nesting-too-deep.vast.c

__kernel void deep(__global float *out, __global const float *in)
{
	out[get_global_id(0)] = ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((in[get_global_id(0)]))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))));
}

float get(__global const float *p, size_t i)
{
	return ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((p[i]))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))));
}

__kernel void calls_deep(__global float *out, __global const float *in)
{
	out[get_global_id(0)] = get(in, get_global_id(0));
}

__kernel void shallow(__global float *out)
{
	out[get_global_id(0)] = 1.0f;
}

// CHECK-NOT: {{ vast_[a-z]+_(deep|get|calls_deep)\(}}
// CHECK: {{^}}__kernel void vast_paged_shallow(
// STUB: { .name = "deep",
// STUB: .variants = 0,
// STUB-NEXT: .virtualizable = 0, .reason = "its code nests more than 256 parentheses, brackets or braces deep once accesses are translated, more than device compilers accept", .location = "nesting-too-deep.cl:11:1",
// STUB: { .name = "calls_deep",
// STUB: .variants = 0,
// STUB-NEXT: .virtualizable = 0,
// STUB: { .name = "shallow",
// STUB: .variants = VAST_HAS_INSPECT | VAST_HAS_PAGED | VAST_HAS_STRAIGHT,
// STUB-NEXT: .virtualizable = 1,
