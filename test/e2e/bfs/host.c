/* SPDX-License-Identifier: MIT */
/*
 * bfs - one kernel of bfs.cl, written as a program that does not know
 * vastcc: one buffer per array, blocking calls, the result written to OUT.
 * usage: bfs edges|csr|stamp OUT
 *   edges, csr: BFS levels from node 0 of a random graph of NODES nodes and
 *   DEG edges each (most to a node at most BAND ahead, some anywhere), a
 *   launch per level until one changes nothing; OUT: the levels, then the
 *   number of levels.
 *   stamp: WORDS words, a third of them set, stamped through a permutation
 *   that interleaves each block of BLOCK words; OUT: the words.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(x)                                                              \
	do {                                                                  \
		cl_int e_ = (x);                                              \
		if (e_ != CL_SUCCESS) {                                       \
			fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, e_); \
			exit(1);                                              \
		}                                                             \
	} while (0)

enum { NODES = 4688 * 64, /* a multiple of the work-group */ DEG = 4, BAND = 4096, WORDS = 1 << 20, BLOCK = 12000 };

static cl_context ctx;

static unsigned rnd(unsigned long long *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)(*s >> 33);
}

static cl_mem buffer(cl_mem_flags fl, size_t n, const unsigned *v)
{
	cl_int err;
	cl_mem m = clCreateBuffer(ctx, fl | CL_MEM_COPY_HOST_PTR, n * 4, (void *)v, &err);
	CHECK(err);
	return m;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n);
	if (!p) {
		fprintf(stderr, "bfs: out of memory\n");
		exit(1);
	}
	return p;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: bfs edges|csr|stamp OUT\n");
		return 2;
	}
	const char *name = argv[1];
	cl_platform_id plat;
	cl_device_id dev;
	cl_int err;
	CHECK(clGetPlatformIDs(1, &plat, NULL));
	CHECK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
	ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	CHECK(err);
	cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
	CHECK(err);

	FILE *f = fopen("bfs.cl", "r");
	if (!f)
		return 1;
	static char src[16384];
	size_t len = fread(src, 1, sizeof src - 1, f);
	fclose(f);
	const char *srcp = src;
	cl_program prog = clCreateProgramWithSource(ctx, 1, &srcp, &len, &err);
	CHECK(err);
	CHECK(clBuildProgram(prog, 0, NULL, NULL, NULL, NULL));
	cl_kernel k = clCreateKernel(prog, !strcmp(name, "edges") ? "bfs_edges"
	                                   : !strcmp(name, "csr") ? "bfs_csr" : name, &err);
	CHECK(err);

	unsigned long long seed = 42;
	size_t lws = 64, nout;
	unsigned *res;
	cl_mem bufs[4] = { NULL, NULL, NULL, NULL };
	if (!strcmp(name, "edges") || !strcmp(name, "csr")) {
		size_t ne = (size_t)NODES * DEG;
		unsigned *a = xmalloc(ne * 4), *b = xmalloc(ne * 4), *rp = xmalloc((NODES + 1) * 4);
		for (size_t e = 0; e < ne; e++) {
			unsigned u = (unsigned)(e / DEG), r = rnd(&seed);
			a[e] = u;
			b[e] = r % 64 ? (u + 1 + rnd(&seed) % BAND) % NODES : rnd(&seed) % NODES;
		}
		for (size_t u = 0; u <= NODES; u++)
			rp[u] = (unsigned)(u * DEG);
		nout = NODES + 1;
		res = xmalloc(nout * 4);
		for (size_t u = 0; u < NODES; u++)
			res[u] = 0xffffffffu;
		res[0] = 0;
		int csr = name[0] == 'c';
		bufs[0] = buffer(CL_MEM_READ_ONLY, csr ? NODES + 1 : ne, csr ? rp : a);
		bufs[1] = buffer(CL_MEM_READ_ONLY, ne, b);
		bufs[2] = buffer(CL_MEM_READ_WRITE, NODES, res);
		unsigned zero = 0;
		bufs[3] = buffer(CL_MEM_READ_WRITE, 1, &zero);
		for (cl_uint i = 0; i < 3; i++)
			CHECK(clSetKernelArg(k, i, sizeof(cl_mem), &bufs[i]));
		CHECK(clSetKernelArg(k, 4, sizeof(cl_mem), &bufs[3]));
		size_t gws = csr ? NODES : ne;
		unsigned curr;
		for (curr = 0;; curr++) {
			unsigned changed = 0;
			CHECK(clEnqueueWriteBuffer(q, bufs[3], CL_TRUE, 0, 4, &changed, 0, NULL, NULL));
			CHECK(clSetKernelArg(k, 3, sizeof curr, &curr));
			CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gws, &lws, 0, NULL, NULL));
			CHECK(clEnqueueReadBuffer(q, bufs[3], CL_TRUE, 0, 4, &changed, 0, NULL, NULL));
			if (!changed)
				break;
		}
		CHECK(clEnqueueReadBuffer(q, bufs[2], CL_TRUE, 0, NODES * 4, res, 0, NULL, NULL));
		res[NODES] = curr;
		fprintf(stderr, "bfs: %u levels\n", curr);
		free(a);
		free(b);
		free(rp);
	} else if (!strcmp(name, "stamp")) {
		unsigned *perm = xmalloc((size_t)WORDS * 4);
		nout = WORDS;
		res = xmalloc(nout * 4);
		/* i -> i * 1031 mod n permutes a block of n words (1031 is a
		 * prime, no multiple of it a block's size); BLOCK, no power of
		 * two, puts the cuts between blocks where ranges do not cut */
		for (size_t g = 0; g < WORDS; g++) {
			size_t base = g / BLOCK * BLOCK;
			size_t n = WORDS - base < BLOCK ? WORDS - base : BLOCK;
			perm[g] = (unsigned)(base + (g - base) * 1031 % n);
		}
		for (size_t i = 0; i < WORDS; i++)
			res[i] = i % 3 ? 0 : (unsigned)i;
		bufs[0] = buffer(CL_MEM_READ_ONLY, WORDS, perm);
		bufs[1] = buffer(CL_MEM_READ_WRITE, WORDS, res);
		for (cl_uint i = 0; i < 2; i++)
			CHECK(clSetKernelArg(k, i, sizeof(cl_mem), &bufs[i]));
		size_t gws = WORDS;
		CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gws, &lws, 0, NULL, NULL));
		CHECK(clEnqueueReadBuffer(q, bufs[1], CL_TRUE, 0, nout * 4, res, 0, NULL, NULL));
		free(perm);
	} else {
		fprintf(stderr, "bfs: no kernel '%s'\n", name);
		return 2;
	}
	FILE *o = fopen(argv[2], "wb");
	if (!o || fwrite(res, 4, nout, o) != nout || fclose(o))
		return 1;
	for (int i = 0; i < 4; i++)
		if (bufs[i])
			clReleaseMemObject(bufs[i]);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	free(res);
	return 0;
}
