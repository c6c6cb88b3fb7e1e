/* SPDX-License-Identifier: MIT */
/*
 * splitpaths - for test/e2e/splitpaths.sh: the paths that take a buffer's
 * bytes from where split launches left them (docs/multi.md, "Resident
 * shares"). Buffers of N floats, kernels on work-groups of LWS, each
 * kernel launched once so that it splits equally (splitpaths.cl).
 * usage: splitpaths SCENARIO OUT
 *
 * stale: y is written whole (its device copy, no host copy), then inc
 * updates its first half on two devices (replicas; the device copy is
 * stale there, current on the rest), then two splits of other buffers
 * need the room of y's replicas on both devices (written home: the host
 * copy holds y's first half only), then gather, one work-group on its own
 * device, reads all of y from its device copy: the first half must come
 * from the host copy, the second stay the device copy's own.
 *
 * poke: as stale, then the host writes 4 KiB of y's first half, which go
 * to its device copy (the only one holding all of y): the host copy's
 * bytes there are stale, and y read whole must not keep them.
 *
 * uhpwrite: y over the program's memory (CL_MEM_USE_HOST_PTR), inc
 * leaves it on the devices; the program puts new bytes in 4 KiB of that
 * memory and writes them from there (OpenCL 1.2 §5.2.2: "the latest
 * bits" of the region), then reads y into other memory: the rest of y
 * comes home, never over those bytes.
 *
 * once: y = 3a + b, read: a split launch, nothing else.
 *
 * grow: inc over y's first half, then dec over all of it: the second
 * device's window of y and a moves past the replica it has (a replica
 * only grows), which would hold more than its budget.
 *
 * relay: y of 2 * RELAY_HALF floats (56 MB), scale over all of it (each
 * device scales its half), then flip, which reads and writes y[n-1-i]:
 * each device's window is the half the other one wrote, so each half
 * moves between the two devices' contexts (the program's, a runtime
 * context of its own), more bytes than the pinned relay's chunks hold
 * together, and not a whole number of them.
 */
#include "rt_host.h"

#define N 16384
#define LWS 1024
/* relay's half of y: 26.5 MiB, 27137 work-groups of RELAY_LWS */
#define RELAY_HALF (27137 * 256)
#define RELAY_LWS 256

static rt_cl c;

static void run_at(const char *name, size_t goff, size_t gws, cl_uint nargs, const cl_mem *m)
{
	cl_int err;
	cl_kernel k = clCreateKernel(c.prog, name, &err);
	CHECK(err);
	for (cl_uint i = 0; i < nargs; i++)
		CHECK(clSetKernelArg(k, i, sizeof m[i], &m[i]));
	size_t lws = LWS;
	CHECK(clEnqueueNDRangeKernel(c.q, k, 1, &goff, &gws, &lws, 0, NULL, NULL));
	CHECK(clReleaseKernel(k));
}

static void run(const char *name, size_t gws, cl_uint nargs, const cl_mem *m)
{
	run_at(name, 0, gws, nargs, m);
}

static cl_mem buffer(const float *init)
{
	cl_int err;
	cl_mem m = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0),
	                          N * sizeof(float), (void *)init, &err);
	CHECK(err);
	return m;
}

/* z = y[i * stride] + y[i * stride + stride / 2], 64 of them: all of y. */
static void gather(cl_mem y, FILE *out)
{
	static float hz[64];
	cl_int err;
	cl_mem z = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE, sizeof hz, NULL, &err);
	CHECK(err);
	cl_kernel k = clCreateKernel(c.prog, "gather", &err);
	CHECK(err);
	cl_uint stride = N / 64;
	size_t n64 = 64;
	CHECK(clSetKernelArg(k, 0, sizeof y, &y));
	CHECK(clSetKernelArg(k, 1, sizeof z, &z));
	CHECK(clSetKernelArg(k, 2, sizeof stride, &stride));
	CHECK(clEnqueueNDRangeKernel(c.q, k, 1, NULL, &n64, &n64, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(c.q, z, CL_TRUE, 0, sizeof hz, hz, 0, NULL, NULL));
	rt_write(out, hz, sizeof hz);
	CHECK(clReleaseKernel(k));
	CHECK(clReleaseMemObject(z));
}

static void stale(FILE *out, int poke)
{
	static float ha[N], hy[N];
	for (int i = 0; i < N; i++) {
		ha[i] = (float)(i % 1009);
		hy[i] = (float)(i % 77) + 1.0f;
	}
	cl_mem a = buffer(ha), y = buffer(NULL), f = buffer(ha), g = buffer(NULL);
	cl_mem p = buffer(ha), q = buffer(ha), r = buffer(NULL);
	CHECK(clEnqueueWriteBuffer(c.q, y, CL_TRUE, 0, sizeof hy, hy, 0, NULL, NULL));
	run("inc", N / 2, 2, (cl_mem[]){ y, a });
	run("twice", N, 2, (cl_mem[]){ f, g });
	run("axpb", N, 3, (cl_mem[]){ p, q, r });
	gather(y, out);
	if (poke) {
		static const float hp[1024] = { 42.0f, 43.0f };
		CHECK(clEnqueueWriteBuffer(c.q, y, CL_TRUE, 4096, sizeof hp, hp, 0, NULL, NULL));
	}
	CHECK(clEnqueueReadBuffer(c.q, y, CL_TRUE, 0, sizeof hy, hy, 0, NULL, NULL));
	rt_write(out, hy, sizeof hy);
	cl_mem all[] = { a, y, f, g, p, q, r };
	for (size_t i = 0; i < sizeof all / sizeof *all; i++)
		CHECK(clReleaseMemObject(all[i]));
}

static void uhpwrite(FILE *out)
{
	static float ha[N], hy[N], got[N];
	for (int i = 0; i < N; i++) {
		ha[i] = (float)(i % 1009);
		hy[i] = (float)(i % 77);
	}
	cl_int err;
	cl_mem a = buffer(ha);
	cl_mem y = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, sizeof hy, hy, &err);
	CHECK(err);
	run("inc", N, 2, (cl_mem[]){ y, a });
	CHECK(clFinish(c.q)); /* before the program touches its memory */
	for (int i = 0; i < 1024; i++)
		hy[3000 + i] = -1.0f - (float)i;
	CHECK(clEnqueueWriteBuffer(c.q, y, CL_TRUE, 3000 * sizeof(float), 4096, hy + 3000, 0, NULL,
	                           NULL));
	CHECK(clEnqueueReadBuffer(c.q, y, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
	rt_write(out, got, sizeof got);
	CHECK(clReleaseMemObject(a));
	CHECK(clReleaseMemObject(y));
}

static void once(FILE *out)
{
	static float ha[N], hb[N], hy[N];
	for (int i = 0; i < N; i++) {
		ha[i] = (float)(i % 1009);
		hb[i] = (float)((i * 7) % 113);
	}
	cl_mem a = buffer(ha), b = buffer(hb), y = buffer(NULL);
	run("axpb", N, 3, (cl_mem[]){ a, b, y });
	CHECK(clEnqueueReadBuffer(c.q, y, CL_TRUE, 0, sizeof hy, hy, 0, NULL, NULL));
	rt_write(out, hy, sizeof hy);
	cl_mem all[] = { a, b, y };
	for (size_t i = 0; i < sizeof all / sizeof *all; i++)
		CHECK(clReleaseMemObject(all[i]));
}

static void grow(FILE *out)
{
	static float ha[N], hy[N];
	for (int i = 0; i < N; i++) {
		ha[i] = (float)(i % 1009);
		hy[i] = (float)(i % 77) + 1.0f;
	}
	cl_mem a = buffer(ha), y = buffer(hy);
	run("inc", N / 2, 2, (cl_mem[]){ y, a });
	run("dec", N, 2, (cl_mem[]){ y, a });
	CHECK(clEnqueueReadBuffer(c.q, y, CL_TRUE, 0, sizeof hy, hy, 0, NULL, NULL));
	rt_write(out, hy, sizeof hy);
	CHECK(clReleaseMemObject(a));
	CHECK(clReleaseMemObject(y));
}

static void relay(FILE *out)
{
	size_t n = 2 * (size_t)RELAY_HALF, lws = RELAY_LWS;
	float *hy = malloc(n * sizeof *hy);
	if (!hy)
		exit(1);
	for (size_t i = 0; i < n; i++)
		hy[i] = (float)(i % 1013) - 500.0f;
	cl_int err;
	cl_mem y = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof *hy,
	                          hy, &err);
	CHECK(err);
	cl_uint nu = (cl_uint)n;
	const char *names[2] = { "scale", "flip" };
	for (int l = 0; l < 2; l++) {
		cl_kernel k = clCreateKernel(c.prog, names[l], &err);
		CHECK(err);
		CHECK(clSetKernelArg(k, 0, sizeof y, &y));
		CHECK(clSetKernelArg(k, 1, sizeof nu, &nu));
		CHECK(clEnqueueNDRangeKernel(c.q, k, 1, NULL, &n, &lws, 0, NULL, NULL));
		CHECK(clReleaseKernel(k));
	}
	CHECK(clEnqueueReadBuffer(c.q, y, CL_TRUE, 0, n * sizeof *hy, hy, 0, NULL, NULL));
	rt_write(out, hy, n * sizeof *hy);
	CHECK(clReleaseMemObject(y));
	free(hy);
}

static void runtable(FILE *out)
{
	static float ha[N], hy[N];
	for (int i = 0; i < N; i++) {
		ha[i] = (float)(i % 1009);
		hy[i] = (float)(i % 77);
	}
	cl_mem a = buffer(ha), y = buffer(hy);
	run("inc", N, 2, (cl_mem[]){ y, a });
	run_at("addh", N / 2, N / 2, 2, (cl_mem[]){ y, a });
	CHECK(clEnqueueReadBuffer(c.q, y, CL_TRUE, 0, sizeof hy, hy, 0, NULL, NULL));
	rt_write(out, hy, sizeof hy);
	CHECK(clReleaseMemObject(a));
	CHECK(clReleaseMemObject(y));
}

static void twoctx(FILE *out, int room)
{
	static float ha[N], hy[N];
	for (int i = 0; i < N; i++) {
		ha[i] = (float)(i % 1009);
		hy[i] = (float)(i % 77);
	}
	cl_device_id dev[2];
	cl_uint nd = 0;
	cl_int err;
	CHECK(clGetDeviceIDs(c.plat, CL_DEVICE_TYPE_ALL, 2, dev, &nd));
	if (nd < 2)
		exit(3);
	cl_context ctx = clCreateContext(NULL, 2, dev, NULL, NULL, &err);
	CHECK(err);
	cl_command_queue q[2];
	for (int d = 0; d < 2; d++) {
		q[d] = clCreateCommandQueue(ctx, dev[d], 0, &err);
		CHECK(err);
	}
	size_t len;
	char *text = rt_read_file("splitpaths.cl", &len);
	const char *t = text;
	cl_program prog = clCreateProgramWithSource(ctx, 1, &t, &len, &err);
	CHECK(err);
	free(text);
	CHECK(clBuildProgram(prog, 2, dev, NULL, NULL, NULL));
	cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof ha, ha, &err);
	CHECK(err);
	cl_mem y = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof hy, hy, &err);
	CHECK(err);
	const char *names[2] = { "inc", "dec" };
	size_t goff[2] = { 0, N / 2 }, gws[2] = { N, N / 2 }, lws = LWS;
	for (int d = 0; d < 2; d++) {
		if (d == 1 && room) {
			rt_cl own = c;
			c.ctx = ctx;
			c.q = q[1];
			c.prog = prog;
			cl_mem w = buffer(ha);
			gather(w, out);
			CHECK(clReleaseMemObject(w));
			c = own;
			break;
		}
		cl_kernel k = clCreateKernel(prog, names[d], &err);
		CHECK(err);
		CHECK(clSetKernelArg(k, 0, sizeof y, &y));
		CHECK(clSetKernelArg(k, 1, sizeof a, &a));
		CHECK(clEnqueueNDRangeKernel(q[d], k, 1, &goff[d], &gws[d], &lws, 0, NULL, NULL));
		CHECK(clFinish(q[d]));
		CHECK(clReleaseKernel(k));
	}
	CHECK(clEnqueueReadBuffer(q[0], y, CL_TRUE, 0, sizeof hy, hy, 0, NULL, NULL));
	rt_write(out, hy, sizeof hy);
	CHECK(clReleaseMemObject(a));
	CHECK(clReleaseMemObject(y));
	CHECK(clReleaseProgram(prog));
	for (int d = 0; d < 2; d++)
		CHECK(clReleaseCommandQueue(q[d]));
	CHECK(clReleaseContext(ctx));
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	int table = !strcmp(argv[1], "runtable");
	rt_setup(&c, table ? "runtable.cl" : "splitpaths.cl", NULL);
	FILE *out = fopen(argv[2], "wb");
	if (!out)
		return 1;
	if (!strcmp(argv[1], "stale") || !strcmp(argv[1], "poke"))
		stale(out, !strcmp(argv[1], "poke"));
	else if (!strcmp(argv[1], "uhpwrite"))
		uhpwrite(out);
	else if (!strcmp(argv[1], "once"))
		once(out);
	else if (!strcmp(argv[1], "grow"))
		grow(out);
	else if (!strcmp(argv[1], "relay"))
		relay(out);
	else if (table)
		runtable(out);
	else if (!strcmp(argv[1], "twoctx") || !strcmp(argv[1], "tworoom"))
		twoctx(out, !strcmp(argv[1], "tworoom"));
	else
		return 2;
	if (fclose(out) != 0)
		return 1;
	rt_teardown(&c);
	return 0;
}
