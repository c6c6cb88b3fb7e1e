// Early return and a branch around the store.
__kernel void early(__global const float *in, __global float *out, int n, float thr)
{
	int i = get_global_id(0);
	if (i >= n)
		return;
	float v = in[i] * 2.0f;
	if (i % 2 == 0)
		out[i] = v;
	else
		out[i + 1] = v + thr;
}
