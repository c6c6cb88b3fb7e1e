// An access inside a user macro and one inside a build-option macro.
#define AT(p, i) (p)[(i)]
__kernel void mac(__global float *a, __global float *b)
{
	int i = get_global_id(0);
	AT(a, i) = LOADB(i) + SCALE;
}
