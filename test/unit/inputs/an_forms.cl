// Every access form, derived pointers, struct fields, casts, helpers.
typedef struct { float x, y, z; } P3;
float get(__global const float *q, int i) { return q[i]; }
void put(__global float *q, int i, float v) { q[i] = v; }
__kernel void forms(__global float *a, __global P3 *s, __constant float *c,
                    __global int *cnt, __global float4 *v4, __global float *h)
{
	int i = get_global_id(0);
	__global float *d = a + 16;
	float t = *d + d[i] + s->x + s[i].y + c[i] + v4[i].y;
	*(__global int *)a = 1;
	t += vload4(i, h).x + vload_half(i, (__global const half *)h);
	vstore4((float4)(t), i, h);
	atomic_inc(cnt);
	atom_add(&cnt[1], 2);
	a[i] += 1.0f;
	s[i].z = t;
	float *dummy = &t;
	__global float *e = &a[i];
	*e = get(a, i);
	put(h, i, sizeof(a[0]));
}
