/* Outputs written only in part: a guarded tail and a shifted window. The
 * bytes no work-item writes must keep the values the host put there. */
__kernel void tail(__global const float *a, __global float *out, int n)
{
	int i = get_global_id(0);
	if (i < n)
		out[i] = a[i] * 2.0f;
}

__kernel void shifted(__global const float *a, __global float *out, int off, int n)
{
	int i = get_global_id(0);
	if (i < n)
		out[i + off] = a[i] + 1.0f;
}
