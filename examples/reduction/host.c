/* SPDX-License-Identifier: MIT */
/*
 * reduction - sums N uints (default 16M) with a per-group pass and a final
 * pass. usage: reduction [-o OUT] [-q] [-m] [N]
 *
 * Prints `reduction: bytes=B seconds=S`; the sum must equal the CPU's
 * exactly (integers). OUT receives the 8-byte sum.
 */
#include "vast_example.h"

#define LOCAL 256
#define PER_ITEM 64

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 1, .sizes = { 16u << 20 } };
	vex_parse_args(&a, argc, argv, "[N]");
	cl_ulong n = a.sizes[0];
	size_t bytes = (size_t)n * sizeof(cl_uint);
	size_t chunk = (size_t)LOCAL * PER_ITEM, ngroups = (n + chunk - 1) / chunk;
	if (ngroups > 0xffffffffu)
		vex_die("N too large");

	vex_cl cl;
	vex_init(&cl, a.quiet);
	char *path = vex_kernel_path(a.argv0, "reduction.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel k1 = vex_kernel(prog, "reduce_partial");
	cl_kernel k2 = vex_kernel(prog, "reduce_final");
	vex_array ain = vex_array_create(&cl, a.mapped, CL_MEM_READ_ONLY, bytes, 1);
	cl_mem din = ain.mem;
	cl_uint *in = ain.host;
	vex_rng r = vex_rng_seed(3);
	cl_ulong ref = 0;
	for (size_t i = 0; i < n; i++) {
		in[i] = vex_rand32(&r) & 0xff;
		ref += in[i];
	}
	cl_mem dpart = vex_buffer(&cl, CL_MEM_READ_WRITE, ngroups * sizeof(cl_uint), NULL);
	cl_mem dres = vex_buffer(&cl, CL_MEM_WRITE_ONLY, sizeof(cl_ulong), NULL);
	cl_uint ng = (cl_uint)ngroups;
	VEX_ARG(k1, 0, din);
	VEX_ARG(k1, 1, dpart);
	VEX_ARG(k1, 2, n);
	VEX_ARG(k2, 0, dpart);
	VEX_ARG(k2, 1, dres);
	VEX_ARG(k2, 2, ng);

	size_t local = LOCAL, global = ngroups * LOCAL;
	cl_ulong sum = 0;
	double t = vex_now();
	vex_array_send(&cl, &ain);
	CHECK(clEnqueueNDRangeKernel(cl.queue, k1, 1, NULL, &global, &local, 0, NULL, NULL));
	CHECK(clEnqueueNDRangeKernel(cl.queue, k2, 1, NULL, &local, &local, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(cl.queue, dres, CL_TRUE, 0, sizeof sum, &sum, 0, NULL, NULL));
	t = vex_now() - t;

	vex_write_output(a.out, &sum, sizeof sum);
	printf("reduction: n=%llu bytes=%zu seconds=%.6f\n", (unsigned long long)n,
	       bytes + ngroups * sizeof(cl_uint) + sizeof(cl_ulong), t);

	vex_array_release(&cl, &ain);
	clReleaseMemObject(dpart);
	clReleaseMemObject(dres);
	clReleaseKernel(k1);
	clReleaseKernel(k2);
	clReleaseProgram(prog);
	vex_release(&cl);
	free(path);
	if (sum != ref) {
		fprintf(stderr, "reduction: FAILED: sum %llu, expected %llu\n",
		        (unsigned long long)sum, (unsigned long long)ref);
		return 1;
	}
	if (!a.quiet)
		fprintf(stderr, "reduction: ok\n");
	return 0;
}
