// An element that is itself a global pointer (`__global float *__global
// *p`): the translated access's cast keeps the element's own address
// space after its '*', so the paged variant builds.
// RUN: rm -rf %t && cd %S && %vastcc --emit-kernels=%t -c access-pointer-to-pointer.cl -o %t.o 2>/dev/null
// RUN: FileCheck %s < %t/access-pointer-to-pointer.vast.cl
float get(__global float * __global *p, size_t i)
{
	return p[i][0];
}
__kernel void k(__global float *buf, __global float *out)
{
	size_t i = get_global_id(0);
	__global float * __global *pp = (__global float * __global *)buf;
	out[i] = get(pp, i);
}
// CHECK-LABEL: vast_paged_get(vast_ctx *vast_c,
// CHECK: (*(__global float * __global *)vast_tr(vast_c, (ulong)&(p[i])))
