/* SPDX-License-Identifier: MIT */
/*
 * test_rw_e2e.c - analysis + rewrite end to end on every examples/DIR/FILE.cl:
 * an_program_create, rw_emit_program, then clBuildProgram on PoCL, and
 * every kernel K of the model must have vast_inspect_K and vast_paged_K
 * in the built program with the documented argument count
 * (docs/generated-kernels.md), and no vast_merge_K (no longer generated:
 * docs/multi.md). The stub must compile too.
 *
 * Arguments: .cl files (default: the examples/ tree, found through
 * VAST_TEST_EXAMPLES). No OpenCL platform: skipped (77).
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <glob.h>
#include <unistd.h>
#include "tail_table.h"
#include "test_rw_model.h"
#include "vast/stub.h"

#ifndef VAST_TEST_EXAMPLES
#define VAST_TEST_EXAMPLES "../../examples"
#endif
#ifndef VAST_TEST_CLANG
#define VAST_TEST_CLANG "clang"
#endif
#ifndef VAST_TEST_CC
#define VAST_TEST_CC "cc"
#endif
#ifndef VAST_TEST_INCLUDE
#define VAST_TEST_INCLUDE "../../runtime/include"
#endif

/* In the sanitizer build, LeakSanitizer's exit-time scan crashed in its
 * tracer ("Tracer caught signal 11") on the dynamic TLS of the LLVM that
 * PoCL loads, once this process had built every example (glibc
 * 2.36-9+deb12u14; the tree of the session before fails alike). Thread-
 * local storage is left out of the scan: a block only TLS points to
 * would be reported as a leak, never hidden. Read only by the sanitizer
 * runtime; LSAN_OPTIONS (test/all.sh) adds to it. */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
	return "use_tls=0";
}

static cl_context ctx;
static cl_device_id dev;

static int is_buffer(const an_param *pa)
{
	return pa->kind == VAST_PARAM_GLOBAL || pa->kind == VAST_PARAM_CONSTANT;
}

static void check_file(const char *path)
{
	an_options opt = { .clang = VAST_TEST_CLANG };
	an_program *p = an_program_create(path, &opt);
	if (!p) {
		fprintf(stderr, "%s: analysis failed\n", path);
		tm_failures++;
		return;
	}
	char *src = rw_emit_program(p);
	char *stub = src ? rw_emit_stub(p, src) : NULL;
	if (!src || !stub) {
		fprintf(stderr, "%s: rewrite failed\n", path);
		tm_failures++;
		goto out;
	}
	cl_int err;
	const char *s = src;
	cl_program prog = clCreateProgramWithSource(ctx, 1, &s, NULL, &err);
	err = clBuildProgram(prog, 1, &dev, p->cl_options ? p->cl_options : "",
	                     NULL, NULL);
	if (err != CL_SUCCESS) {
		size_t n = 0;
		clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
		char *log = malloc(n + 1);
		clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, n, log, NULL);
		log[n] = '\0';
		fprintf(stderr, "%s: generated program does not build (%d):\n%s\n",
		        path, err, log);
		free(log);
		tm_failures++;
		clReleaseProgram(prog);
		goto out;
	}
	unsigned nk = 0;
	char pfx[RW_PREFIX_MAX];
	rw_prefix(p, pfx);
	for (unsigned f = 0; f < p->nfuncs; f++) {
		const an_func *fn = &p->funcs[f];
		if (!fn->is_kernel)
			continue;
		nk++;
		unsigned reads = 0;
		for (unsigned i = 0; i < fn->nparams; i++)
			reads += is_buffer(&fn->params[i]) && fn->params[i].inspect_reads;
		static const char *const v[] = {"inspect", "paged"};
		for (int j = 0; j < 2; j++) {
			char name[512];
			snprintf(name, sizeof name, "%s%s_%s", pfx, v[j], fn->name);
			cl_kernel k = clCreateKernel(prog, name, &err);
			if (err != CL_SUCCESS) {
				fprintf(stderr, "%s: no kernel %s (%d)\n", path, name, err);
				tm_failures++;
				continue;
			}
			cl_uint nargs = 0;
			clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
			/* vast/stub.h's table: the tail of each variant. */
			static const unsigned kind[] = {VAST_HAS_INSPECT, VAST_HAS_PAGED};
			unsigned want = fn->nparams + tail_fixed(kind[j]) + (j == 0 ? reads : 0);
			if (nargs != want) {
				fprintf(stderr, "%s: %s has %u arguments, want %u\n", path,
				        name, nargs, want);
				tm_failures++;
			}
			clReleaseKernel(k);
		}
		/* The merge kernel is gone: the multi-device merge is a byte
		 * diff, not a second run of the kernel (docs/multi.md). */
		char merge[512];
		snprintf(merge, sizeof merge, "%smerge_%s", pfx, fn->name);
		cl_kernel mk = clCreateKernel(prog, merge, &err);
		if (err != CL_INVALID_KERNEL_NAME) {
			fprintf(stderr, "%s: %s is in the program (%d)\n", path, merge, err);
			tm_failures++;
		}
		if (mk)
			clReleaseKernel(mk);
	}
	clReleaseProgram(prog);

	/* the stub compiles */
	char dir[] = "/tmp/test_rw_e2e.XXXXXX", cmd[2048], file[600];
	if (mkdtemp(dir)) {
		snprintf(file, sizeof file, "%s/stub.c", dir);
		FILE *f = fopen(file, "w");
		if (f) {
			fputs(stub, f);
			fclose(f);
		}
		snprintf(cmd, sizeof cmd, "%s -std=c11 -Wall -Wextra -Werror -I%s "
		         "-c %s -o %s/stub.o", VAST_TEST_CC, VAST_TEST_INCLUDE, file,
		         dir);
		if (system(cmd) != 0) {
			fprintf(stderr, "%s: stub does not compile: %s\n", path, cmd);
			tm_failures++;
		}
		snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", dir);
	}
	printf("%s: %u kernel(s), %zu bytes generated\n", path, nk, strlen(src));
out:
	free(src);
	free(stub);
	an_program_destroy(p);
}

int main(int argc, char **argv)
{
	cl_platform_id plat;
	cl_uint n = 0;
	if (clGetPlatformIDs(1, &plat, &n) != CL_SUCCESS || n == 0 ||
	    clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) {
		printf("test_rw_e2e: no OpenCL device, skipped\n");
		return 77;
	}
	cl_int err;
	ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	if (err != CL_SUCCESS)
		return 1;
	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			check_file(argv[i]);
	} else {
		glob_t g;
		if (glob(VAST_TEST_EXAMPLES "/*/*.cl", 0, NULL, &g) != 0 ||
		    g.gl_pathc == 0) {
			fprintf(stderr, "no examples under %s\n", VAST_TEST_EXAMPLES);
			return 1;
		}
		for (size_t i = 0; i < g.gl_pathc; i++)
			check_file(g.gl_pathv[i]);
		globfree(&g);
	}
	clReleaseContext(ctx);
	return tm_report("test_rw_e2e");
}
