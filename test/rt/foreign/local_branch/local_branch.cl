/* Issue 7 item 2: which global access runs depends on __local data that
 * other work-items of the group wrote before a barrier. */
__kernel void k(__global const float *a, __global const int *idx, __global float *out,
                __global float *out2, int n) {
  /* Launched with a NULL local size too: room for any group PoCL may
   * choose (CL_DEVICE_MAX_WORK_GROUP_SIZE 4096), or s[l] races. */
  __local float s[4096];
  int g = get_global_id(0), l = get_local_id(0);
  if (g < n) {
    s[l] = a[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (s[l] < 0.5f) out[g] = 1.0f;
    else out2[idx[g]] += 2.0f;
  }
}

/* The same, but each work-item branches on its neighbour's element. */
__kernel void k_neighbour(__global const float *a, __global const int *idx,
                          __global float *out, __global float *out2, int n) {
  __local float s[256];
  int g = get_global_id(0), l = get_local_id(0);
  int L = get_local_size(0);
  s[l] = g < n ? a[g] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (g < n) {
    if (s[(l + 1) % L] < 0.5f) out[g] = 3.0f;
    else out2[idx[g]] += 5.0f;
  }
}
