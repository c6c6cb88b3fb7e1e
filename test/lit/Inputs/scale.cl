__kernel void scale(__global float *v, float k)
{
	v[get_global_id(0)] *= k;
}
