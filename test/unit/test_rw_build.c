/* SPDX-License-Identifier: MIT */
/*
 * test_rw_build.c - generated programs build on a real OpenCL compiler
 * (PoCL's CPU device here), and the paged kernel computes what the
 * original does.
 *
 *  1. the prelude alone builds (OpenCL C 1.2 and 2.0);
 *  2. the program emitted for the sample model (a helper clone, every
 *     access form, a struct kernel, local memory and barriers) builds;
 *  3. a 2-D kernel with a global offset, a __constant buffer, a clone
 *     doing a vload and every work-item function: vast_paged_two, run in
 *     three partial launches over frames, writes the original's bytes;
 *  4. vast_paged_s runs over a page table that maps the buffers' pages to
 *     frames in reverse order, split into two partial launches, and its
 *     output equals the original kernel's; vast_inspect_s marks exactly
 *     the pages the range touches.
 * A failing build prints the build log; VAST_TEST_DUMP=FILE writes the
 * program there. No OpenCL platform: skipped (exit 77, ctest's skip code).
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include "tail_table.h"
#include "test_rw_model.h"
#include "vast/stub.h"

static cl_context ctx;
static cl_device_id dev;
static cl_command_queue q;

static cl_program build(const char *src, const char *opts, const char *what)
{
	cl_int err;
	cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
	if (err != CL_SUCCESS) {
		fprintf(stderr, "%s: clCreateProgramWithSource: %d\n", what, err);
		tm_failures++;
		return NULL;
	}
	err = clBuildProgram(prog, 1, &dev, opts, NULL, NULL);
	if (err != CL_SUCCESS) {
		size_t n = 0;
		clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
		char *log = malloc(n + 1);
		clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, n, log, NULL);
		log[n] = '\0';
		fprintf(stderr, "%s: clBuildProgram(%s): %d\n%s\n", what, opts, err,
		        log);
		free(log);
		const char *dump = getenv("VAST_TEST_DUMP");
		if (dump) {
			FILE *f = fopen(dump, "w");
			if (f) {
				fputs(src, f);
				fclose(f);
			}
		}
		tm_failures++;
		clReleaseProgram(prog);
		return NULL;
	}
	return prog;
}

static cl_mem buffer(size_t n, void *host)
{
	cl_int err;
	cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE |
	                          (host ? CL_MEM_COPY_HOST_PTR : 0), n, host, &err);
	CHECK(err == CL_SUCCESS);
	return m;
}

#define ARG(k, i, v) CHECK(clSetKernelArg(k, i, sizeof(v), &(v)) == CL_SUCCESS)
/* The paged kernel's tail argument `name`, after the kernel's own. */
#define TAIL(name) ((cl_uint)tail_index(VAST_HAS_PAGED, #name))

/* Frame buffer 0 of a paged kernel whose own arguments are n; the others
 * (vast/stub.h: VAST_FRAME_BUFS) bound to `spare`, which no LPT names. */
static void set_frames(cl_kernel k, cl_uint n, cl_mem frames, cl_mem spare)
{
	ARG(k, n + TAIL(frames), frames);
	for (cl_uint b = 1; b < VAST_FRAME_BUFS; b++)
		ARG(k, n + TAIL(frames) + b, spare);
}

enum { NPTS = 1000, PAGE_SHIFT = 8, PAGE = 1 << PAGE_SHIFT, LOCAL = 10 };

typedef struct { float x, y, z; } pt;

/* The struct kernel s: o[g] = pts[g].x + pts[g].y, paged and inspected. */
static void run_s(cl_program prog)
{
	pt *pts = malloc(NPTS * sizeof *pts);
	for (int i = 0; i < NPTS; i++)
		pts[i] = (pt){(float)i, (float)(3 * i) + 0.5f, -1.0f};
	size_t psz = NPTS * sizeof(pt), osz = NPTS * sizeof(float);
	unsigned ppages = (unsigned)((psz + PAGE - 1) / PAGE);
	unsigned opages = (unsigned)((osz + PAGE - 1) / PAGE);
	unsigned nframes = 1 + ppages + opages; /* frame 0 is scratch */

	/* Slot 1 = pts, slot 2 = o. Frames in ascending page order per slot
	 * (the contract), slot 2's frames below slot 1's. */
	/* Header (2 slots), lpt[5] = the run table at 8, all runs empty so
	 * every access walks the page table, the box table (no boxes), then
	 * the tables at 8 + 16 + 16. */
	unsigned nlpt = 40 + ppages + opages;
	cl_uint *lpt = calloc(nlpt, sizeof *lpt);
	lpt[0] = 2;
	lpt[1] = 40;
	lpt[2] = ppages;
	lpt[3] = 40 + ppages;
	lpt[4] = opages;
	lpt[5] = 8;
	for (unsigned i = 0; i < ppages; i++)
		lpt[40 + i] = 1 + opages + i;
	for (unsigned i = 0; i < opages; i++)
		lpt[40 + ppages + i] = 1 + i;
	unsigned char *frames = calloc(nframes, PAGE);
	memcpy(frames + (size_t)(1 + opages) * PAGE, pts, psz);

	cl_mem mframes = buffer((size_t)nframes * PAGE, frames);
	cl_mem mlpt = buffer(nlpt * sizeof *lpt, lpt);
	cl_uint zero = 0;
	cl_mem mfault = buffer(sizeof zero, &zero);
	cl_int err;
	cl_kernel k = clCreateKernel(prog, "vast_paged_s", &err);
	CHECK(err == CL_SUCCESS);
	if (err != CL_SUCCESS)
		goto out;
	cl_ulong va_pts = 1ull << 44, va_o = 2ull << 44;
	cl_uint shift = PAGE_SHIFT;
	cl_ulong4 gsize = {{NPTS, 1, 1, 1}}, lsize = {{LOCAL, 1, 1, 0}};
	cl_ulong4 goff = {{0, 0, 0, 0}};
	ARG(k, 0, va_pts);
	ARG(k, 1, va_o);
	set_frames(k, 2, mframes, mfault);
	ARG(k, 2 + TAIL(lpt), mlpt);
	ARG(k, 2 + TAIL(fault), mfault);
	ARG(k, 2 + TAIL(page_shift), shift);
	ARG(k, 2 + TAIL(gsize), gsize);
	ARG(k, 2 + TAIL(lsize), lsize);
	ARG(k, 2 + TAIL(goff), goff);
	/* two partial launches: groups [0, 37) and [37, 100) */
	cl_ulong first[2] = {0, 37};
	size_t count[2] = {37, NPTS / LOCAL - 37};
	for (int r = 0; r < 2; r++) {
		size_t global = count[r] * LOCAL, local = LOCAL;
		ARG(k, 2 + TAIL(first_group), first[r]);
		CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0,
		                             NULL, NULL) == CL_SUCCESS);
	}
	CHECK(clEnqueueReadBuffer(q, mframes, CL_TRUE, 0, (size_t)nframes * PAGE,
	                          frames, 0, NULL, NULL) == CL_SUCCESS);
	CHECK(clEnqueueReadBuffer(q, mfault, CL_TRUE, 0, sizeof zero, &zero, 0,
	                          NULL, NULL) == CL_SUCCESS);
	CHECK(zero == 0);
	float *o = (float *)(frames + PAGE);
	int bad = 0;
	for (int i = 0; i < NPTS; i++)
		bad += o[i] != pts[i].x + pts[i].y;
	CHECK(bad == 0);
	clReleaseKernel(k);

	/* The inspector over groups [20, 40), one PAS row per 10 groups. */
	k = clCreateKernel(prog, "vast_inspect_s", &err);
	CHECK(err == CL_SUCCESS);
	if (err != CL_SUCCESS)
		goto out;
	cl_ulong pasinfo[7] = {ppages + opages, 10, 2, 0, ppages, ppages, opages};
	size_t rowb = ppages + opages;
	unsigned char *pas = calloc(2, rowb);
	cl_mem mpas = buffer(2 * rowb, pas);
	cl_mem minfo = buffer(sizeof pasinfo, pasinfo);
	ARG(k, 0, va_pts);
	ARG(k, 1, va_o);
	ARG(k, 2, mpas);
	ARG(k, 3, minfo);
	ARG(k, 4, mfault);
	ARG(k, 5, shift);
	ARG(k, 6, gsize);
	ARG(k, 7, lsize);
	ARG(k, 8, goff);
	cl_ulong f20 = 20;
	ARG(k, 9, f20);
	size_t global = 20 * LOCAL, local = LOCAL;
	CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL,
	                             NULL) == CL_SUCCESS);
	CHECK(clEnqueueReadBuffer(q, mpas, CL_TRUE, 0, 2 * rowb, pas, 0, NULL,
	                          NULL) == CL_SUCCESS);
	for (int row = 0; row < 2; row++) {
		/* groups 20+10row .. +10: elements [200+100row, 300+100row) */
		size_t e0 = 200 + 100 * (size_t)row, e1 = e0 + 100;
		for (unsigned pg = 0; pg < ppages; pg++) {
			int want = pg >= e0 * sizeof(pt) / PAGE &&
			           pg <= (e1 * sizeof(pt) - 1) / PAGE;
			CHECK(pas[row * rowb + pg] == want);
		}
		for (unsigned pg = 0; pg < opages; pg++) {
			int want = pg >= e0 * 4 / PAGE && pg <= (e1 * 4 - 1) / PAGE;
			CHECK(pas[row * rowb + ppages + pg] == want);
		}
	}
	clReleaseKernel(k);
	clReleaseMemObject(mpas);
	clReleaseMemObject(minfo);
	free(pas);
out:
	clReleaseMemObject(mframes);
	clReleaseMemObject(mlpt);
	clReleaseMemObject(mfault);
	free(pts);
	free(lpt);
	free(frames);
}


/* A 2-D kernel with a global offset, a __constant buffer, a helper clone
 * doing a vload, and every work-item function: the paged variant, run in
 * three partial launches over frames, must give the original's bytes. */
static const char two_text[] =
	"# 1 \"two.cl\"\n"
	"float4 ld(__global const float *p, size_t i) { return vload4(i, p); }\n"
	"__kernel void two(__global float *out, __global const float *in,\n"
	"                  __constant float *c, int w)\n"
	"{\n"
	"\tsize_t x = get_global_id(0), y = get_global_id(1);\n"
	"\tsize_t i = y * w + x;\n"
	"\tout[i] = in[i] * c[0] + (float)(get_group_id(0) * 100 + get_group_id(1) * 10)\n"
	"\t\t+ (float)(get_local_id(1) + get_local_size(0) * 1000 + get_global_size(1) * 10000)\n"
	"\t\t+ (float)get_num_groups(1) * 0.5f + (float)get_work_dim() * 0.25f\n"
	"\t\t+ (float)get_global_offset(1) * 3.0f + ld(in, 1).y;\n"
	"}\n";

static an_program *two_model(void)
{
	an_program *p = tm_create("two.cl", two_text);
	int ld = tm_func(p, "ld", 0, "float4");
	tm_param(p, ld, "__global const float *p", VAST_PARAM_GLOBAL,
	         "__global const float *", "const float", 4, VAST_MODE_R,
	         VAST_PAT_AFFINE);
	int a = tm_access(p, ld, AN_FORM_VLOAD, "vload4(i, p)", 0, "p", "i", 4, 16,
	                  "__global const float *", VAST_MODE_R);
	tm_roles(p, a, AN_ROLE_TOUCH, AN_ROLE_DROP);
	p->funcs[ld].ret_needed[AN_V_INSPECT] = p->funcs[ld].ret_needed[AN_V_MERGE] = 0;
	tm_stmt(p, ld, tm_find(p, "return vload4(i, p);", 0), AN_STMT_RETURN,
	        p->funcs[ld].body_stmt);
	int k = tm_func(p, "two", 1, "void");
	tm_param(p, k, "__global float *out", VAST_PARAM_GLOBAL, "__global float *",
	         "float", 4, VAST_MODE_W, VAST_PAT_AFFINE);
	tm_param(p, k, "__global const float *in", VAST_PARAM_GLOBAL,
	         "__global const float *", "const float", 4, VAST_MODE_R,
	         VAST_PAT_AFFINE);
	tm_param(p, k, "__constant float *c", VAST_PARAM_CONSTANT,
	         "__constant float *", "float", 4, VAST_MODE_R, VAST_PAT_AFFINE);
	tm_param(p, k, "int w", VAST_PARAM_SCALAR, "int", NULL, 0, 0,
	         VAST_PAT_NONE);
	static const struct { const char *t; enum an_builtin b; } calls[] = {
		{"get_global_id(0)", AN_BI_GLOBAL_ID},
		{"get_global_id(1)", AN_BI_GLOBAL_ID},
		{"get_group_id(0)", AN_BI_GROUP_ID},
		{"get_group_id(1)", AN_BI_GROUP_ID},
		{"get_local_id(1)", AN_BI_LOCAL_ID},
		{"get_local_size(0)", AN_BI_LOCAL_SIZE},
		{"get_global_size(1)", AN_BI_GLOBAL_SIZE},
		{"get_num_groups(1)", AN_BI_NUM_GROUPS},
		{"get_work_dim()", AN_BI_WORK_DIM},
		{"get_global_offset(1)", AN_BI_GLOBAL_OFFSET},
	};
	for (unsigned j = 0; j < sizeof calls / sizeof *calls; j++)
		tm_call(p, k, calls[j].t, 0, -1, calls[j].b);
	int c = tm_call(p, k, "ld(in, 1)", 0, ld, AN_BI_NONE);
	p->calls[c].role[AN_V_INSPECT] = AN_ROLE_EFFECT;
	int body = p->funcs[k].body_stmt;
	tm_stmt(p, k, tm_find(p, "size_t x = get_global_id(0), y = get_global_id(1);", 0),
	        AN_STMT_DECL, body);
	tm_stmt(p, k, tm_find(p, "size_t i = y * w + x;", 0), AN_STMT_DECL, body);
	an_range r = tm_find(p, "out[i] = ", 0);
	r.end = tm_find(p, ".y;", 0).end;
	int st = tm_stmt(p, k, r, AN_STMT_EXPR, body);
	p->stmts[st].keep[AN_V_INSPECT] = p->stmts[st].keep[AN_V_MERGE] = 0;
	a = tm_access(p, k, AN_FORM_SUBSCRIPT, "out[i]", 0, NULL, NULL, 0, 4,
	              "__global float *", VAST_MODE_W);
	tm_roles(p, a, AN_ROLE_TOUCH, AN_ROLE_COPY);
	a = tm_access(p, k, AN_FORM_SUBSCRIPT, "in[i]", 0, NULL, NULL, 0, 4,
	              "__global const float *", VAST_MODE_R);
	tm_roles(p, a, AN_ROLE_TOUCH, AN_ROLE_DROP);
	a = tm_access(p, k, AN_FORM_SUBSCRIPT, "c[0]", 0, NULL, NULL, 0, 4,
	              "__global const float *", VAST_MODE_R);
	tm_roles(p, a, AN_ROLE_TOUCH, AN_ROLE_DROP);
	return p;
}

enum { W = 16, H = 14, GX = 16, GY = 12, LX = 4, LY = 3, OY = 2 };

static void run_two(cl_program prog)
{
	size_t n = W * H, bytes = n * sizeof(float);
	float *in = malloc(bytes), *want = calloc(n, sizeof(float));
	float cval = 2.0f;
	for (size_t i = 0; i < n; i++)
		in[i] = (float)i * 0.5f;
	cl_int err;
	cl_int w = W;

	/* native */
	cl_mem mout = buffer(bytes, want), min = buffer(bytes, in);
	cl_mem mc = buffer(sizeof cval, &cval);
	cl_kernel k = clCreateKernel(prog, "two", &err);
	CHECK(err == CL_SUCCESS);
	if (err != CL_SUCCESS)
		return;
	ARG(k, 0, mout);
	ARG(k, 1, min);
	ARG(k, 2, mc);
	ARG(k, 3, w);
	size_t off[2] = {0, OY}, gsz[2] = {GX, GY}, lsz[2] = {LX, LY};
	CHECK(clEnqueueNDRangeKernel(q, k, 2, off, gsz, lsz, 0, NULL, NULL) ==
	      CL_SUCCESS);
	CHECK(clEnqueueReadBuffer(q, mout, CL_TRUE, 0, bytes, want, 0, NULL,
	                          NULL) == CL_SUCCESS);
	clReleaseKernel(k);
	clReleaseMemObject(mout);
	clReleaseMemObject(min);
	clReleaseMemObject(mc);

	/* paged: slot 1 out, 2 in, 3 c; frames: [scratch][c][in...][out...] */
	unsigned np = (unsigned)((bytes + PAGE - 1) / PAGE);
	unsigned nframes = 2 + 2 * np;
	/* Header (3 slots), lpt[7] = the run table at 8 (empty runs), the
	 * box table (no boxes), the page tables at 8 + 24 + 24. */
	unsigned nlpt = 56 + 2 * np + 1;
	cl_uint *lpt = calloc(nlpt, sizeof *lpt);
	lpt[0] = 3;
	lpt[1] = 56;           lpt[2] = np;  /* out */
	lpt[3] = 56 + np;      lpt[4] = np;  /* in */
	lpt[5] = 56 + 2 * np;  lpt[6] = 1;   /* c */
	lpt[7] = 8;
	for (unsigned i = 0; i < np; i++) {
		lpt[56 + i] = 2 + np + i;
		lpt[56 + np + i] = 2 + i;
	}
	lpt[56 + 2 * np] = 1;
	unsigned char *frames = calloc(nframes, PAGE);
	memcpy(frames + PAGE, &cval, sizeof cval);
	memcpy(frames + 2 * PAGE, in, bytes);
	cl_mem mframes = buffer((size_t)nframes * PAGE, frames);
	cl_mem mlpt = buffer(nlpt * sizeof *lpt, lpt);
	cl_uint zero = 0;
	cl_mem mfault = buffer(sizeof zero, &zero);
	k = clCreateKernel(prog, "vast_paged_two", &err);
	CHECK(err == CL_SUCCESS);
	if (err == CL_SUCCESS) {
		cl_ulong va[3] = {1ull << 44, 2ull << 44, 3ull << 44};
		cl_uint shift = PAGE_SHIFT;
		cl_ulong4 g4 = {{GX, GY, 1, 2}}, l4 = {{LX, LY, 1, 0}};
		cl_ulong4 o4 = {{0, OY, 0, 0}};
		ARG(k, 0, va[0]);
		ARG(k, 1, va[1]);
		ARG(k, 2, va[2]);
		ARG(k, 3, w);
		set_frames(k, 4, mframes, mfault);
		ARG(k, 4 + TAIL(lpt), mlpt);
		ARG(k, 4 + TAIL(fault), mfault);
		ARG(k, 4 + TAIL(page_shift), shift);
		ARG(k, 4 + TAIL(gsize), g4);
		ARG(k, 4 + TAIL(lsize), l4);
		ARG(k, 4 + TAIL(goff), o4);
		/* 16 groups in three ranges */
		cl_ulong first[3] = {0, 5, 11};
		size_t count[3] = {5, 6, 5};
		for (int r = 0; r < 3; r++) {
			size_t global = count[r] * LX * LY, local = LX * LY;
			ARG(k, 4 + TAIL(first_group), first[r]);
			CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0,
			                             NULL, NULL) == CL_SUCCESS);
		}
		CHECK(clEnqueueReadBuffer(q, mframes, CL_TRUE, 0,
		                          (size_t)nframes * PAGE, frames, 0, NULL,
		                          NULL) == CL_SUCCESS);
		CHECK(clEnqueueReadBuffer(q, mfault, CL_TRUE, 0, sizeof zero, &zero,
		                          0, NULL, NULL) == CL_SUCCESS);
		CHECK(zero == 0);
		CHECK(memcmp(frames + (size_t)(2 + np) * PAGE, want, bytes) == 0);
		clReleaseKernel(k);
	}
	clReleaseMemObject(mframes);
	clReleaseMemObject(mlpt);
	clReleaseMemObject(mfault);
	free(lpt);
	free(frames);
	free(in);
	free(want);
}

int main(void)
{
	cl_platform_id plat;
	cl_uint n = 0;
	if (clGetPlatformIDs(1, &plat, &n) != CL_SUCCESS || n == 0 ||
	    clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) {
		printf("test_rw_build: no OpenCL device, skipped\n");
		return 77;
	}
	cl_int err;
	ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	if (err != CL_SUCCESS) {
		fprintf(stderr, "clCreateContext: %d\n", err);
		return 1;
	}
	q = clCreateCommandQueue(ctx, dev, 0, &err);

	/* As every generated program begins: the ABI's constants, the prelude. */
	static char prelude[64 * 1024];
	CHECK(strlen(VAST_ABI_OPENCL_DEFINES) + strlen(rw_prelude_text) < sizeof prelude);
	strcpy(prelude, VAST_ABI_OPENCL_DEFINES);
	strcat(prelude, rw_prelude_text);
	cl_program prog = build(prelude, "", "prelude");
	if (prog)
		clReleaseProgram(prog);
	prog = build(prelude, "-cl-std=CL2.0", "prelude");
	if (prog)
		clReleaseProgram(prog);

	tm_sample_ids id;
	an_program *p = tm_sample(&id);
	char *src = rw_emit_program(p);
	CHECK(src != NULL);
	if (src) {
		prog = build(src, "", "sample");
		if (prog) {
			run_s(prog);
			clReleaseProgram(prog);
		}
	}
	free(src);
	tm_destroy(p);

	p = two_model();
	src = rw_emit_program(p);
	CHECK(src != NULL);
	if (src) {
		prog = build(src, "", "two");
		if (prog) {
			run_two(prog);
			clReleaseProgram(prog);
		}
		/* OpenCL C 3.0: generic pointers to the private context (PoCL
		 * rejects vload4 on const pointers under 2.0, even in plain code) */
		prog = build(src, "-cl-std=CL3.0", "two");
		if (prog)
			clReleaseProgram(prog);
	}
	free(src);
	tm_destroy(p);

	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	return tm_report("test_rw_build");
}
