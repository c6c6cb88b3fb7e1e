// Kernels in the style of the AMD/NVIDIA SDK samples.
#define BLOCK 16
#define AS(i, j) As[(j) * BLOCK + (i)]
#define BS(i, j) Bs[(j) * BLOCK + (i)]

__kernel void matrixMul(__global float *C, __global float *A, __global float *B,
                        __local float *As, __local float *Bs, int uiWA, int uiWB)
{
	int bx = get_group_id(0), by = get_group_id(1);
	int tx = get_local_id(0), ty = get_local_id(1);
	int aBegin = uiWA * BLOCK * by;
	int aEnd = aBegin + uiWA - 1;
	int aStep = BLOCK;
	int bBegin = BLOCK * bx;
	int bStep = BLOCK * uiWB;
	float Csub = 0.0f;
	for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
		AS(tx, ty) = A[a + uiWA * ty + tx];
		BS(tx, ty) = B[b + uiWB * ty + tx];
		barrier(CLK_LOCAL_MEM_FENCE);
		for (int k = 0; k < BLOCK; ++k)
			Csub += AS(k, ty) * BS(tx, k);
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	C[get_global_id(1) * get_global_size(0) + get_global_id(0)] = Csub;
}

__kernel void histogram256(__global const uchar4 *data, __global uint *hist, uint n)
{
	uint i = get_global_id(0);
	if (i < n) {
		uchar4 v = data[i];
		atomic_inc(&hist[v.x]);
		atomic_inc(hist + v.y);
		atomic_add(&hist[v.z], 1u);
		atom_inc(&hist[v.w]);
	}
}

__kernel void nbody(__global float4 *pos, __global float4 *vel, __global float4 *newPos,
                    int numBodies, float dt, float eps, __local float4 *sh)
{
	int gid = get_global_id(0), lid = get_local_id(0), ls = get_local_size(0);
	float4 p = pos[gid];
	float4 acc = (float4)(0.0f);
	for (int tile = 0; tile < numBodies / ls; tile++) {
		sh[lid] = pos[tile * ls + lid];
		barrier(CLK_LOCAL_MEM_FENCE);
		for (int j = 0; j < ls; j++) {
			float4 r = sh[j] - p;
			float d = rsqrt(r.x * r.x + r.y * r.y + r.z * r.z + eps);
			acc += r * (sh[j].w * d * d * d);
		}
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	float4 v = vel[gid];
	newPos[gid] = p + v * dt + acc * 0.5f * dt * dt;
	vel[gid] = v + acc * dt;
}

__constant float kx[9] = { -1, 0, 1, -2, 0, 2, -1, 0, 1 };

__kernel void sobel(__global const uchar4 *in, __global uchar4 *out, int w, int h)
{
	int x = get_global_id(0), y = get_global_id(1);
	if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1)
		return;
	float4 gx = (float4)(0.0f);
	for (int j = -1; j <= 1; j++)
		for (int i = -1; i <= 1; i++)
			gx += convert_float4(in[(y + j) * w + x + i]) * kx[(j + 1) * 3 + i + 1];
	out[y * w + x] = convert_uchar4_sat(fabs(gx) / 2.0f);
}

__kernel void bitonicSort(__global uint *a, const uint stage, const uint pass, const uint dir)
{
	uint id = get_global_id(0);
	uint dist = 1 << (stage - pass);
	uint left = (id % dist) + (id / dist) * 2 * dist;
	uint right = left + dist;
	uint l = a[left], r = a[right];
	uint up = ((id / (1 << stage)) % 2 == 1) ? 1 - dir : dir;
	uint greater = l > r ? l : r, lesser = l > r ? r : l;
	a[left] = up ? lesser : greater;
	a[right] = up ? greater : lesser;
}

__kernel void prefixSum(__global float *out, __global const float *in, __local float *t, uint n)
{
	int thid = get_local_id(0);
	int offset = 1;
	t[2 * thid] = in[2 * thid];
	t[2 * thid + 1] = in[2 * thid + 1];
	for (int d = n >> 1; d > 0; d >>= 1) {
		barrier(CLK_LOCAL_MEM_FENCE);
		if (thid < d) {
			int ai = offset * (2 * thid + 1) - 1, bi = offset * (2 * thid + 2) - 1;
			t[bi] += t[ai];
		}
		offset *= 2;
	}
	if (thid == 0)
		t[n - 1] = 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	out[2 * thid] = t[2 * thid];
	out[2 * thid + 1] = t[2 * thid + 1];
}
