/* SPDX-License-Identifier: MIT */
/*
 * host_fill.c - the ways of creating, filling and reading back buffers
 * (issue 8 item 5), with defined behaviour only (OpenCL 1.2 §5.2.1,
 * §5.2.2, §5.4.2): the runtime gives a buffer a host copy only when it
 * needs one and sends whole writes straight to the device copy, so every
 * path between "no host copy yet" and "host copy current" is crossed:
 *   1. buffers written whole (blocking and not), a launch, reads whole
 *      and in part: no host copy needed (rt/fill_host_copies stops here,
 *      RT_FILL_NATIVE_ONLY=1, and checks VAST_STATS says none was made);
 *   2. a map for reading after a launch wrote the buffer;
 *   3. a buffer written in two parts, the first into nothing but zeros;
 *   4. a sub-buffer of a buffer whose bytes are only on the device;
 *   5. copies and fills from and into buffers with no host copy;
 *   6. CL_MEM_ALLOC_HOST_PTR filled through a write mapping;
 *   7. a write on one queue, the launch and read on another;
 *   8. COPY_HOST_PTR, then a write of the whole buffer over a launch's
 *      result.
 * Under budgets below the data (diff.sh) writes that do not fit take the
 * host copy and launches page: paged launches read what was written to
 * device copies. Writes every byte it reads to argv[1].
 * Usage: host_fill OUT vadd.cl [OPTIONS]
 */
#include "rt_host.h"

static rt_cl c;
static cl_kernel vadd;
static FILE *out;

static void add_on(cl_command_queue q, cl_mem x, cl_mem y, cl_mem z, cl_uint n)
{
	CHECK(clSetKernelArg(vadd, 0, sizeof x, &x));
	CHECK(clSetKernelArg(vadd, 1, sizeof y, &y));
	CHECK(clSetKernelArg(vadd, 2, sizeof z, &z));
	CHECK(clSetKernelArg(vadd, 3, sizeof n, &n));
	size_t g = n;
	CHECK(clEnqueueNDRangeKernel(q, vadd, 1, NULL, &g, NULL, 0, NULL, NULL));
}

static void add(cl_mem x, cl_mem y, cl_mem z, cl_uint n)
{
	add_on(c.q, x, y, z, n);
}

static void write_read(cl_mem m, size_t off, size_t n, void *tmp)
{
	CHECK(clEnqueueReadBuffer(c.q, m, CL_TRUE, off, n, tmp, 0, NULL, NULL));
	rt_write(out, tmp, n);
}

static void write_mapped(cl_mem m, size_t off, size_t n)
{
	cl_int err;
	void *p = clEnqueueMapBuffer(c.q, m, CL_TRUE, CL_MAP_READ, off, n, 0, NULL, NULL, &err);
	CHECK(err);
	rt_write(out, p, n);
	CHECK(clEnqueueUnmapMemObject(c.q, m, p, 0, NULL, NULL));
}

static cl_mem buffer(cl_mem_flags f, size_t bytes, void *ptr)
{
	cl_int err;
	cl_mem m = clCreateBuffer(c.ctx, f, bytes, ptr, &err);
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
	const char *only = getenv("RT_FILL_NATIVE_ONLY");
	cl_uint n = 1u << 20; /* 4 MiB per buffer: one fits a 6 MiB budget */
	size_t bytes = n * sizeof(float);
	float *ha = malloc(bytes), *hb = malloc(bytes), *tmp = malloc(bytes);
	if (!ha || !hb || !tmp)
		return 1;
	for (cl_uint i = 0; i < n; i++) {
		ha[i] = (float)i * 0.25f;
		hb[i] = (float)(i % 1000) * 0.5f;
	}
	cl_int err;
	vadd = clCreateKernel(c.prog, "vadd", &err);
	CHECK(err);

	/* 1. Written whole, a launch, read back whole and in part. */
	cl_mem a = buffer(CL_MEM_READ_ONLY, bytes, NULL);
	cl_mem b = buffer(CL_MEM_READ_ONLY, bytes, NULL);
	cl_mem z = buffer(CL_MEM_WRITE_ONLY, bytes, NULL);
	CHECK(clEnqueueWriteBuffer(c.q, a, CL_FALSE, 0, bytes, ha, 0, NULL, NULL));
	CHECK(clEnqueueWriteBuffer(c.q, b, CL_TRUE, 0, bytes, hb, 0, NULL, NULL));
	add(a, b, z, n);
	write_read(z, 0, bytes, tmp);
	write_read(z, 4 * 4321, 4 * 999, tmp);
	write_read(a, 0, bytes, tmp);
	if (only && !strcmp(only, "1"))
		goto done;

	/* 2. A map for reading of what a launch wrote. */
	add(z, b, z, n);
	write_mapped(z, 0, bytes);
	write_mapped(z, bytes / 2, bytes / 4);

	/* 3. Two halves, the first into a buffer nobody wrote; the second
	 * over what a launch left on the device. */
	cl_mem d = buffer(CL_MEM_READ_WRITE, bytes, NULL);
	CHECK(clEnqueueWriteBuffer(c.q, d, CL_TRUE, 0, bytes / 2, hb, 0, NULL, NULL));
	CHECK(clEnqueueWriteBuffer(c.q, d, CL_TRUE, bytes / 2, bytes / 2, ha, 0, NULL, NULL));
	add(d, a, d, n);
	CHECK(clEnqueueWriteBuffer(c.q, d, CL_TRUE, bytes / 4, bytes / 2, hb, 0, NULL, NULL));
	add(d, d, z, n);
	write_read(d, 0, bytes, tmp);
	write_read(z, 0, bytes, tmp);

	/* 4. A sub-buffer of a buffer whose bytes only a launch made. */
	cl_mem e = buffer(CL_MEM_READ_WRITE, bytes, NULL);
	add(a, b, e, n);
	cl_buffer_region r = {bytes / 8, bytes / 4};
	cl_mem se = clCreateSubBuffer(e, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
	CHECK(err);
	write_read(se, 0, bytes / 4, tmp);
	add(se, se, se, n / 4);
	write_mapped(se, 4 * 10, 4 * 1000);
	write_read(e, 0, bytes, tmp);

	/* 5. Copies out of a buffer whose bytes are on the device into one
	 * with no host copy; a fill of a buffer nobody wrote, then a part
	 * written, then a launch. */
	cl_mem f = buffer(CL_MEM_READ_WRITE, bytes, NULL);
	CHECK(clEnqueueCopyBuffer(c.q, z, f, 0, 0, bytes, 0, NULL, NULL));
	CHECK(clEnqueueCopyBuffer(c.q, a, f, 4 * 100, 4 * 5000, 4 * 3000, 0, NULL, NULL));
	write_read(f, 0, bytes, tmp);
	cl_mem g = buffer(CL_MEM_READ_WRITE, bytes, NULL);
	float minus = -1.5f;
	CHECK(clEnqueueFillBuffer(c.q, g, &minus, sizeof minus, 0, bytes, 0, NULL, NULL));
	CHECK(clEnqueueWriteBuffer(c.q, g, CL_TRUE, 4 * 77, 4 * 7000, ha, 0, NULL, NULL));
	add(g, f, f, n);
	write_read(f, 0, bytes, tmp);

	/* 6. ALLOC_HOST_PTR, filled through a write mapping. */
	cl_mem h = buffer(CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR, bytes, NULL);
	cl_mem hz = buffer(CL_MEM_WRITE_ONLY | CL_MEM_ALLOC_HOST_PTR, bytes, NULL);
	float *p = clEnqueueMapBuffer(c.q, h, CL_TRUE, CL_MAP_WRITE, 0, bytes, 0, NULL, NULL, &err);
	CHECK(err);
	memcpy(p, hb, bytes);
	CHECK(clEnqueueUnmapMemObject(c.q, h, p, 0, NULL, NULL));
	add(h, a, hz, n);
	write_read(hz, 0, bytes, tmp);

	/* 7. Written on one queue, used and read on another. */
	cl_command_queue q2 = clCreateCommandQueue(c.ctx, c.dev, 0, &err);
	CHECK(err);
	cl_mem k = buffer(CL_MEM_READ_WRITE, bytes, NULL);
	CHECK(clEnqueueWriteBuffer(q2, k, CL_TRUE, 0, bytes, hb, 0, NULL, NULL));
	CHECK(clFinish(q2));
	add(k, a, k, n);
	CHECK(clFinish(c.q));
	CHECK(clEnqueueReadBuffer(q2, k, CL_TRUE, 0, bytes, tmp, 0, NULL, NULL));
	rt_write(out, tmp, bytes);

	/* 8. COPY_HOST_PTR; a launch writes it, the program overwrites it
	 * whole, a launch reads it. */
	cl_mem cp = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, ha);
	add(cp, b, cp, n);
	write_read(cp, 0, bytes, tmp);
	CHECK(clEnqueueWriteBuffer(c.q, cp, CL_TRUE, 0, bytes, hb, 0, NULL, NULL));
	add(cp, a, z, n);
	write_read(z, 0, bytes, tmp);

	CHECK(clFinish(c.q));
	CHECK(clReleaseCommandQueue(q2));
	cl_mem later[] = {d, se, e, f, g, h, hz, k, cp};
	for (size_t i = 0; i < sizeof later / sizeof *later; i++)
		CHECK(clReleaseMemObject(later[i]));
done:
	CHECK(clFinish(c.q));
	if (fclose(out))
		return 1;
	CHECK(clReleaseKernel(vadd));
	CHECK(clReleaseMemObject(a));
	CHECK(clReleaseMemObject(b));
	CHECK(clReleaseMemObject(z));
	rt_teardown(&c);
	free(ha), free(hb), free(tmp);
	return 0;
}
