/* SPDX-License-Identifier: MIT */
/*
 * fdtd2d - STEPS time steps of a 2-D FDTD (fdtd2d.cl: three kernels per
 * step), the iterative workload of issue 10's benchmarks.
 * usage: fdtd2d [-o OUT] [-k fdtd2d.cl] [W [H [STEPS]]]
 * Defaults 1024 x 1024 (12 MB in all), 20 steps; W and H multiples of 16.
 * OUT receives ex, ey, hz. Prints (unless -q) the time of the steps, from
 * the first enqueue to clFinish, on one line:
 *   fdtd2d: WxH steps=S launches=L bytes=B ms=T
 */
#include "vast_example.h"

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 3, .sizes = { 1024, 1024, 20 } };
	vex_parse_args(&a, argc, argv, "[W [H [STEPS]]]");
	cl_uint w = (cl_uint)a.sizes[0], h = (cl_uint)a.sizes[1];
	size_t steps = a.sizes[2], n = (size_t)w * h, bytes = n * sizeof(float);
	if (w % 16 || h % 16)
		vex_die("W and H must be multiples of 16");

	float *host[3];
	vex_rng r = vex_rng_seed(12);
	for (int g = 0; g < 3; g++) {
		host[g] = vex_malloc(bytes);
		for (size_t i = 0; i < n; i++)
			host[g][i] = vex_randf(&r, -1, 1);
	}
	vex_cl cl;
	vex_init(&cl, a.quiet);
	char *path = vex_kernel_path(a.argv0, "fdtd2d.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel ky = vex_kernel(prog, "fdtd_ey"), kx = vex_kernel(prog, "fdtd_ex");
	cl_kernel kh = vex_kernel(prog, "fdtd_hz");
	cl_mem ex = vex_buffer(&cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, host[0]);
	cl_mem ey = vex_buffer(&cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, host[1]);
	cl_mem hz = vex_buffer(&cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, host[2]);
	VEX_ARG(ky, 0, ey);
	VEX_ARG(ky, 1, hz);
	VEX_ARG(ky, 2, w);
	VEX_ARG(ky, 3, h);
	VEX_ARG(kx, 0, ex);
	VEX_ARG(kx, 1, hz);
	VEX_ARG(kx, 2, w);
	VEX_ARG(kx, 3, h);
	VEX_ARG(kh, 0, ex);
	VEX_ARG(kh, 1, ey);
	VEX_ARG(kh, 2, hz);
	VEX_ARG(kh, 3, w);
	VEX_ARG(kh, 4, h);
	size_t local[2] = { 16, 16 }, global[2] = { w, h };
	double t = vex_now();
	for (size_t s = 0; s < steps; s++) {
		cl_float source = (cl_float)s;
		VEX_ARG(ky, 4, source);
		CHECK(clEnqueueNDRangeKernel(cl.queue, ky, 2, NULL, global, local, 0, NULL, NULL));
		CHECK(clEnqueueNDRangeKernel(cl.queue, kx, 2, NULL, global, local, 0, NULL, NULL));
		CHECK(clEnqueueNDRangeKernel(cl.queue, kh, 2, NULL, global, local, 0, NULL, NULL));
	}
	CHECK(clFinish(cl.queue));
	t = vex_now() - t;
	if (!a.quiet)
		fprintf(stderr, "fdtd2d: %ux%u steps=%zu launches=%zu bytes=%zu ms=%.3f\n", w, h,
		        steps, 3 * steps, 3 * bytes, t * 1e3);
	cl_mem all[] = { ex, ey, hz };
	vex_out o;
	vex_out_open(&o, a.out);
	for (int g = 0; g < 3; g++) {
		CHECK(clEnqueueReadBuffer(cl.queue, all[g], CL_TRUE, 0, bytes, host[g], 0, NULL, NULL));
		vex_out_write(&o, host[g], bytes);
	}
	vex_out_close(&o);
	for (int g = 0; g < 3; g++) {
		clReleaseMemObject(all[g]);
		free(host[g]);
	}
	clReleaseKernel(ky);
	clReleaseKernel(kx);
	clReleaseKernel(kh);
	clReleaseProgram(prog);
	vex_release(&cl);
	free(path);
	return 0;
}
