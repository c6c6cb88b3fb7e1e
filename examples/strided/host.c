/* SPDX-License-Identifier: MIT */
/*
 * strided - a kernel, launched three times, whose work-groups each write
 * every other byte with a stride of the group count, so that every page
 * of its output is written by every work-group (strided.cl).
 * usage: strided [-o OUT] [-k strided.cl] [N]
 * N input bytes (default 1M), 2N output bytes. OUT receives the whole
 * output buffer.
 */
#include "vast_example.h"

#define LAUNCHES 3

static unsigned char initial(size_t i)
{
	return (unsigned char)(i * 7 + 3);
}

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 1, .sizes = { 1u << 20 } };
	vex_parse_args(&a, argc, argv, "[N]");
	cl_uint n = (cl_uint)a.sizes[0];
	size_t nout = 2 * (size_t)n, local = 64;
	size_t global = (n + local - 1) / local * local, groups = global / local;

	unsigned char *hin = vex_malloc(n), *hout = vex_malloc(nout);
	vex_rng r = vex_rng_seed(13);
	for (cl_uint i = 0; i < n; i++)
		hin[i] = (unsigned char)vex_randf(&r, 0, 256);
	for (size_t i = 0; i < nout; i++)
		hout[i] = initial(i);

	vex_cl cl;
	vex_init(&cl, a.quiet);
	char *path = vex_kernel_path(a.argv0, "strided.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel k = vex_kernel(prog, "strided");
	cl_mem din = vex_buffer(&cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n, hin);
	cl_mem dout = vex_buffer(&cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, nout, hout);
	memset(hout, 0, nout);
	VEX_ARG(k, 0, din);
	VEX_ARG(k, 1, dout);
	VEX_ARG(k, 2, n);

	double t = vex_now();
	for (cl_uint it = 1; it <= LAUNCHES; it++) {
		VEX_ARG(k, 3, it);
		CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
	}
	CHECK(clEnqueueReadBuffer(cl.queue, dout, CL_TRUE, 0, nout, hout, 0, NULL, NULL));
	t = vex_now() - t;
	if (!a.quiet)
		fprintf(stderr, "strided: n=%u groups=%zu %.3f ms\n", n, groups, t * 1e3);

	size_t bad = 0;
	for (size_t i = 0; i < nout; i++) {
		unsigned char want = i % 2 ? initial(i) : (unsigned char)(hin[i / 2] ^ LAUNCHES);
		if (hout[i] != want && bad++ < 5)
			fprintf(stderr, "out[%zu] = %u, expected %u\n", i, hout[i], want);
	}
	if (bad)
		fprintf(stderr, "out: %zu of %zu bytes differ\n", bad, nout);
	vex_write_output(a.out, hout, nout);

	clReleaseMemObject(din);
	clReleaseMemObject(dout);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	vex_release(&cl);
	free(path);
	free(hin);
	free(hout);
	if (bad) {
		fprintf(stderr, "strided: FAILED\n");
		return 1;
	}
	if (!a.quiet)
		fprintf(stderr, "strided: ok\n");
	return 0;
}
