/* SPDX-License-Identifier: MIT */
/*
 * host_partial.c - issue 7 item 4: a paged launch that fails part-way
 * must not expose partial output. vadd runs under a budget of several
 * ranges while the runtime's allocator fails its k-th allocation, for
 * k = 1, 2, ... until a launch succeeds. After every failed launch the
 * output buffer must either read back exactly as before the launch, or
 * refuse reads, maps and launches with
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST until it is rewritten
 * whole. At least one failure must land after a range went back (the
 * test proves it reaches the case). Usage: host_partial vadd.cl
 */
#include "rt_host.h"

/* The runtime's test hook (runtime/base/alloc.c), linked in statically. */
void vrt_alloc_fail_after(unsigned long n);

#define REFUSED CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	rt_cl c;
	rt_setup(&c, argv[1], "-D UNUSED=1");
	cl_uint n = 1u << 18; /* 1 MiB per buffer */
	size_t bytes = n * sizeof(float);
	float *ha = malloc(bytes), *hb = malloc(bytes), *old = malloc(bytes),
	      *sum = malloc(bytes), *got = malloc(bytes);
	if (!ha || !hb || !old || !sum || !got)
		return 1;
	for (cl_uint i = 0; i < n; i++) {
		ha[i] = (float)i;
		hb[i] = 0.25f;
		old[i] = -7.0f;
	}
	cl_int err;
	cl_mem a = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, ha, &err);
	CHECK(err);
	cl_mem b = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, hb, &err);
	CHECK(err);
	cl_mem out = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
	CHECK(err);
	cl_kernel k = clCreateKernel(c.prog, "vadd", &err);
	CHECK(err);
	CHECK(clSetKernelArg(k, 0, sizeof a, &a));
	CHECK(clSetKernelArg(k, 1, sizeof b, &b));
	CHECK(clSetKernelArg(k, 2, sizeof out, &out));
	CHECK(clSetKernelArg(k, 3, sizeof n, &n));
	size_t g = n, l = 64;

	/* The expected result, from a launch nothing disturbs. */
	CHECK(clEnqueueNDRangeKernel(c.q, k, 1, NULL, &g, &l, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(c.q, out, CL_TRUE, 0, bytes, sum, 0, NULL, NULL));

	unsigned untouched = 0, refused = 0;
	for (unsigned long fail = 1;; fail++) {
		CHECK(clEnqueueWriteBuffer(c.q, out, CL_TRUE, 0, bytes, old, 0, NULL, NULL));
		/* The launch runs asynchronously: it failed when its enqueue
		 * or its event says so (OpenCL 1.2 §5.9). */
		cl_event e = NULL;
		vrt_alloc_fail_after(fail);
		cl_int lerr = clEnqueueNDRangeKernel(c.q, k, 1, NULL, &g, &l, 0, NULL, &e);
		if (lerr == CL_SUCCESS)
			lerr = clWaitForEvents(1, &e);
		vrt_alloc_fail_after(0);
		if (e)
			CHECK(clReleaseEvent(e));
		cl_int rerr = clEnqueueReadBuffer(c.q, out, CL_TRUE, 0, bytes, got, 0, NULL, NULL);
		if (lerr == CL_SUCCESS) {
			CHECK(rerr);
			if (memcmp(got, sum, bytes)) {
				fprintf(stderr, "allocation %lu: the launch succeeded with a wrong result\n", fail);
				return 1;
			}
			break;
		}
		if (rerr == CL_SUCCESS) {
			if (memcmp(got, old, bytes)) {
				fprintf(stderr, "allocation %lu: the launch failed (%d) and the buffer reads back changed\n",
				        fail, lerr);
				return 1;
			}
			untouched++;
			continue;
		}
		if (rerr != REFUSED) {
			fprintf(stderr, "allocation %lu: read after the failed launch: %d, want %d\n",
			        fail, rerr, REFUSED);
			return 1;
		}
		/* Maps and launches are refused too, until a whole write. */
		clEnqueueMapBuffer(c.q, out, CL_TRUE, CL_MAP_READ, 0, bytes, 0, NULL, NULL, &err);
		cl_int kerr = clEnqueueNDRangeKernel(c.q, k, 1, NULL, &g, &l, 0, NULL, NULL);
		if (err != REFUSED || kerr != REFUSED) {
			fprintf(stderr, "allocation %lu: map %d, launch %d after the failed launch, want %d\n",
			        fail, err, kerr, REFUSED);
			return 1;
		}
		refused++;
	}
	printf("host_partial: %u failed launches left the buffer as it was, %u refused it\n",
	       untouched, refused);
	if (!refused) {
		fprintf(stderr, "no failure landed after a range went back: the test proves nothing\n");
		return 1;
	}
	CHECK(clReleaseKernel(k));
	CHECK(clReleaseMemObject(a));
	CHECK(clReleaseMemObject(b));
	CHECK(clReleaseMemObject(out));
	rt_teardown(&c);
	free(ha), free(hb), free(old), free(sum), free(got);
	return 0;
}
