/* A loop under #pragma unroll (an AttributedStmt) is still a for loop:
 * its counter is an induction variable and the pragma stays with it. */
__kernel void unrolled(__global const float *in, __global float *out, int n)
{
	int i = get_global_id(0);
	int j;
#pragma unroll
	for (j = 0; j < 4; j++)
		out[i + j * n] = in[i + j * n];
	float s = 0.0f;
#pragma unroll 2
	for (int k = 0; k < 8; k++)
		s += k;
	out[i] = s;
}
