/* SPDX-License-Identifier: MIT */
/*
 * host_vadd.c - vector add, a sparse writer, a two-kernel pipeline,
 * aliased arguments on buffers of every creation flavour, and a buffer
 * the host never writes; writes all buffers' final bytes to argv[1].
 * Usage: host_vadd OUT vadd.cl [OPTIONS]
 * With a fourth argument "fault", runs copy1 instead and exits with its
 * launch's error code negated (its inspector is wrong on purpose).
 */
#include "rt_host.h"

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	const char *opts = argc > 3 ? argv[3] : "-D UNUSED=1";
	rt_cl c;
	rt_setup(&c, argv[2], opts);
	cl_uint n = 1u << 20; /* 4 MiB per buffer */
	size_t bytes = n * sizeof(float);
	float *ha = malloc(bytes), *hb = malloc(bytes), *hc = malloc(bytes);
	if (!ha || !hb || !hc)
		return 1;
	for (cl_uint i = 0; i < n; i++) {
		ha[i] = (float)i * 0.5f;
		hb[i] = 1.0f / (float)(i + 1);
		hc[i] = -2.0f;
	}
	cl_int err;
	cl_mem a = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, ha, &err);
	CHECK(err);
	cl_mem b = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, hb, &err);
	CHECK(err);
	cl_mem cc = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
	CHECK(err);
	/* Not a multiple of any page size: the last page is partial. */
	size_t ebytes = bytes - 12;
	cl_mem e = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, ebytes, NULL, &err);
	CHECK(err);
	CHECK(clEnqueueWriteBuffer(c.q, cc, CL_TRUE, 0, bytes, hc, 0, NULL, NULL));
	int minus1 = -1;
	CHECK(clEnqueueFillBuffer(c.q, e, &minus1, sizeof minus1, 0, ebytes, 0, NULL, NULL));

	if (argc > 4 && !strcmp(argv[4], "fault")) {
		cl_kernel k = clCreateKernel(c.prog, "copy1", &err);
		CHECK(err);
		CHECK(clSetKernelArg(k, 0, sizeof a, &a));
		CHECK(clSetKernelArg(k, 1, sizeof cc, &cc));
		size_t gn = n;
		/* The error of a launch that fails as it runs is its event's
		 * status (OpenCL 1.2 §5.9). */
		cl_event fe;
		err = clEnqueueNDRangeKernel(c.q, k, 1, NULL, &gn, NULL, 0, NULL, &fe);
		if (err == CL_SUCCESS) {
			cl_int st;
			clWaitForEvents(1, &fe);
			CHECK(clGetEventInfo(fe, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
			err = st < 0 ? st : CL_SUCCESS;
			CHECK(clReleaseEvent(fe));
		}
		CHECK(clReleaseKernel(k));
		CHECK(clReleaseMemObject(a));
		CHECK(clReleaseMemObject(b));
		CHECK(clReleaseMemObject(cc));
		CHECK(clReleaseMemObject(e));
		rt_teardown(&c);
		free(ha), free(hb), free(hc);
		return -err;
	}
	cl_kernel vadd = clCreateKernel(c.prog, "vadd", &err);
	CHECK(err);
	cl_kernel evens = clCreateKernel(c.prog, "evens", &err);
	CHECK(err);

	/* 1. c = a + b, local size chosen by the implementation. */
	CHECK(clSetKernelArg(vadd, 0, sizeof a, &a));
	CHECK(clSetKernelArg(vadd, 1, sizeof b, &b));
	CHECK(clSetKernelArg(vadd, 2, sizeof cc, &cc));
	CHECK(clSetKernelArg(vadd, 3, sizeof n, &n));
	size_t g = n, l = 64;
	cl_event ev;
	CHECK(clEnqueueNDRangeKernel(c.q, vadd, 1, NULL, &g, NULL, 0, NULL, &ev));
	CHECK(clWaitForEvents(1, &ev));
	CHECK(clReleaseEvent(ev));

	/* 2. e[2i] = 3i+1, the odd elements keep -1 (sparse writes). */
	cl_uint en = (cl_uint)(ebytes / 4);
	CHECK(clSetKernelArg(evens, 0, sizeof e, &e));
	CHECK(clSetKernelArg(evens, 1, sizeof en, &en));
	g = (en + 1) / 2;
	g = (g + 63) / 64 * 64;
	CHECK(clEnqueueNDRangeKernel(c.q, evens, 1, NULL, &g, &l, 0, NULL, NULL));

	/* 3. pipeline: evens over c, then a = c + b. */
	CHECK(clSetKernelArg(evens, 0, sizeof cc, &cc));
	CHECK(clSetKernelArg(evens, 1, sizeof n, &n));
	g = n / 2;
	CHECK(clEnqueueNDRangeKernel(c.q, evens, 1, NULL, &g, &l, 0, NULL, NULL));
	CHECK(clSetKernelArg(vadd, 0, sizeof cc, &cc));
	CHECK(clSetKernelArg(vadd, 1, sizeof b, &b));
	CHECK(clSetKernelArg(vadd, 2, sizeof a, &a));
	g = n;
	CHECK(clEnqueueNDRangeKernel(c.q, vadd, 1, NULL, &g, &l, 0, NULL, NULL));

	/* 4. aliased: b = b + b, one buffer behind three arguments. */
	CHECK(clSetKernelArg(vadd, 0, sizeof b, &b));
	CHECK(clSetKernelArg(vadd, 1, sizeof b, &b));
	CHECK(clSetKernelArg(vadd, 2, sizeof b, &b));
	CHECK(clEnqueueNDRangeKernel(c.q, vadd, 1, NULL, &g, &l, 0, NULL, NULL));

	/* 5. A buffer the host never writes (its device copy is made of
	 * zeros on the device, issue 8 item 5): d = a + b written whole, then
	 * d = d + d, which under a budget of a few MiB runs natively after
	 * the first ran paged: it must see d's results, not zeros. */
	cl_mem d = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
	CHECK(err);
	CHECK(clSetKernelArg(vadd, 0, sizeof a, &a));
	CHECK(clSetKernelArg(vadd, 1, sizeof b, &b));
	CHECK(clSetKernelArg(vadd, 2, sizeof d, &d));
	CHECK(clEnqueueNDRangeKernel(c.q, vadd, 1, NULL, &g, &l, 0, NULL, NULL));
	CHECK(clSetKernelArg(vadd, 0, sizeof d, &d));
	CHECK(clSetKernelArg(vadd, 1, sizeof d, &d));
	CHECK(clEnqueueNDRangeKernel(c.q, vadd, 1, NULL, &g, &l, 0, NULL, NULL));
	CHECK(clFinish(c.q));

	FILE *out = fopen(argv[1], "wb");
	if (!out)
		return 1;
	float *tmp = malloc(bytes);
	CHECK(clEnqueueReadBuffer(c.q, a, CL_TRUE, 0, bytes, tmp, 0, NULL, NULL));
	rt_write(out, tmp, bytes);
	CHECK(clEnqueueReadBuffer(c.q, cc, CL_FALSE, 0, bytes, tmp, 0, NULL, &ev));
	CHECK(clWaitForEvents(1, &ev));
	CHECK(clReleaseEvent(ev));
	rt_write(out, tmp, bytes);
	void *p = clEnqueueMapBuffer(c.q, b, CL_TRUE, CL_MAP_READ, 0, bytes, 0, NULL, NULL, &err);
	CHECK(err);
	rt_write(out, p, bytes);
	CHECK(clEnqueueUnmapMemObject(c.q, b, p, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(c.q, e, CL_TRUE, 0, ebytes, tmp, 0, NULL, NULL));
	rt_write(out, tmp, ebytes);
	CHECK(clEnqueueReadBuffer(c.q, d, CL_TRUE, 0, bytes, tmp, 0, NULL, NULL));
	rt_write(out, tmp, bytes);
	if (fclose(out))
		return 1;

	CHECK(clReleaseKernel(vadd));
	CHECK(clReleaseKernel(evens));
	CHECK(clReleaseMemObject(a));
	CHECK(clReleaseMemObject(b));
	CHECK(clReleaseMemObject(cc));
	CHECK(clReleaseMemObject(e));
	CHECK(clReleaseMemObject(d));
	rt_teardown(&c);
	free(ha), free(hb), free(hc), free(tmp);
	return 0;
}
