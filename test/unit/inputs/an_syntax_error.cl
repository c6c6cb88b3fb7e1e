// A syntax error: the analysis reports it and returns NULL.
__kernel void broken(__global float *a)
{
	a[0] = ;
}
