__kernel void broken(__global float *a)
{
	int i = get_global_id(0);
	a[i] = undeclared_value;
}
