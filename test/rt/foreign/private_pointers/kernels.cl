/* Pointers kept where vastcc used to lose them (issue 7, items 1, 11). */

/* a pointer held in a private array of pointers */
__kernel void ptr_array(__global float *a)
{
	__global float *ptrs[1] = { a };
	size_t i = get_global_id(0);
	ptrs[0][i] = 5.0f + (float)(i % 7);
}

/* a pointer to rows of 4: writes one float in four (sparse pages) */
__kernel void ptr_to_array(__global float *a)
{
	__global float (*m)[4] = (__global float (*)[4])a;
	m[get_global_id(0)][2] = -1.0f - (float)(get_global_id(0) % 5);
}

/* a private struct, passed by pointer to a helper that uses a field as
 * the index of a store and advances it */
struct W { int next; };

int save(struct W *w, __global int *out, int v)
{
	out[w->next] = v;
	w->next += get_global_size(0);
	return w->next;
}

__kernel void walker(__global const int *in, __global int *out)
{
	struct W w;
	w.next = get_global_id(0);
	for (int i = 0; i < 4; i++)
		save(&w, out, in[get_global_id(0)] + i);
}
