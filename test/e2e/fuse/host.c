/* SPDX-License-Identifier: MIT */
/*
 * fuse - for test/e2e/fuse.sh: two kernels enqueued back to back, which
 * the runtime may run range by range together (runtime/launch/launch.c, fused)
 * where that cannot change a result. N uints a buffer.
 *   chain    produce out, then transform it in place
 *   sparse   out written by the program, produce_even over half of it,
 *            then fold_pairs (the odd elements are the program's)
 *   extra    produce out, then combine it with in2 into out2
 *   mirror   produce out, then mirror_read it into out2 (each range reads
 *            what another wrote: not fused)
 *   war      produce_from in into out, then overwrite in from out (each
 *            range overwrites what another reads: not fused)
 *   event    chain, the program holding transform's event (its status and
 *            times are its own command's: not fused)
 * Everything is queued before the queue moves (the first kernel waits
 * for a user event set last), so the second is queued when the first
 * starts. OUT receives every buffer; a failed read exits 3.
 * usage: fuse MODE OUT
 */
#include "rt_host.h"

#define N (1u << 20)
#define BYTES (N * sizeof(cl_uint))

static cl_mem buffer(rt_cl *c, cl_uint seed)
{
	cl_int err;
	cl_uint *a = malloc(BYTES);
	if (!a)
		exit(1);
	for (cl_uint i = 0; i < N; i++)
		a[i] = i * 2654435761u + seed;
	cl_mem m = clCreateBuffer(c->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, BYTES, a, &err);
	CHECK(err);
	free(a);
	return m;
}

static cl_kernel kernel(rt_cl *c, const char *name, cl_mem a, cl_mem b, cl_mem d, int with_n)
{
	cl_int err;
	cl_uint n = N, i = 0;
	cl_kernel k = clCreateKernel(c->prog, name, &err);
	CHECK(err);
	cl_mem args[3] = {a, b, d};
	for (; i < 3 && args[i]; i++)
		CHECK(clSetKernelArg(k, i, sizeof args[i], &args[i]));
	if (with_n)
		CHECK(clSetKernelArg(k, i, sizeof n, &n));
	return k;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	const char *mode = argv[1];
	rt_cl c;
	rt_setup(&c, "fuse.cl", NULL);
	cl_int err;
	cl_mem out = buffer(&c, 1), in = buffer(&c, 2), out2 = buffer(&c, 3);
	cl_kernel k1, k2;
	size_t gws = N, lws = 64;
	if (!strcmp(mode, "chain") || !strcmp(mode, "event")) {
		k1 = kernel(&c, "produce", out, NULL, NULL, 0);
		k2 = kernel(&c, "transform", out, NULL, NULL, 0);
	} else if (!strcmp(mode, "sparse")) {
		k1 = kernel(&c, "produce_even", out, NULL, NULL, 0);
		k2 = kernel(&c, "fold_pairs", out, NULL, NULL, 0);
		gws = N / 2;
	} else if (!strcmp(mode, "extra")) {
		k1 = kernel(&c, "produce", out, NULL, NULL, 0);
		k2 = kernel(&c, "combine", out, in, out2, 0);
	} else if (!strcmp(mode, "mirror")) {
		k1 = kernel(&c, "produce", out, NULL, NULL, 0);
		k2 = kernel(&c, "mirror_read", out, out2, NULL, 1);
	} else if (!strcmp(mode, "war")) {
		k1 = kernel(&c, "produce_from", in, out, NULL, 1);
		k2 = kernel(&c, "overwrite", in, out, NULL, 0);
	} else {
		fprintf(stderr, "fuse: unknown mode '%s'\n", mode);
		return 2;
	}
	cl_event go = clCreateUserEvent(c.ctx, &err);
	CHECK(err);
	CHECK(clEnqueueNDRangeKernel(c.q, k1, 1, NULL, &gws, &lws, 1, &go, NULL));
	cl_event k2ev = NULL;
	CHECK(clEnqueueNDRangeKernel(c.q, k2, 1, NULL, &gws, &lws, 0, NULL,
	                             strcmp(mode, "event") ? NULL : &k2ev));
	cl_uint *host = malloc(3 * BYTES);
	if (!host)
		return 1;
	cl_mem all[3] = {out, in, out2};
	cl_event rd[3];
	for (int b = 0; b < 3; b++)
		CHECK(clEnqueueReadBuffer(c.q, all[b], CL_FALSE, 0, BYTES, host + (size_t)b * N, 0,
		                          NULL, &rd[b]));
	CHECK(clSetUserEventStatus(go, CL_COMPLETE));
	CHECK(clFinish(c.q));
	/* A command that failed after its enqueue says so in its event. */
	for (int b = 0; b < 3; b++) {
		cl_int st;
		CHECK(clGetEventInfo(rd[b], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
		if (st != CL_COMPLETE) {
			fprintf(stderr, "fuse: reading buffer %d: %d\n", b, st);
			return 3;
		}
		clReleaseEvent(rd[b]);
	}
	FILE *f = fopen(argv[2], "wb");
	if (!f)
		return 1;
	rt_write(f, host, 3 * BYTES);
	if (fclose(f))
		return 1;
	free(host);
	clReleaseEvent(go);
	if (k2ev)
		clReleaseEvent(k2ev);
	clReleaseKernel(k1);
	clReleaseKernel(k2);
	clReleaseMemObject(out);
	clReleaseMemObject(in);
	clReleaseMemObject(out2);
	rt_teardown(&c);
	return 0;
}
