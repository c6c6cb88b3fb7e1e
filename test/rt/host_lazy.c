/* SPDX-License-Identifier: MIT */
/*
 * host_lazy.c - every way the host can reach a buffer whose newest pages
 * a paged launch left dirty in the kept frames (issue 10 item 2, lazy
 * write-back): c += b three times (the last ranges' pages of c stay on
 * the device), then one of: a blocking read of parts, a non-blocking
 * read of all of it and a wait, a map, a copy to another buffer, a fill
 * of part, a write of part, a write of all of it (the dirty pages are
 * stale from then on: they must never go home), a native launch (at the
 * budget of 6 MiB, diff.sh "some") that writes every other element, a
 * sub-buffer; at the end c is released with pages still dirty. Writes
 * every byte it reads to argv[1]. Usage: host_lazy OUT vadd.cl [OPTIONS]
 */
#include "rt_host.h"

static rt_cl c;
static cl_kernel vadd, evens;
static FILE *out;

enum { N = 1 << 20 }; /* floats: 4 MiB a buffer */

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

/* c += b, three launches: pages of c stay dirty between them. */
static void steps(cl_mem cc, cl_mem b)
{
	for (int i = 0; i < 3; i++)
		add(cc, b, cc);
}

static void read_out(cl_mem m, size_t off, size_t n, void *tmp)
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
	size_t bytes = N * sizeof(float);
	float *hb = malloc(bytes), *hc = malloc(bytes), *tmp = malloc(bytes);
	if (!hb || !hc || !tmp)
		return 1;
	for (cl_uint i = 0; i < N; i++) {
		hb[i] = (float)(i % 1000) * 0.5f;
		hc[i] = (float)(i % 77) - 3.0f;
	}
	cl_int err;
	cl_mem_flags f = CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR;
	cl_mem b = clCreateBuffer(c.ctx, f, bytes, hb, &err);
	CHECK(err);
	cl_mem cc = clCreateBuffer(c.ctx, f, bytes, hc, &err);
	CHECK(err);
	cl_mem d = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
	CHECK(err);
	vadd = clCreateKernel(c.prog, "vadd", &err);
	CHECK(err);
	evens = clCreateKernel(c.prog, "evens", &err);
	CHECK(err);

	/* 1. Blocking reads of parts: one inside, the last bytes. */
	steps(cc, b);
	read_out(cc, 4096 * 37 + 12, 1000, tmp);
	read_out(cc, bytes - 5000, 5000, tmp);

	/* 2. A non-blocking read of all of it, then a wait on its event. */
	steps(cc, b);
	cl_event ev;
	CHECK(clEnqueueReadBuffer(c.q, cc, CL_FALSE, 0, bytes, tmp, 0, NULL, &ev));
	CHECK(clWaitForEvents(1, &ev));
	CHECK(clReleaseEvent(ev));
	rt_write(out, tmp, bytes);

	/* 3. A map for reading, non-blocking, waited for. */
	steps(cc, b);
	void *p = clEnqueueMapBuffer(c.q, cc, CL_FALSE, CL_MAP_READ, 0, bytes, 0, NULL, &ev, &err);
	CHECK(err);
	CHECK(clWaitForEvents(1, &ev));
	CHECK(clReleaseEvent(ev));
	rt_write(out, p, bytes);
	CHECK(clEnqueueUnmapMemObject(c.q, cc, p, 0, NULL, NULL));

	/* 4. A copy to another buffer, read from there. */
	steps(cc, b);
	CHECK(clEnqueueCopyBuffer(c.q, cc, d, 0, 0, bytes, 0, NULL, NULL));
	read_out(d, 0, bytes, tmp);

	/* 5. A fill of part, then launches again. */
	steps(cc, b);
	float seven = 7.0f;
	CHECK(clEnqueueFillBuffer(c.q, cc, &seven, sizeof seven, 1 << 20, 65536, 0, NULL, NULL));
	steps(cc, b);
	read_out(cc, 0, bytes, tmp);

	/* 6. A write of part, then launches again. */
	steps(cc, b);
	CHECK(clEnqueueWriteBuffer(c.q, cc, CL_TRUE, 3 * (1 << 20) + 4, 100, hb, 0, NULL, NULL));
	steps(cc, b);
	read_out(cc, 0, bytes, tmp);

	/* 7. A write of all of it: the pages left dirty are stale. */
	steps(cc, b);
	CHECK(clEnqueueWriteBuffer(c.q, cc, CL_TRUE, 0, bytes, hc, 0, NULL, NULL));
	add(b, b, d); /* another buffer's launch: may refill c's frames */
	read_out(cc, 0, bytes, tmp);
	steps(cc, b);
	read_out(cc, 0, bytes, tmp);

	/* 8. A launch of c alone (native at 6 MiB) writes its even elements. */
	steps(cc, b);
	cl_uint n = N;
	CHECK(clSetKernelArg(evens, 0, sizeof cc, &cc));
	CHECK(clSetKernelArg(evens, 1, sizeof n, &n));
	size_t g = N / 2;
	CHECK(clEnqueueNDRangeKernel(c.q, evens, 1, NULL, &g, NULL, 0, NULL, NULL));
	read_out(cc, 0, bytes, tmp);
	add(b, b, cc); /* floats again */

	/* 9. A sub-buffer of c, read; c's launches go on in a family. */
	steps(cc, b);
	cl_buffer_region r = {2 << 20, 1 << 20};
	cl_mem sub = clCreateSubBuffer(cc, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
	CHECK(err);
	read_out(sub, 0, r.size, tmp);
	steps(cc, b);
	read_out(cc, 0, bytes, tmp);
	CHECK(clReleaseMemObject(sub));

	/* 10. Released with pages dirty. */
	steps(cc, b);
	CHECK(clFinish(c.q));
	CHECK(clReleaseMemObject(cc));
	CHECK(clReleaseMemObject(b));
	CHECK(clReleaseMemObject(d));
	CHECK(clReleaseKernel(vadd));
	CHECK(clReleaseKernel(evens));
	free(hb);
	free(hc);
	free(tmp);
	rt_teardown(&c);
	return fclose(out) != 0;
}
