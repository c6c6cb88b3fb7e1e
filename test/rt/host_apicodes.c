/* SPDX-License-Identifier: MIT */
/*
 * host_apicodes.c - the codes OpenCL 1.2 requires where the runtime
 * answers for the driver: misuse of clCreateBuffer, clEnqueueReadBuffer,
 * the rectangle reads and writes, clSetKernelArg and clCreateKernel,
 * released and twice-released handles,
 * a destructor callback that calls OpenCL, and a kernel with more buffer
 * arguments than a launch can page. Writes one "what: code" line per case
 * (and the bytes a launch computed) to argv[1]; apicodes.sh compares them
 * with the plain build's.
 * Usage: host_apicodes OUT vadd.cl wide.cl [released]
 * With "released", only the released-handle cases run (see released()).
 */
#include <stdint.h>

#include "rt_host.h"

static FILE *out;
static int wrong;

static void say(const char *what, cl_int code)
{
	fprintf(out, "%s: %d\n", what, code);
}

static cl_program build(rt_cl *c, const char *path)
{
	size_t len;
	char *src = rt_read_file(path, &len);
	const char *s = src;
	cl_int err;
	cl_program p = clCreateProgramWithSource(c->ctx, 1, &s, &len, &err);
	CHECK(err);
	free(src);
	CHECK(clBuildProgram(p, 1, &c->dev, "-D UNUSED=1", NULL, NULL));
	return p;
}

/* A destructor callback (§5.4.1) may call OpenCL itself. */
static cl_mem dtor_other;
static cl_int dtor_code = 1;

static void CL_CALLBACK dtor(cl_mem m, void *ran)
{
	(void)m;
	++*(int *)ran;
	dtor_code = clReleaseMemObject(dtor_other);
}

static void destructor(rt_cl *c)
{
	cl_int err;
	cl_mem a = clCreateBuffer(c->ctx, CL_MEM_READ_WRITE, 16, NULL, &err);
	CHECK(err);
	dtor_other = clCreateBuffer(c->ctx, CL_MEM_READ_WRITE, 16, NULL, &err);
	CHECK(err);
	int ran = 0;
	CHECK(clSetMemObjectDestructorCallback(a, dtor, &ran));
	say("release with a destructor", clReleaseMemObject(a));
	say("  destructor ran", ran);
	say("  its release of another buffer", dtor_code);
}

/* OpenCL 1.2 §5.2.1 clCreateBuffer errors. */
static void buffers(rt_cl *c)
{
	cl_int err;
	int host[4] = { 0 };
	cl_mem m = clCreateBuffer(c->ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 16, NULL, &err);
	say("read-only and write-only", err);
	say("  handle", m != NULL);
	m = clCreateBuffer(c->ctx, CL_MEM_READ_WRITE, sizeof host, host, &err);
	say("host pointer without USE/COPY_HOST_PTR", err);
	m = clCreateBuffer(c->ctx, CL_MEM_READ_WRITE, (size_t)1 << 62, NULL, &err);
	say("impossible size", err);
	say("  handle", m != NULL);
}

/* §5.2.2: a read needs a valid queue; §5.7.2: a scalar takes its size. */
static void queue_and_args(rt_cl *c, cl_program vadd)
{
	cl_int err;
	int host[4] = { 1, 2, 3, 4 };
	cl_mem m = clCreateBuffer(c->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof host, host, &err);
	CHECK(err);
	say("read with a NULL queue", clEnqueueReadBuffer(NULL, m, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL));
	cl_kernel k = clCreateKernel(vadd, "vadd", &err);
	CHECK(err);
	uint64_t eight = 7;
	say("8-byte value for a uint", clSetKernelArg(k, 3, sizeof eight, &eight));
	say("buffer for a uint", clSetKernelArg(k, 3, sizeof m, &m));
	say("buffer for a buffer", clSetKernelArg(k, 0, sizeof m, &m));
	CHECK(clReleaseKernel(k));
	CHECK(clReleaseMemObject(m));
}

/* §5.2.2 clEnqueueRead/WriteBufferRect: a NULL pointer or origin, an
 * empty region, a rectangle past the buffer (or whose end wraps) and
 * pitches too small for the region are CL_INVALID_VALUE; zero pitches
 * mean tightly packed; the bytes of a write then a read. */
static void rects(rt_cl *c)
{
	cl_int err;
	int host[4][4], back[4][4] = { { 0 } };
	for (int i = 0; i < 16; i++)
		host[i / 4][i % 4] = i;
	cl_mem m = clCreateBuffer(c->ctx, CL_MEM_READ_WRITE, sizeof host, NULL, &err);
	CHECK(err);
	size_t zero[3] = { 0, 0, 0 }, at[3] = { sizeof(int), 1, 0 };
	size_t whole[3] = { sizeof host[0], 4, 1 }, inner[3] = { 2 * sizeof(int), 2, 1 };
	size_t empty[3] = { sizeof(int), 0, 1 }, past[3] = { sizeof host[0], 5, 1 };
	say("write rect", clEnqueueWriteBufferRect(c->q, m, CL_TRUE, zero, zero, whole, 0, 0, 0, 0,
	                                           host, 0, NULL, NULL));
	say("write rect NULL pointer", clEnqueueWriteBufferRect(c->q, m, CL_TRUE, zero, zero, whole,
	                                                        0, 0, 0, 0, NULL, 0, NULL, NULL));
	say("write rect empty region", clEnqueueWriteBufferRect(c->q, m, CL_TRUE, zero, zero, empty,
	                                                        0, 0, 0, 0, host, 0, NULL, NULL));
	say("write rect past the buffer", clEnqueueWriteBufferRect(c->q, m, CL_TRUE, at, zero, whole,
	                                                           sizeof host[0], 0, 0, 0, host, 0,
	                                                           NULL, NULL));
	say("read rect NULL origin", clEnqueueReadBufferRect(c->q, m, CL_TRUE, NULL, zero, whole, 0, 0,
	                                                     0, 0, back, 0, NULL, NULL));
	say("read rect past the buffer", clEnqueueReadBufferRect(c->q, m, CL_TRUE, zero, zero, past, 0,
	                                                         0, 0, 0, back, 0, NULL, NULL));
	say("read rect NULL queue", clEnqueueReadBufferRect(NULL, m, CL_TRUE, zero, zero, whole, 0, 0,
	                                                    0, 0, back, 0, NULL, NULL));
	/* An origin whose end wraps past SIZE_MAX, and pitches §5.2.2 rules
	 * out (a row pitch under region[0], a slice pitch under region[1]
	 * rows or not a multiple of the row pitch): CL_INVALID_VALUE, no
	 * byte moved. */
	size_t wrap[3] = { SIZE_MAX - 15, 0, 0 }, row[3] = { 16, 1, 1 }, two[3] = { 8, 2, 1 };
	say("read rect origin wrapping", clEnqueueReadBufferRect(c->q, m, CL_TRUE, wrap, zero, row, 0,
	                                                         0, 0, 0, back, 0, NULL, NULL));
	say("write rect origin wrapping", clEnqueueWriteBufferRect(c->q, m, CL_TRUE, wrap, zero, row,
	                                                           0, 0, 0, 0, host, 0, NULL, NULL));
	say("write rect row pitch under the region",
	    clEnqueueWriteBufferRect(c->q, m, CL_TRUE, zero, zero, row, 4, 0, 0, 0, host, 0, NULL,
	                             NULL));
	say("read rect host row pitch under the region",
	    clEnqueueReadBufferRect(c->q, m, CL_TRUE, zero, zero, row, 0, 0, 4, 0, back, 0, NULL,
	                            NULL));
	say("read rect slice pitch under its rows",
	    clEnqueueReadBufferRect(c->q, m, CL_TRUE, zero, zero, two, 8, 12, 0, 0, back, 0, NULL,
	                            NULL));
	say("write rect slice pitch not a multiple of the row pitch",
	    clEnqueueWriteBufferRect(c->q, m, CL_TRUE, zero, zero, two, 8, 20, 0, 0, host, 0, NULL,
	                             NULL));
	/* Rows 1-2, columns 1-2 of the buffer into the same place of back. */
	say("read rect", clEnqueueReadBufferRect(c->q, m, CL_TRUE, at, at, inner, sizeof host[0], 0,
	                                         sizeof back[0], 0, back, 0, NULL, NULL));
	for (int i = 0; i < 4; i++)
		fprintf(out, "  row %d: %d %d %d %d\n", i, back[i][0], back[i][1], back[i][2], back[i][3]);
	CHECK(clReleaseMemObject(m));
}

/* Only the program's own kernels exist (§5.7.1 CL_INVALID_KERNEL_NAME). */
static void kernel_names(cl_program vadd)
{
	cl_int err;
	cl_kernel k = clCreateKernel(vadd, "vast_paged_vadd", &err);
	say("generated kernel name", err);
	say("  handle", k != NULL);
	size_t nk = 0;
	CHECK(clGetProgramInfo(vadd, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL));
	say("kernels", (cl_int)nk);
	char names[256] = "";
	CHECK(clGetProgramInfo(vadd, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL));
	fprintf(out, "kernel names: %s\n", names);
	cl_kernel ks[8];
	cl_uint nret = 0;
	CHECK(clCreateKernelsInProgram(vadd, 8, ks, &nret));
	say("kernels in program", (cl_int)nret);
	for (cl_uint i = 0; i < nret; i++)
		CHECK(clReleaseKernel(ks[i]));
}

/* A kernel with 33 buffer arguments whose data fits runs natively. */
static void wide(rt_cl *c, cl_program p)
{
	enum { N = 1024, NA = 32 };
	cl_int err;
	cl_kernel k = clCreateKernel(p, "wide", &err);
	CHECK(err);
	cl_mem in[NA], res;
	int *h = malloc(N * sizeof *h);
	if (!h)
		exit(1);
	for (cl_uint a = 0; a < NA; a++) {
		for (int i = 0; i < N; i++)
			h[i] = i * (int)(a + 1);
		in[a] = clCreateBuffer(c->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof *h, h, &err);
		CHECK(err);
		CHECK(clSetKernelArg(k, a, sizeof in[a], &in[a]));
	}
	res = clCreateBuffer(c->ctx, CL_MEM_WRITE_ONLY, N * sizeof *h, NULL, &err);
	CHECK(err);
	CHECK(clSetKernelArg(k, NA, sizeof res, &res));
	size_t g = N;
	say("33 buffer arguments", clEnqueueNDRangeKernel(c->q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
	memset(h, 0, N * sizeof *h);
	CHECK(clEnqueueReadBuffer(c->q, res, CL_TRUE, 0, N * sizeof *h, h, 0, NULL, NULL));
	rt_write(out, h, N * sizeof *h);
	fputc('\n', out);
	for (cl_uint a = 0; a < NA; a++)
		CHECK(clReleaseMemObject(in[a]));
	CHECK(clReleaseMemObject(res));
	CHECK(clReleaseKernel(k));
	free(h);
}

/* Handles used after their last release. OpenCL 1.2 names the code
 * (§5.4.1, §5.6.1, §5.7.1: not a valid object) but drivers read freed
 * memory (PoCL crashes), so there is nothing to compare with: the runtime,
 * which answers from its own records, must give the spec's code. */
static void want(const char *what, cl_int code, cl_int spec)
{
	say(what, code);
	if (code != spec) {
		fprintf(stderr, "%s: %d, OpenCL 1.2 says %d\n", what, code, spec);
		wrong = 1;
	}
}

static void released(cl_program vadd, cl_program wp)
{
	cl_int err;
	cl_context ctx;
	CHECK(clGetProgramInfo(vadd, CL_PROGRAM_CONTEXT, sizeof ctx, &ctx, NULL));
	cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
	CHECK(err);
	CHECK(clReleaseMemObject(m));
	want("buffer released twice", clReleaseMemObject(m), CL_INVALID_MEM_OBJECT);
	cl_kernel k = clCreateKernel(vadd, "evens", &err);
	CHECK(err);
	CHECK(clReleaseKernel(k));
	cl_uint n = 4;
	want("argument of a released kernel", clSetKernelArg(k, 1, sizeof n, &n), CL_INVALID_KERNEL);
	want("kernel released twice", clReleaseKernel(k), CL_INVALID_KERNEL);
	CHECK(clReleaseProgram(wp));
	k = clCreateKernel(wp, "wide", &err);
	want("kernel of a released program", err, CL_INVALID_PROGRAM);
	want("  handle", k != NULL, 0);
	want("program released twice", clReleaseProgram(wp), CL_INVALID_PROGRAM);
}

int main(int argc, char **argv)
{
	if (argc < 4)
		return 2;
	out = fopen(argv[1], "w");
	if (!out) {
		perror(argv[1]);
		return 1;
	}
	rt_cl c;
	rt_setup(&c, argv[2], "-D UNUSED=1");
	cl_program wp = build(&c, argv[3]);
	if (argc > 4 && !strcmp(argv[4], "released")) {
		released(c.prog, wp);
		rt_teardown(&c);
		fclose(out);
		return wrong;
	}
	buffers(&c);
	destructor(&c);
	queue_and_args(&c, c.prog);
	rects(&c);
	kernel_names(c.prog);
	wide(&c, wp);
	/* Not compared: the driver compiles, the runtime refuses (its
	 * program is not the driver's); either way no crash. */
	cl_int err = clCompileProgram(wp, 1, &c.dev, "", 0, NULL, NULL, NULL, NULL);
	fprintf(stderr, "clCompileProgram: %d\n", err);
	CHECK(clReleaseProgram(wp));
	rt_teardown(&c);
	if (fclose(out)) {
		perror(argv[1]);
		return 1;
	}
	return 0;
}
