/* Array-syntax parameters, a pointer typedef, array fields of structs. */
__kernel void arr(__global const float b[], __global float *out, __constant long c[4])
{
	int i = get_global_id(0);
	out[i] = b[i] + vload2(0, b + i).y + (float)c[1];
}

typedef __global float *fptr;
__kernel void tdef(fptr a)
{
	a[get_global_id(0)] = 0.0f;
}

typedef struct { float arr[4]; int n; } rec;
__kernel void field(__global rec *s, __global float *o)
{
	int i = get_global_id(0);
	o[i] = s[i].arr[2];
	s[i].arr[i & 3] = 1.0f;
}

__kernel void priv(__global float *o)
{
	rec r;
	r.arr[0] = 1.0f;
	o[get_global_id(0)] = r.arr[0];
}
