/* SPDX-License-Identifier: MIT */
/*
 * vastrun.c - run a program with vastcc's runtime: vastrun [--] PROGRAM [ARGS]
 *
 * A program built with plain cc (or shipped as a binary) calls the OpenCL
 * entry points of libOpenCL.so.1. vastrun puts <prefix>/lib/libvastrt.so
 * first in LD_PRELOAD and execs the program: the dynamic linker then binds
 * the program's clCreateBuffer, clEnqueueNDRangeKernel, ... to the
 * runtime's definitions, which forward to the real loader (runtime/icd.c)
 * and page buffers through the device budget. The variable is inherited,
 * so the program's child processes run with the runtime too; the runtime
 * reads its VAST_* settings itself (VAST_MODE=native turns paging off).
 *
 * The library is found relative to vastrun itself (<prefix>/bin/vastrun),
 * in the build tree and after `cmake --install` alike. Exit status: the
 * program's; 127 when it cannot be found and 126 when it cannot be run, as
 * a shell does; 125 for vastrun's own errors, as env(1) does.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "prefix.h"

enum { EXIT_OWN_ERROR = 125, EXIT_CANNOT_RUN = 126, EXIT_NOT_FOUND = 127 };

static void print_help(void)
{
	fputs(
"OVERVIEW: vastrun - run an OpenCL program with vastcc's runtime\n"
"\n"
"USAGE: vastrun [--] PROGRAM [ARGS...]\n"
"\n"
"Runs PROGRAM with libvastrt.so preloaded (LD_PRELOAD), so a program built\n"
"with plain cc, or shipped as a binary, pages its buffers through the device\n"
"budget like a program linked by vastcc. Child processes keep the runtime.\n"
"Kernels the program builds from source are compiled by vastcc when it builds\n"
"them.\n"
"\n"
"OPTIONS:\n"
"  --help      print this help\n"
"  --version   print the version\n"
"\n"
"ENVIRONMENT:\n"
"  LD_PRELOAD  libvastrt.so is put first; what it held is kept after it\n"
"  VAST_MODE   native: the runtime only forwards, no paging (auto, paged)\n"
"  VAST_*      every other runtime setting applies as to a vastcc program\n"
"\n"
"EXIT STATUS: PROGRAM's; 127 when it is not found, 126 when it cannot be run,\n"
"125 when vastrun itself fails.\n",
		stdout);
}

/* "<lib>" or "<lib>:<old>" in a buffer that lives until exec. */
static char *preload_value(const char *lib)
{
	const char *old = getenv("LD_PRELOAD");
	size_t n = strlen(lib) + (old ? strlen(old) : 0) + 2;
	char *v = malloc(n);
	if (!v)
		return NULL;
	if (old && *old)
		snprintf(v, n, "%s:%s", lib, old);
	else
		snprintf(v, n, "%s", lib);
	return v;
}

int main(int argc, char **argv)
{
	int first = 1;
	if (first < argc && !strcmp(argv[first], "--help")) {
		print_help();
		return 0;
	}
	if (first < argc && !strcmp(argv[first], "--version")) {
		printf("vastrun version %s\n", VAST_VERSION);
		return 0;
	}
	if (first < argc && !strcmp(argv[first], "--"))
		first++;
	else if (first < argc && argv[first][0] == '-') {
		fprintf(stderr, "vastrun: error: unknown argument: '%s'\n", argv[first]);
		return EXIT_OWN_ERROR;
	}
	if (first >= argc) {
		fprintf(stderr, "vastrun: error: no program to run (usage: vastrun [--] PROGRAM [ARGS...])\n");
		return EXIT_OWN_ERROR;
	}

	char prefix[PATH_MAX], lib[PATH_MAX + 32];
	if (!tool_prefix(prefix, sizeof prefix)) {
		fprintf(stderr, "vastrun: error: cannot locate the vastrun executable\n");
		return EXIT_OWN_ERROR;
	}
	snprintf(lib, sizeof lib, "%s/lib/libvastrt.so", prefix);
	if (access(lib, R_OK)) {
		fprintf(stderr, "vastrun: error: cannot read the runtime '%s': %s\n", lib,
		        strerror(errno));
		return EXIT_OWN_ERROR;
	}
	char *preload = preload_value(lib);
	if (!preload || setenv("LD_PRELOAD", preload, 1)) {
		fprintf(stderr, "vastrun: error: cannot set LD_PRELOAD: %s\n", strerror(errno));
		return EXIT_OWN_ERROR;
	}

	/* execvp searches $PATH for a name without a slash, as a shell does. */
	execvp(argv[first], argv + first);
	int err = errno;
	fprintf(stderr, "vastrun: error: cannot run '%s': %s\n", argv[first], strerror(err));
	return err == ENOENT || err == ENOTDIR ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN;
}
