/* SPDX-License-Identifier: MIT */
/*
 * repeat - one small launch repeated: the host-side cost of a launch
 * (issue 10: "cached-plan launch overhead <= 50 us"; bench/overhead).
 * Launches bump (repeat.cl) over N floats LAUNCHES times, the same
 * arguments every time, after one launch that is not timed (it makes the
 * plan and fills the device), then clFinish.
 * usage: repeat [-q] [-o OUT] [-k repeat.cl] [N [LAUNCHES]]
 * Defaults N = 256K (1 MiB a buffer), 1000 launches; N a multiple of 64.
 * Prints (unless -q) one line:
 *   repeat: n=N launches=L ms=T event_kernel_ms=K
 * T: from the first timed enqueue to clFinish. With REPEAT_PROFILE=1 in
 * the environment every timed launch asks for an event and K is the sum
 * of their END - START (OpenCL 1.2 §5.12), the kernels' own time on a
 * plain driver (under vastcc's runtime an event spans its whole command:
 * bench/overhead/run.sh takes the kernels' time from VAST_STATS=kv2 there,
 * and asks for no events, as an iterative program does not); else 0.
 * OUT receives `out`.
 */
#include "vast_example.h"

int main(int argc, char **argv)
{
	vex_args a = { .nsizes = 2, .sizes = { 256 << 10, 1000 } };
	vex_parse_args(&a, argc, argv, "[N [LAUNCHES]]");
	size_t n = a.sizes[0], launches = a.sizes[1], bytes = n * sizeof(float);
	if (n % 64)
		vex_die("N must be a multiple of 64");
	float *h = vex_malloc(bytes);
	vex_rng r = vex_rng_seed(7);
	for (size_t i = 0; i < n; i++)
		h[i] = vex_randf(&r, 0, 100);
	vex_cl cl;
	cl_int err;
	vex_init(&cl, a.quiet);
	cl_command_queue q = clCreateCommandQueue(cl.ctx, cl.device, CL_QUEUE_PROFILING_ENABLE,
	                                          &err);
	CHECK_ERR(err, "clCreateCommandQueue");
	char *path = vex_kernel_path(a.argv0, "repeat.cl", a.kernel);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel k = vex_kernel(prog, "bump");
	cl_mem in = vex_buffer(&cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, h);
	cl_mem out = vex_buffer(&cl, CL_MEM_WRITE_ONLY, bytes, NULL);
	VEX_ARG(k, 0, in);
	VEX_ARG(k, 1, out);
	size_t local = 64;
	CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &local, 0, NULL, NULL));
	CHECK(clFinish(q));
	const char *prof = getenv("REPEAT_PROFILE");
	cl_event *ev = prof && !strcmp(prof, "1") ? vex_malloc(launches * sizeof *ev) : NULL;
	double t = vex_now();
	for (size_t i = 0; i < launches; i++)
		CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &local, 0, NULL, ev ? &ev[i] : NULL));
	CHECK(clFinish(q));
	t = vex_now() - t;
	double kernel_ns = 0;
	for (size_t i = 0; ev && i < launches; i++) {
		cl_ulong t0 = 0, t1 = 0;
		CHECK(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL));
		CHECK(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL));
		kernel_ns += t1 > t0 ? (double)(t1 - t0) : 0;
		clReleaseEvent(ev[i]);
	}
	if (!a.quiet)
		fprintf(stderr, "repeat: n=%zu launches=%zu ms=%.3f event_kernel_ms=%.3f\n", n,
		        launches, t * 1e3, kernel_ns / 1e6);
	CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, bytes, h, 0, NULL, NULL));
	vex_write_output(a.out, h, bytes);
	clReleaseMemObject(in);
	clReleaseMemObject(out);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	clReleaseCommandQueue(q);
	vex_release(&cl);
	free(ev);
	free(path);
	free(h);
	return 0;
}
