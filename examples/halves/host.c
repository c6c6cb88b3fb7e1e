/* SPDX-License-Identifier: MIT */
/*
 * halves - out[i] = in[i] ^ in[N + i] over N uints (default 1M, 12 MB in
 * all): every work-group reads two pieces of `in` N elements apart.
 * usage: halves [-o OUT] [-k halves.cl] [N]
 * OUT receives out's raw bytes.
 */
#include "vast_example.h"

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 1, .sizes = { 1u << 20 } };
	vex_parse_args(&a, argc, argv, "[N]");
	cl_uint n = (cl_uint)a.sizes[0];
	size_t bytes = (size_t)n * sizeof(cl_uint);

	cl_uint *hin = vex_malloc(2 * bytes), *hout = vex_malloc(bytes);
	cl_uint *ref = vex_malloc(bytes);
	vex_rng r = vex_rng_seed(1);
	for (size_t i = 0; i < 2 * (size_t)n; i++)
		hin[i] = vex_rand32(&r);
	for (cl_uint i = 0; i < n; i++)
		ref[i] = hin[i] ^ hin[(size_t)n + i];

	vex_cl cl;
	vex_init(&cl, a.quiet);
	char *path = vex_kernel_path(a.argv0, "halves.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel k = vex_kernel(prog, "halves");
	cl_mem din = vex_buffer(&cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 2 * bytes, hin);
	cl_mem dout = vex_buffer(&cl, CL_MEM_WRITE_ONLY, bytes, NULL);
	VEX_ARG(k, 0, din);
	VEX_ARG(k, 1, dout);
	VEX_ARG(k, 2, n);

	size_t local = 64, global = (n + local - 1) / local * local;
	CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(cl.queue, dout, CL_TRUE, 0, bytes, hout, 0, NULL, NULL));

	int bad = memcmp(hout, ref, bytes) != 0;
	vex_write_output(a.out, hout, bytes);

	clReleaseMemObject(din);
	clReleaseMemObject(dout);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	vex_release(&cl);
	free(path);
	free(hin);
	free(hout);
	free(ref);
	if (bad) {
		fprintf(stderr, "halves: FAILED\n");
		return 1;
	}
	if (!a.quiet)
		fprintf(stderr, "halves: ok\n");
	return 0;
}
