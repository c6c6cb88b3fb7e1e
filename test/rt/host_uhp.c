/* SPDX-License-Identifier: MIT */
/*
 * host_uhp.c - where the current bytes of CL_MEM_USE_HOST_PTR buffers
 * live (issue 8 item 5), with defined behaviour only (OpenCL 1.2 §5.2.2,
 * §5.4.2): the host pointer read while mapped, or after a read into it;
 * the program's writes through a write mapping, then a launch; parts of
 * buffers whose only current copy is on the device read and written;
 * sub-buffers; and, under a budget where small launches fit and large
 * ones page, paged launches reading what native launches wrote. Writes
 * every byte it reads to argv[1]. Usage: host_uhp OUT vadd.cl [OPTIONS]
 */
#include "rt_host.h"

static rt_cl c;
static cl_kernel vadd;
static FILE *out;

/* z = x + y over n elements, local size left to the implementation. */
static void add(cl_mem x, cl_mem y, cl_mem z, cl_uint n)
{
	CHECK(clSetKernelArg(vadd, 0, sizeof x, &x));
	CHECK(clSetKernelArg(vadd, 1, sizeof y, &y));
	CHECK(clSetKernelArg(vadd, 2, sizeof z, &z));
	CHECK(clSetKernelArg(vadd, 3, sizeof n, &n));
	size_t g = n;
	CHECK(clEnqueueNDRangeKernel(c.q, vadd, 1, NULL, &g, NULL, 0, NULL, NULL));
}

/* Writes [off, off+n) of m's host pointer out while it is mapped for
 * reading: the mapping of a USE_HOST_PTR buffer is host_ptr + off. */
static void write_mapped(cl_mem m, const unsigned char *host, size_t off, size_t n)
{
	cl_int err;
	void *p = clEnqueueMapBuffer(c.q, m, CL_TRUE, CL_MAP_READ, off, n, 0, NULL, NULL, &err);
	CHECK(err);
	if (p != host + off) {
		fprintf(stderr, "map of a USE_HOST_PTR buffer is not at host_ptr + offset\n");
		exit(1);
	}
	rt_write(out, host + off, n);
	CHECK(clEnqueueUnmapMemObject(c.q, m, p, 0, NULL, NULL));
}

static void write_read(cl_mem m, size_t off, size_t n, void *tmp)
{
	CHECK(clEnqueueReadBuffer(c.q, m, CL_TRUE, off, n, tmp, 0, NULL, NULL));
	rt_write(out, tmp, n);
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	rt_setup(&c, argv[2], argc > 3 ? argv[3] : "-D UNUSED=1");
	out = fopen(argv[1], "wb");
	if (!out)
		return 1;
	cl_uint n = 1u << 20; /* 4 MiB per buffer: pinned through the driver */
	size_t bytes = n * sizeof(float);
	float *ha = malloc(bytes), *hb = malloc(bytes), *hc = malloc(bytes);
	float *tmp = malloc(bytes);
	if (!ha || !hb || !hc || !tmp)
		return 1;
	for (cl_uint i = 0; i < n; i++) {
		ha[i] = (float)i * 0.25f;
		hb[i] = (float)(i % 1000) * 0.5f;
		hc[i] = -1.0f;
	}
	cl_int err;
	cl_mem_flags f = CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR;
	cl_mem a = clCreateBuffer(c.ctx, f, bytes, ha, &err);
	CHECK(err);
	cl_mem b = clCreateBuffer(c.ctx, f, bytes, hb, &err);
	CHECK(err);
	cl_mem cc = clCreateBuffer(c.ctx, f, bytes, hc, &err);
	CHECK(err);
	vadd = clCreateKernel(c.prog, "vadd", &err);
	CHECK(err);

	/* 1. A kernel writes c: its host pointer, mapped, holds the result. */
	add(a, b, cc, n);
	write_mapped(cc, (unsigned char *)hc, 0, bytes);

	/* 2. The program writes part of a through a write mapping; after the
	 * unmap a launch reads it; c read back into its own host pointer. */
	void *p = clEnqueueMapBuffer(c.q, a, CL_TRUE, CL_MAP_WRITE, bytes / 4, bytes / 2, 0,
	                             NULL, NULL, &err);
	CHECK(err);
	for (cl_uint i = 0; i < n / 2; i++)
		((float *)p)[i] = -(float)i;
	CHECK(clEnqueueUnmapMemObject(c.q, a, p, 0, NULL, NULL));
	add(a, b, cc, n);
	CHECK(clEnqueueReadBuffer(c.q, cc, CL_TRUE, 0, bytes, hc, 0, NULL, NULL));
	rt_write(out, hc, bytes);

	/* 3. Parts of a buffer whose current bytes are on the device: read
	 * a piece, write a piece (from other memory, and from the buffer's own
	 * host pointer), then a launch reads it. */
	add(cc, cc, cc, n);
	write_read(cc, 4 * 12345, 4 * 1000, tmp);
	for (cl_uint i = 0; i < 5000; i++)
		tmp[i] = (float)i + 0.5f;
	CHECK(clEnqueueWriteBuffer(c.q, cc, CL_TRUE, 4 * 777, 4 * 5000, tmp, 0, NULL, NULL));
	add(b, b, b, n);
	/* One element changed through a write mapping of a small region. */
	p = clEnqueueMapBuffer(c.q, b, CL_TRUE, CL_MAP_WRITE, 4 * 4000, 4 * 1000, 0, NULL,
	                       NULL, &err);
	CHECK(err);
	((float *)p)[321] = 7.0f;
	CHECK(clEnqueueUnmapMemObject(c.q, b, p, 0, NULL, NULL));
	add(cc, b, a, n);
	write_mapped(a, (unsigned char *)ha, 0, bytes);
	write_read(cc, 0, bytes, tmp);

	/* 4. Sub-buffers of USE_HOST_PTR buffers: a launch on two small
	 * regions (native under a budget of a few MiB), then launches over
	 * the whole buffers (paged under that budget) read what it wrote;
	 * then one that fits writes b whole and another pages over it. */
	cl_buffer_region r = {bytes / 8, bytes / 8};
	cl_mem sa = clCreateSubBuffer(a, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
	CHECK(err);
	cl_mem sb = clCreateSubBuffer(b, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
	CHECK(err);
	add(sa, sa, sb, n / 8);
	add(a, b, cc, n);
	write_read(cc, 0, bytes, tmp);
	add(b, b, b, n);
	add(a, b, cc, n);
	write_read(sb, 4 * 10, 4 * 1000, tmp);
	write_read(cc, 0, bytes, tmp);
	write_mapped(sb, (unsigned char *)hb + bytes / 8, 0, bytes / 8);
	write_mapped(b, (unsigned char *)hb, 0, bytes);

	CHECK(clFinish(c.q));
	if (fclose(out))
		return 1;
	CHECK(clReleaseMemObject(sa));
	CHECK(clReleaseMemObject(sb));
	CHECK(clReleaseKernel(vadd));
	CHECK(clReleaseMemObject(a));
	CHECK(clReleaseMemObject(b));
	CHECK(clReleaseMemObject(cc));
	rt_teardown(&c);
	free(ha), free(hb), free(hc), free(tmp);
	return 0;
}
