/* Issue 7 item 3: a kernel that requires its work-group size; its result
 * depends on the local id, so a group of another size gives other bytes. */
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void scale(__global const float *a, __global float *out)
{
	int g = get_global_id(0);
	out[g] = a[g] * 2.0f + (float)get_local_id(0);
}
