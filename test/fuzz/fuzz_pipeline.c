/* SPDX-License-Identifier: MIT */
/*
 * fuzz_pipeline.c - libFuzzer target over vastcc's compiler pipeline.
 *
 * Each input is an OpenCL C source. It goes through what the driver does
 * for a .cl file (tools/vastcc/clfile.c): an_program_create (clang -E,
 * libclang parse, analysis) -> rw_emit_program -> rw_emit_stub ->
 * an_report_json, then everything is freed. ASan, UBSan and LeakSanitizer
 * catch memory errors and leaks; libFuzzer's -timeout catches hangs. The
 * target itself aborts on the compiler's other failures (findings):
 *
 *   - an internal error, or an emitter that returned NULL;
 *   - an error diagnostic without a location: every `error:` line on
 *     stderr must read `file:line:col: error: ...` (clang's format, which
 *     vastcc promises in README.md), whether vastcc, libclang or the
 *     `clang -E` subprocess printed it;
 *   - with VAST_FUZZ_POCL=1 (the oracle, slow: a PoCL build or two per
 *     input): the analysis succeeded and the generated program does not
 *     build with clBuildProgram while the original source does.
 *
 * stderr (fd 2, inherited by clang -E) is redirected to a file around the
 * pipeline, so the diagnostics can be checked; sanitizer reports go to
 * the real stderr (__sanitizer_set_report_fd). Inputs are written to a
 * private temporary directory: the analysis reads a path, like vastcc.
 *
 * Clang 19 crashes on a few invalid programs; libclang's crash recovery
 * then loses what the index and the parse allocated, a leak of libclang's
 * that no code of vastcc can free. The parse is therefore run on this
 * thread (LIBCLANG_NOTHREADS) and LeakSanitizer ignores what libclang
 * allocates in clang_createIndex and clang_parseTranslationUnit2 (the
 * __wrap_ functions below). Everything vastcc allocates stays checked; the
 * sanitizer test suite, which runs vastcc itself, checks that every index
 * and translation unit is disposed of.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <clang-c/Index.h>
#include <fcntl.h>
#include <sanitizer/lsan_interface.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "analysis.h"
#include "rewrite.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
void __sanitizer_set_report_fd(void *fd);

/* vast-fuzz links with -Wl,--wrap= these two: the analysis's calls come
 * here, and these call libclang's. */
CXIndex __real_clang_createIndex(int exclude_pch, int display_diagnostics);
CXIndex __wrap_clang_createIndex(int exclude_pch, int display_diagnostics);
enum CXErrorCode __real_clang_parseTranslationUnit2(
	CXIndex index, const char *path, const char *const *args, int nargs,
	struct CXUnsavedFile *unsaved, unsigned nunsaved, unsigned options,
	CXTranslationUnit *tu);
enum CXErrorCode __wrap_clang_parseTranslationUnit2(
	CXIndex index, const char *path, const char *const *args, int nargs,
	struct CXUnsavedFile *unsaved, unsigned nunsaved, unsigned options,
	CXTranslationUnit *tu);

CXIndex __wrap_clang_createIndex(int exclude_pch, int display_diagnostics)
{
	__lsan_disable();
	CXIndex index = __real_clang_createIndex(exclude_pch, display_diagnostics);
	__lsan_enable();
	return index;
}

enum CXErrorCode __wrap_clang_parseTranslationUnit2(
	CXIndex index, const char *path, const char *const *args, int nargs,
	struct CXUnsavedFile *unsaved, unsigned nunsaved, unsigned options,
	CXTranslationUnit *tu)
{
	__lsan_disable();
	enum CXErrorCode err = __real_clang_parseTranslationUnit2(
		index, path, args, nargs, unsaved, nunsaved, options, tu);
	__lsan_enable();
	return err;
}

static char dir[] = "/tmp/vast-fuzz-XXXXXX";
static char input_path[64], log_path[64];
static int real_stderr = -1;

/* VAST_FUZZ_POCL set: the oracle's OpenCL device, created at its first
 * use (see pocl_builds). */
static int oracle;
static cl_context ocl_ctx;
static cl_device_id ocl_dev;

static void cleanup(void)
{
	unlink(input_path);
	unlink(log_path);
	rmdir(dir);
}

static void oracle_init(void)
{
	cl_platform_id platform;
	cl_int err = clGetPlatformIDs(1, &platform, NULL);
	if (err == CL_SUCCESS)
		err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &ocl_dev, NULL);
	if (err == CL_SUCCESS)
		ocl_ctx = clCreateContext(NULL, 1, &ocl_dev, NULL, NULL, &err);
	if (err != CL_SUCCESS) {
		fprintf(stderr, "vast-fuzz: VAST_FUZZ_POCL=1 but no OpenCL device (error %d)\n",
		        err);
		exit(2);
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* the parse on this thread, where __lsan_disable() applies */
	setenv("LIBCLANG_NOTHREADS", "1", 1);
	if (!mkdtemp(dir)) {
		perror("vast-fuzz: mkdtemp");
		exit(2);
	}
	snprintf(input_path, sizeof input_path, "%s/input.cl", dir);
	snprintf(log_path, sizeof log_path, "%s/stderr.txt", dir);
	atexit(cleanup);
	real_stderr = dup(2);
	__sanitizer_set_report_fd((void *)(intptr_t)real_stderr);
	const char *mode = getenv("VAST_FUZZ_POCL");
	oracle = mode && *mode && strcmp(mode, "0");
	return 0;
}

/* Print what the pipeline wrote, the finding, and abort: libFuzzer saves
 * the input as a crash artifact. */
static void finding(const char *log, const char *what)
{
	fprintf(stderr, "%s\nvast-fuzz: finding: %s\n", log, what);
	abort();
}

static char *read_all(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096;
	char *s = malloc(cap);
	*n = 0;
	size_t r;
	while ((r = fread(s + *n, 1, cap - *n - 1, f)) > 0) {
		*n += r;
		if (*n + 1 == cap)
			s = realloc(s, cap *= 2);
	}
	fclose(f);
	s[*n] = '\0';
	return s;
}

/* Line l (NUL-terminated) is a diagnostic header "PREFIX: error: ..." or
 * "error: ..."; it has a location when PREFIX ends in ":LINE:COL". Lines
 * of a source excerpt (clang 19 prints `  12 | code`) start with a space
 * and are not headers. */
static int error_without_location(const char *l)
{
	if (l[0] == ' ' || l[0] == '\t')
		return 0;
	const char *e = strstr(l, "error: ");
	if (!e)
		return 0;
	if (e >= l + 6 && !memcmp(e - 6, "fatal ", 6))
		e -= 6;
	if (e == l)
		return 1; /* "error: ..." */
	if (e < l + 2 || e[-1] != ' ' || e[-2] != ':')
		return 0; /* "error: " inside some other text */
	/* PREFIX is l .. e-2; look for ":LINE:COL" at its end */
	const char *p = e - 2;
	int fields = 0;
	while (fields < 2) {
		const char *q = p;
		while (q > l && q[-1] >= '0' && q[-1] <= '9')
			q--;
		if (q == p || q == l || q[-1] != ':')
			return 1;
		p = q - 1;
		fields++;
	}
	return 0;
}

static void check_diagnostics(char *log)
{
	for (char *l = log; *l;) {
		char *nl = strchr(l, '\n');
		if (nl)
			*nl = '\0';
		int bad = error_without_location(l);
		/* rw_internal_error's prefix; not any line that quotes the
		 * words, as a source excerpt of the input may */
		int internal = !strncmp(l, "vastcc: internal error", 22);
		if (nl)
			*nl = '\n';
		if (internal)
			finding(log, "internal error");
		if (bad)
			finding(log, "an error diagnostic without a location");
		if (!nl)
			break;
		l = nl + 1;
	}
}

/* clBuildProgram of src on the oracle's device: 1 when it builds; on
 * failure the build log goes to *log (malloc'd) when log is not NULL.
 * PoCL (its LLVM) installs crash handlers of its own; libFuzzer's are
 * put back, or a finding would leave no artifact. That is also why the
 * device is opened here and not in LLVMFuzzerInitialize: libFuzzer
 * keeps a handler it finds installed before its own. */
static int pocl_builds(const char *src, size_t len, char **log)
{
	static const int sigs[] = { SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP };
	struct sigaction saved[sizeof sigs / sizeof *sigs];
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
		sigaction(sigs[i], NULL, &saved[i]);
	if (!ocl_ctx)
		oracle_init();
	cl_int err;
	cl_program prog = clCreateProgramWithSource(ocl_ctx, 1, &src, &len, &err);
	if (err == CL_SUCCESS)
		err = clBuildProgram(prog, 1, &ocl_dev, "", NULL, NULL);
	if (err != CL_SUCCESS && log) {
		size_t n = 0;
		clGetProgramBuildInfo(prog, ocl_dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
		*log = calloc(n + 1, 1);
		clGetProgramBuildInfo(prog, ocl_dev, CL_PROGRAM_BUILD_LOG, n, *log, NULL);
	}
	if (prog)
		clReleaseProgram(prog);
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
		sigaction(sigs[i], &saved[i], NULL);
	return err == CL_SUCCESS;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fopen(input_path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f)) {
		perror("vast-fuzz: cannot write the input");
		exit(2);
	}
	int fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		perror("vast-fuzz: cannot open the log");
		exit(2);
	}
	fflush(stderr);
	dup2(fd, 2);
	close(fd);

	an_options ao = {0};
	an_program *p = an_program_create(input_path, &ao);
	char *program = p ? rw_emit_program(p) : NULL;
	char *stub = program ? rw_emit_stub(p, program) : NULL;
	char *json = p ? an_report_json(p) : NULL;

	fflush(stderr);
	dup2(real_stderr, 2);
	size_t n;
	char *log = read_all(log_path, &n);
	if (!log)
		log = calloc(1, 1);
	check_diagnostics(log);
	if (p && (!program || !stub || !json))
		finding(log, "an emitter returned NULL after a successful analysis");

	if (oracle && program) {
		char *emitted_log = NULL;
		if (!pocl_builds(program, strlen(program), &emitted_log) &&
		    pocl_builds((const char *)data, size, NULL)) {
			fprintf(stderr, "%s\n--- generated program:\n%s\n--- build log:\n%s\n", log,
			        program, emitted_log);
			finding("", "the input builds with clBuildProgram, the generated program does not");
		}
		free(emitted_log);
	}
	free(log);
	free(json);
	free(stub);
	free(program);
	an_program_destroy(p);
	return 0;
}
