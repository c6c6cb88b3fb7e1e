/* SPDX-License-Identifier: MIT */
/*
 * sparse_write - a kernel that writes only the even elements of its output;
 * the odd ones start with known non-zero values that must survive.
 * usage: sparse_write [-o OUT] [-k sparse_write.cl] [N]
 * N input elements (default 512K), 2N output elements (6 MB in all). OUT
 * receives the whole output buffer.
 */
#include "vast_example.h"

static float initial(size_t i)
{
	return -(float)(i % 1000003) - 0.5f;
}

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 1, .sizes = { 512u << 10 } };
	vex_parse_args(&a, argc, argv, "[N]");
	cl_uint n = (cl_uint)a.sizes[0];
	size_t nout = 2 * (size_t)n;

	float *hin = vex_malloc(n * sizeof(float)), *hout = vex_malloc(nout * sizeof(float));
	vex_rng r = vex_rng_seed(5);
	for (cl_uint i = 0; i < n; i++)
		hin[i] = vex_randf(&r, 1, 2);
	for (size_t i = 0; i < nout; i++)
		hout[i] = initial(i);

	vex_cl cl;
	vex_init(&cl, a.quiet);
	char *path = vex_kernel_path(a.argv0, "sparse_write.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel k = vex_kernel(prog, "sparse_write");
	cl_mem din = vex_buffer(&cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float), hin);
	/* Read-write with its contents: the kernel only writes, but what it
	 * does not write is part of the result. */
	cl_mem dout = vex_buffer(&cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
	                         nout * sizeof(float), hout);
	memset(hout, 0, nout * sizeof(float));
	VEX_ARG(k, 0, din);
	VEX_ARG(k, 1, dout);
	VEX_ARG(k, 2, n);

	size_t local = 64, global = (n + local - 1) / local * local;
	double t = vex_now();
	CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(cl.queue, dout, CL_TRUE, 0, nout * sizeof(float), hout, 0, NULL, NULL));
	t = vex_now() - t;
	if (!a.quiet)
		fprintf(stderr, "sparse_write: n=%u %.3f ms\n", n, t * 1e3);

	size_t bad = 0;
	for (size_t i = 0; i < nout; i++) {
		float want = i % 2 ? initial(i) : hin[i / 2] * 2.0f;
		if (memcmp(&hout[i], &want, sizeof want) != 0) {
			if (bad++ < 5)
				fprintf(stderr, "out[%zu] = %.9g, expected %.9g (%s)\n", i,
				        (double)hout[i], (double)want,
				        i % 2 ? "untouched" : "written");
		}
	}
	if (bad)
		fprintf(stderr, "out: %zu of %zu elements differ\n", bad, nout);
	vex_write_output(a.out, hout, nout * sizeof(float));

	clReleaseMemObject(din);
	clReleaseMemObject(dout);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	vex_release(&cl);
	free(path);
	free(hin);
	free(hout);
	if (bad) {
		fprintf(stderr, "sparse_write: FAILED\n");
		return 1;
	}
	if (!a.quiet)
		fprintf(stderr, "sparse_write: ok\n");
	return 0;
}
