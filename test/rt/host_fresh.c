/* SPDX-License-Identifier: MIT */
/*
 * host_fresh.c - buffers made with no host pointer, which the runtime
 * gives a host copy only at first need (issue 8 item 5): whole writes
 * (blocking and not) and whole reads that go straight to and from the
 * device copy, parts read and written there, a launch, then a map (the
 * host copy made then), an ALLOC_HOST_PTR buffer filled through a map,
 * a copy and a fill into buffers never touched, a sub-buffer of a
 * buffer held only on the device, a write on a second queue read on the
 * first, and launches under budgets where the writes no longer fit (the
 * host copy takes them) or where a paged launch brings device copies
 * home. Only bytes the program defined are read, except with FRESH_ZEROS
 * set (step 9). Writes every byte it reads to argv[1]. Usage: host_fresh OUT vadd.cl [OPTIONS]
 */
#include "rt_host.h"

static rt_cl c;
static cl_kernel vadd;
static FILE *out;

enum { N = 1 << 20 }; /* floats: 4 MiB a buffer */

/* z = x + y. */
static void add(cl_mem x, cl_mem y, cl_mem z)
{
	cl_uint n = N;
	CHECK(clSetKernelArg(vadd, 0, sizeof x, &x));
	CHECK(clSetKernelArg(vadd, 1, sizeof y, &y));
	CHECK(clSetKernelArg(vadd, 2, sizeof z, &z));
	CHECK(clSetKernelArg(vadd, 3, sizeof n, &n));
	size_t g = N;
	CHECK(clEnqueueNDRangeKernel(c.q, vadd, 1, NULL, &g, NULL, 0, NULL, NULL));
}

static void read_out(cl_mem m, size_t off, size_t n, void *tmp)
{
	CHECK(clEnqueueReadBuffer(c.q, m, CL_TRUE, off, n, tmp, 0, NULL, NULL));
	rt_write(out, tmp, n);
}

static cl_mem fresh(cl_mem_flags flags)
{
	cl_int err;
	cl_mem m = clCreateBuffer(c.ctx, flags, N * sizeof(float), NULL, &err);
	CHECK(err);
	return m;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	rt_setup(&c, argv[2], argc > 3 ? argv[3] : "-D UNUSED=1");
	out = fopen(argv[1], "wb");
	if (!out)
		return 1;
	size_t bytes = N * sizeof(float);
	float *hx = malloc(bytes), *hy = malloc(bytes), *tmp = malloc(bytes);
	if (!hx || !hy || !tmp)
		return 1;
	for (cl_uint i = 0; i < N; i++) {
		hx[i] = (float)(i % 1000) * 0.5f;
		hy[i] = (float)(i % 77) - 3.0f;
	}
	cl_int err;
	vadd = clCreateKernel(c.prog, "vadd", &err);
	CHECK(err);

	/* 1. A non-blocking whole write, then whole and partial reads. */
	cl_mem x = fresh(CL_MEM_READ_WRITE);
	CHECK(clEnqueueWriteBuffer(c.q, x, CL_FALSE, 0, bytes, hx, 0, NULL, NULL));
	CHECK(clFinish(c.q));
	read_out(x, 0, bytes, tmp);
	read_out(x, 4096 * 3 + 8, 10000, tmp);

	/* 2. A launch into a fresh buffer: read whole, in part, mapped. */
	cl_mem y = fresh(CL_MEM_WRITE_ONLY);
	add(x, x, y);
	read_out(y, 0, bytes, tmp);
	read_out(y, bytes - 4000, 4000, tmp);
	void *p = clEnqueueMapBuffer(c.q, y, CL_TRUE, CL_MAP_READ, 0, bytes, 0, NULL, NULL, &err);
	CHECK(err);
	rt_write(out, p, bytes);
	CHECK(clEnqueueUnmapMemObject(c.q, y, p, 0, NULL, NULL));

	/* 3. A blocking whole write, a part written over it, read back. */
	cl_mem z = fresh(CL_MEM_READ_WRITE);
	CHECK(clEnqueueWriteBuffer(c.q, z, CL_TRUE, 0, bytes, hy, 0, NULL, NULL));
	CHECK(clEnqueueWriteBuffer(c.q, z, CL_TRUE, 1000, 3000, hx, 0, NULL, NULL));
	read_out(z, 0, 8192, tmp);
	add(z, x, y);
	read_out(y, 0, bytes, tmp);
	read_out(z, 0, bytes, tmp);

	/* 4. ALLOC_HOST_PTR, filled through a map that invalidates it. */
	cl_mem w = fresh(CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR);
	p = clEnqueueMapBuffer(c.q, w, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, bytes, 0,
	                       NULL, NULL, &err);
	CHECK(err);
	memcpy(p, hy, bytes);
	CHECK(clEnqueueUnmapMemObject(c.q, w, p, 0, NULL, NULL));
	add(w, x, y);
	read_out(y, 0, bytes, tmp);

	/* 5. A copy and a fill into buffers nobody touched. */
	cl_mem u = fresh(CL_MEM_READ_WRITE), v = fresh(CL_MEM_READ_WRITE);
	CHECK(clEnqueueCopyBuffer(c.q, y, u, 0, 0, bytes, 0, NULL, NULL));
	float half = 0.5f;
	CHECK(clEnqueueFillBuffer(c.q, v, &half, sizeof half, 0, bytes, 0, NULL, NULL));
	add(u, v, z);
	read_out(z, 0, bytes, tmp);
	read_out(u, 12, 4000, tmp);

	/* 6. A sub-buffer of a buffer whose bytes are only on the device. */
	cl_mem s = fresh(CL_MEM_READ_WRITE);
	CHECK(clEnqueueWriteBuffer(c.q, s, CL_TRUE, 0, bytes, hx, 0, NULL, NULL));
	cl_buffer_region r = {1 << 20, 1 << 20};
	cl_mem sub = clCreateSubBuffer(s, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
	CHECK(err);
	read_out(sub, 0, r.size, tmp);
	CHECK(clEnqueueWriteBuffer(c.q, sub, CL_TRUE, 0, 64, hy, 0, NULL, NULL));
	add(s, y, z);
	read_out(z, 0, bytes, tmp);
	CHECK(clReleaseMemObject(sub));

	/* 7. Written whole on a second queue, read on the first. */
	cl_command_queue q2 = clCreateCommandQueue(c.ctx, c.dev, 0, &err);
	CHECK(err);
	cl_mem t = fresh(CL_MEM_READ_WRITE);
	CHECK(clEnqueueWriteBuffer(q2, t, CL_TRUE, 0, bytes, hy, 0, NULL, NULL));
	read_out(t, 0, bytes, tmp);
	add(t, t, y);
	read_out(y, 0, bytes, tmp);

	/* 8. Written whole again after launches, then launched again. */
	CHECK(clEnqueueWriteBuffer(c.q, x, CL_TRUE, 0, bytes, hy, 0, NULL, NULL));
	add(x, z, y);
	read_out(y, 0, bytes, tmp);

	/* 9. vastcc's promise, not OpenCL's: a buffer nobody wrote reads as
	 * zeros (runtime/mem/mem.c), natively and in every range, its host copy
	 * pinned at creation or made later. Only the vastcc build is asked
	 * (FRESH_ZEROS set, fresh_zeros.sh): the plain driver's bytes are its
	 * own. y = 0 + x, and x holds hy since step 8. */
	if (getenv("FRESH_ZEROS")) {
		cl_mem none = fresh(CL_MEM_READ_ONLY);
		add(none, x, y);
		CHECK(clEnqueueReadBuffer(c.q, y, CL_TRUE, 0, bytes, tmp, 0, NULL, NULL));
		const float *sum = tmp;
		for (size_t i = 0; i < N; i++)
			if (sum[i] != hy[i]) {
				fprintf(stderr, "FAIL: element %zu of a buffer nobody wrote reads as %g, not 0\n",
				        i, sum[i] - hy[i]);
				return 1;
			}
		CHECK(clReleaseMemObject(none));
	}

	CHECK(clFinish(c.q));
	CHECK(clReleaseCommandQueue(q2));
	cl_mem all[] = {x, y, z, w, u, v, s, t};
	for (unsigned i = 0; i < sizeof all / sizeof *all; i++)
		CHECK(clReleaseMemObject(all[i]));
	CHECK(clReleaseKernel(vadd));
	free(hx);
	free(hy);
	free(tmp);
	rt_teardown(&c);
	return fclose(out) != 0;
}
