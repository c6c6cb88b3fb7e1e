/* SPDX-License-Identifier: MIT */
/*
 * fill - one way of creating, filling and reading back buffers, timed
 * whole, to compare a build with cc against one with vastcc (issue 8
 * item 5: the native path as fast as cc).
 *
 * usage: fill CREATE READ BYTES
 *   CREATE  write  plain buffers, input sent with clEnqueueWriteBuffer
 *           copy   input buffer made with CL_MEM_COPY_HOST_PTR
 *           use    both buffers CL_MEM_USE_HOST_PTR over the program's arrays
 *           alloc  both CL_MEM_ALLOC_HOST_PTR; input written through a map
 *           fill   plain buffers, input filled with clEnqueueFillBuffer
 *           dup    plain buffers, input written into a third buffer and
 *                  copied over with clEnqueueCopyBuffer
 *   READ    read   output read back with clEnqueueReadBuffer (for `use`,
 *                  into the buffer's own host pointer)
 *           map    output mapped for reading, then unmapped
 *   BYTES   input plus output (K/M/G), half each
 * Times everything from the first clCreateBuffer to the output on the
 * host (the program's build is not timed), checks a sample of the output
 * against the host's arithmetic (exit 1 on a mismatch), and prints
 * "fill: create=C read=R bytes=B create_s=X run_s=Y read_s=Z seconds=S":
 * the phases up to the buffers filled (a clFinish), the kernel (another),
 * and the read or map, then their sum.
 */
#include "vast_example.h"

static size_t parse_bytes(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 0);
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	}
	if (*end || v < 8)
		vex_die("bad size '%s'", s);
	return (size_t)v;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: %s write|copy|use|alloc|fill|dup read|map BYTES\n", argv[0]);
		return 2;
	}
	const char *create = argv[1], *read = argv[2];
	int use = !strcmp(create, "use"), alloc = !strcmp(create, "alloc");
	int fill = !strcmp(create, "fill"), dup = !strcmp(create, "dup");
	int map = !strcmp(read, "map");
	if ((!use && !alloc && !fill && !dup && strcmp(create, "write") && strcmp(create, "copy")) ||
	    (!map && strcmp(read, "read")))
		vex_die("unknown way '%s %s'", create, read);
	size_t n = parse_bytes(argv[3]) / 2 / sizeof(float);
	size_t bytes = n * sizeof(float);

	float *x = vex_malloc(bytes), *y = vex_malloc(bytes);
	const float fill_value = 3.25f;
	for (size_t i = 0; i < n; i++)
		x[i] = fill ? fill_value : (float)(i % 4093) * 0.25f;
	memset(y, 0, bytes);

	vex_cl cl;
	vex_init(&cl, 1);
	char *path = vex_kernel_path(argv[0], "fill.cl", NULL);
	cl_program prog = vex_build(&cl, path, NULL);
	cl_kernel k = vex_kernel(prog, "scale");

	double t = vex_now();
	cl_mem dx, dy, dz = NULL;
	cl_int err;
	if (use) {
		dx = vex_buffer(&cl, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, bytes, x);
		dy = vex_buffer(&cl, CL_MEM_WRITE_ONLY | CL_MEM_USE_HOST_PTR, bytes, y);
	} else if (alloc) {
		dx = vex_buffer(&cl, CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR, bytes, NULL);
		dy = vex_buffer(&cl, CL_MEM_WRITE_ONLY | CL_MEM_ALLOC_HOST_PTR, bytes, NULL);
		void *p = clEnqueueMapBuffer(cl.queue, dx, CL_TRUE, CL_MAP_WRITE, 0, bytes, 0,
		                             NULL, NULL, &err);
		CHECK_ERR(err, "clEnqueueMapBuffer");
		memcpy(p, x, bytes);
		CHECK(clEnqueueUnmapMemObject(cl.queue, dx, p, 0, NULL, NULL));
	} else if (fill) {
		dx = vex_buffer(&cl, CL_MEM_READ_ONLY, bytes, NULL);
		dy = vex_buffer(&cl, CL_MEM_WRITE_ONLY, bytes, NULL);
		CHECK(clEnqueueFillBuffer(cl.queue, dx, &fill_value, sizeof fill_value, 0, bytes, 0,
		                          NULL, NULL));
	} else if (dup) {
		dx = vex_buffer(&cl, CL_MEM_READ_ONLY, bytes, NULL);
		dy = vex_buffer(&cl, CL_MEM_WRITE_ONLY, bytes, NULL);
		dz = vex_buffer(&cl, CL_MEM_READ_WRITE, bytes, NULL);
		CHECK(clEnqueueWriteBuffer(cl.queue, dz, CL_FALSE, 0, bytes, x, 0, NULL, NULL));
		CHECK(clEnqueueCopyBuffer(cl.queue, dz, dx, 0, 0, bytes, 0, NULL, NULL));
	} else if (!strcmp(create, "copy")) {
		dx = vex_buffer(&cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, x);
		dy = vex_buffer(&cl, CL_MEM_WRITE_ONLY, bytes, NULL);
	} else {
		dx = vex_buffer(&cl, CL_MEM_READ_ONLY, bytes, NULL);
		dy = vex_buffer(&cl, CL_MEM_WRITE_ONLY, bytes, NULL);
		CHECK(clEnqueueWriteBuffer(cl.queue, dx, CL_FALSE, 0, bytes, x, 0, NULL, NULL));
	}
	CHECK(clFinish(cl.queue));
	double t_created = vex_now();
	VEX_ARG(k, 0, dx);
	VEX_ARG(k, 1, dy);
	size_t global = n;
	CHECK(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &global, NULL, 0, NULL, NULL));
	CHECK(clFinish(cl.queue));
	double t_ran = vex_now();
	const float *out = y;
	void *mapped = NULL;
	if (map) {
		mapped = clEnqueueMapBuffer(cl.queue, dy, CL_TRUE, CL_MAP_READ, 0, bytes, 0, NULL,
		                            NULL, &err);
		CHECK_ERR(err, "clEnqueueMapBuffer");
		out = mapped;
	} else {
		CHECK(clEnqueueReadBuffer(cl.queue, dy, CL_TRUE, 0, bytes, y, 0, NULL, NULL));
	}
	double t_end = vex_now();
	double create_s = t_created - t, run_s = t_ran - t_created, read_s = t_end - t_ran;
	t = t_end - t;

	size_t step = n / 4099 + 1;
	for (size_t i = 0; i < n; i += step)
		if (out[i] != x[i] * 2.0f + 1.0f)
			vex_die("fill: element %zu is %g, want %g", i, out[i], x[i] * 2.0f + 1.0f);
	if (mapped)
		CHECK(clEnqueueUnmapMemObject(cl.queue, dy, mapped, 0, NULL, NULL));
	printf("fill: create=%s read=%s bytes=%zu create_s=%.6f run_s=%.6f read_s=%.6f seconds=%.6f\n",
	       create, read, 2 * bytes, create_s, run_s, read_s, t);
	CHECK(clReleaseMemObject(dx));
	CHECK(clReleaseMemObject(dy));
	if (dz)
		CHECK(clReleaseMemObject(dz));
	CHECK(clReleaseKernel(k));
	CHECK(clReleaseProgram(prog));
	vex_release(&cl);
	free(path);
	free(x);
	free(y);
	return 0;
}
