/* SPDX-License-Identifier: MIT */
/*
 * triad - a = b + s * c over N uints per array (default 1M, 12 MB in all;
 * N a multiple of 4), with 64-bit indices: the workload that goes past
 * the GPU's memory (bench/README.md). usage: triad [-o OUT] [-q] [N]
 *
 * The program holds one host copy of its data: the three buffers are
 * CL_MEM_ALLOC_HOST_PTR, filled and checked through maps, and the check
 * recomputes a in chunks of CHUNK elements, so 96 GiB of arrays fit a
 * host of 128 GiB. Prints `triad: bytes=B seconds=S`, S being the unmaps
 * of b and c, the kernel and the map of a; a must equal the host's
 * computation byte for byte. OUT receives a's raw bytes.
 */
#include "vast_example.h"

#define CHUNK (1u << 20)
#define SCALE 3u

/* Inputs are a hash of the index: nothing to keep but the arrays. */
static cl_uint input(cl_ulong i, cl_ulong seed)
{
	cl_ulong x = (i ^ seed) * 0x9e3779b97f4a7c15ull;
	return (cl_uint)(x >> 32) ^ (cl_uint)x;
}

static void *map(vex_cl *cl, cl_mem m, cl_map_flags flags, size_t bytes)
{
	cl_int err;
	void *p = clEnqueueMapBuffer(cl->queue, m, CL_TRUE, flags, 0, bytes, 0, NULL, NULL, &err);
	CHECK_ERR(err, "clEnqueueMapBuffer");
	return p;
}

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 1, .sizes = { 1u << 20 } };
	vex_parse_args(&a, argc, argv, "[N]");
	cl_ulong n = a.sizes[0], n4 = n / 4;
	if (n % 4)
		vex_die("N must be a multiple of 4");
	size_t bytes = (size_t)n * sizeof(cl_uint);

	vex_cl cl;
	vex_init(&cl, a.quiet);
	char *path = vex_kernel_path(a.argv0, "triad.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel k = vex_kernel(prog, "triad");
	cl_mem_flags host = CL_MEM_ALLOC_HOST_PTR;
	cl_mem da = vex_buffer(&cl, CL_MEM_WRITE_ONLY | host, bytes, NULL);
	cl_mem db = vex_buffer(&cl, CL_MEM_READ_ONLY | host, bytes, NULL);
	cl_mem dc = vex_buffer(&cl, CL_MEM_READ_ONLY | host, bytes, NULL);
	cl_uint s = SCALE;
	VEX_ARG(k, 0, da);
	VEX_ARG(k, 1, db);
	VEX_ARG(k, 2, dc);
	VEX_ARG(k, 3, s);
	VEX_ARG(k, 4, n4);

	/* OpenCL 1.2 §5.4.2: a map for writing that invalidates the region
	 * need not bring the old contents. */
	cl_uint *hb = map(&cl, db, CL_MAP_WRITE_INVALIDATE_REGION, bytes);
	cl_uint *hc = map(&cl, dc, CL_MAP_WRITE_INVALIDATE_REGION, bytes);
	for (cl_ulong i = 0; i < n; i++) {
		hb[i] = input(i, 1);
		hc[i] = input(i, 2);
	}

	size_t local = 256, global = (n4 + local - 1) / local * local;
	double t = vex_now();
	CHECK(clEnqueueUnmapMemObject(cl.queue, db, hb, 0, NULL, NULL));
	CHECK(clEnqueueUnmapMemObject(cl.queue, dc, hc, 0, NULL, NULL));
	CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
	cl_uint *ha = map(&cl, da, CL_MAP_READ, bytes);
	t = vex_now() - t;

	/* The check, CHUNK elements at a time against the inputs recomputed:
	 * the host holds the arrays once, plus one chunk. */
	cl_uint *want = vex_malloc((size_t)CHUNK * sizeof *want);
	cl_ulong bad = n;
	cl_uint got = 0;
	for (cl_ulong i0 = 0; i0 < n && bad == n; i0 += CHUNK) {
		size_t m = n - i0 < CHUNK ? (size_t)(n - i0) : CHUNK;
		for (size_t j = 0; j < m; j++)
			want[j] = input(i0 + j, 1) + SCALE * input(i0 + j, 2);
		if (memcmp(ha + i0, want, m * sizeof *want))
			for (size_t j = 0; j < m && bad == n; j++)
				if (ha[i0 + j] != want[j]) {
					bad = i0 + j;
					got = ha[bad];
				}
	}
	vex_write_output(a.out, ha, bytes);
	printf("triad: n=%llu bytes=%zu seconds=%.6f GBps=%.2f\n", (unsigned long long)n,
	       3 * bytes, t, 3 * (double)bytes / t / 1e9);
	CHECK(clEnqueueUnmapMemObject(cl.queue, da, ha, 0, NULL, NULL));
	CHECK(clFinish(cl.queue));

	clReleaseMemObject(da);
	clReleaseMemObject(db);
	clReleaseMemObject(dc);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	vex_release(&cl);
	free(path);
	free(want);
	if (bad != n) {
		fprintf(stderr, "triad: FAILED: a[%llu] = %u, want %u\n", (unsigned long long)bad,
		        got, input(bad, 1) + SCALE * input(bad, 2));
		return 1;
	}
	if (!a.quiet)
		fprintf(stderr, "triad: ok\n");
	return 0;
}
