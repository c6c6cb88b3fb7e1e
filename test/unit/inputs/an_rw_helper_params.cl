/* One helper, two kernels: the access in the helper reaches a different
 * parameter of each kernel. */
float get(__global const float *p, int i) { return p[i]; }
__kernel void first(__global const float *x, __global float *y)
{ int i = get_global_id(0); y[i] = get(x, i); }
__kernel void second(__global float *a, __global const float *b)
{ a[get_global_id(0)] = get(b, 0) + get(b, 1); }
