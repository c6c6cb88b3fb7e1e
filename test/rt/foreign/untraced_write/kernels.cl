/* A kernel that picks its output buffer through an integer: vastcc cannot
 * trace the pointer, so it must treat both buffers as written (issue 7,
 * item 1). */
__kernel void pick(__global float *a, __global float *b, int which)
{
	size_t i = get_global_id(0);
	ulong base = which ? (ulong)b : (ulong)a;
	__global float *p = (__global float *)base;
	p[i] = (float)i * 0.25f;
}
