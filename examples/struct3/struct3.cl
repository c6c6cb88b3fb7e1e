/* SPDX-License-Identifier: MIT */
/*
 * c[i] = a[i] x b[i] (cross product) over 12-byte elements: with 4 KiB
 * pages, one element in three straddles a page boundary. Reads go through
 * `->` on derived pointers and `.` on subscripts; writes are per field.
 */
typedef struct { float x, y, z; } vec3;

__kernel void cross3(__global const vec3 *a, __global const vec3 *b,
                     __global vec3 *c, uint n)
{
	uint i = get_global_id(0);
	if (i >= n)
		return;
	__global const vec3 *p = a + i;
	vec3 q = b[i];
	c[i].x = p->y * q.z - p->z * q.y;
	c[i].y = p->z * q.x - p->x * q.z;
	c[i].z = p->x * q.y - p->y * q.x;
}
