/* SPDX-License-Identifier: MIT */
/*
 * vastrun.c - run a program with vastcc's runtime: vastrun [--] PROGRAM [ARGS]
 *
 * A program built with plain cc (or shipped as a binary) calls the OpenCL
 * entry points of libOpenCL.so.1. vastrun puts <prefix>/lib/libvastrt.so
 * first in LD_PRELOAD and execs the program: the dynamic linker then binds
 * the program's clCreateBuffer, clEnqueueNDRangeKernel, ... to the
 * runtime's definitions, which forward to the real loader (runtime/base/icd.c)
 * and page buffers through the device budget. The variable is inherited,
 * so the program's child processes run with the runtime too; the runtime
 * reads its VAST_* settings itself (VAST_MODE=native turns paging off).
 *
 * The library is found relative to vastrun itself (<prefix>/bin/vastrun),
 * in the build tree and after `cmake --install` alike. Exit status: the
 * program's; 127 when it cannot be found and 126 when it cannot be run, as
 * a shell does; 125 for vastrun's own errors, as env(1) does.
 *
 * Where the preload cannot work vastrun says so rather than run the
 * program without the runtime unawares: a runtime path LD_PRELOAD cannot
 * hold (a space or a colon) is an error; a statically linked program (no
 * dynamic linker to preload anything) or one that runs set-user-ID or
 * set-group-ID (the dynamic linker then ignores LD_PRELOAD) is run
 * anyway, after a warning.
 */
#define _GNU_SOURCE /* asprintf, strchrnul */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
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
"125 when vastrun itself fails.\n"
"\n"
"NOTES: LD_PRELOAD cannot hold a path with a space or a colon: installed under\n"
"one, vastrun refuses (125). A statically linked PROGRAM, or one that runs\n"
"set-user-ID or set-group-ID, runs without the runtime (vastrun warns).\n",
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

/* The file execvp runs for `name` (malloc'd), NULL when none: name itself
 * when it holds a slash, else the first executable regular file in the
 * $PATH entries (an empty one is the current directory; no $PATH is
 * glibc's "/bin:/usr/bin"). */
static char *find_program(const char *name)
{
	if (strchr(name, '/'))
		return strdup(name);
	const char *path = getenv("PATH");
	if (!path)
		path = "/bin:/usr/bin";
	for (const char *p = path;; p++) {
		const char *end = strchrnul(p, ':');
		int len = (int)(end - p);
		char *file;
		if (asprintf(&file, "%.*s%s%s", len, p, len ? "/" : "", name) < 0)
			return NULL;
		struct stat st;
		if (!stat(file, &st) && S_ISREG(st.st_mode) && !access(file, X_OK))
			return file;
		free(file);
		if (!*end)
			return NULL;
		p = end;
	}
}

/* Reads the `size`-byte unsigned field at `off` of an ELF file of byte
 * order `data` (ELFDATA2LSB or ELFDATA2MSB); -1 when it cannot. */
static int64_t elf_field(int fd, off_t off, int size, int data)
{
	unsigned char b[8];
	if (size > 8 || pread(fd, b, (size_t)size, off) != size)
		return -1;
	uint64_t v = 0;
	for (int i = 0; i < size; i++)
		v |= (uint64_t)b[data == ELFDATA2LSB ? i : size - 1 - i] << (8 * i);
	return v > INT64_MAX ? -1 : (int64_t)v;
}

/* Whether the ELF file fd names a dynamic linker (PT_INTERP, System V ABI
 * "Program Header"): 1 it does, 0 it is statically linked, -1 not ELF or
 * unreadable. A static PIE has a dynamic section but no dynamic linker,
 * so PT_INTERP, not PT_DYNAMIC, decides. */
static int elf_interp(int fd)
{
	unsigned char id[EI_NIDENT];
	if (pread(fd, id, sizeof id, 0) != (ssize_t)sizeof id || memcmp(id, ELFMAG, SELFMAG))
		return -1;
	int d = id[EI_DATA], is64 = id[EI_CLASS] == ELFCLASS64;
	if ((!is64 && id[EI_CLASS] != ELFCLASS32) || (d != ELFDATA2LSB && d != ELFDATA2MSB))
		return -1;
	int64_t phoff = is64 ? elf_field(fd, offsetof(Elf64_Ehdr, e_phoff), 8, d)
	                     : elf_field(fd, offsetof(Elf32_Ehdr, e_phoff), 4, d);
	int64_t phentsize = is64 ? elf_field(fd, offsetof(Elf64_Ehdr, e_phentsize), 2, d)
	                         : elf_field(fd, offsetof(Elf32_Ehdr, e_phentsize), 2, d);
	int64_t phnum = is64 ? elf_field(fd, offsetof(Elf64_Ehdr, e_phnum), 2, d)
	                     : elf_field(fd, offsetof(Elf32_Ehdr, e_phnum), 2, d);
	/* PN_XNUM: the count is elsewhere (section 0); too rare to chase. */
	if (phoff <= 0 || phentsize < 4 || phnum < 0 || phnum == PN_XNUM)
		return -1;
	for (int64_t i = 0; i < phnum; i++) {
		int64_t type = elf_field(fd, (off_t)(phoff + i * phentsize), 4, d);
		if (type < 0)
			return -1;
		if (type == PT_INTERP)
			return 1;
	}
	return 0;
}

/* Warns when `name`, run as vastrun would run it, cannot have the runtime
 * preloaded. Only ELF files: the kernel ignores set-ID bits on scripts,
 * and a script's interpreter is what gets the preload. */
static void warn_not_preloaded(const char *name)
{
	char *path = find_program(name);
	int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	struct stat st;
	struct statvfs vfs;
	if (fd < 0 || fstat(fd, &st)) {
		/* Unreadable (execute-only) or not found: execvp tells. */
	} else if (elf_interp(fd) == 0) {
		fprintf(stderr, "vastrun: warning: '%s' is statically linked: there is no dynamic "
		        "linker to preload the runtime, it runs without it\n", name);
	} else if (fstatvfs(fd, &vfs) || !(vfs.f_flag & ST_NOSUID)) {
		/* The dynamic linker ignores LD_PRELOAD when the kernel runs the
		 * program as another user or group than the real one (AT_SECURE,
		 * ld.so(8)); the set-ID bits count unless the file system is
		 * mounted nosuid. */
		if ((st.st_mode & S_ISUID) && st.st_uid != getuid())
			fprintf(stderr, "vastrun: warning: '%s' is set-user-ID: the dynamic linker "
			        "ignores LD_PRELOAD for it, it runs without the runtime\n", name);
		else if ((st.st_mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP) &&
		         st.st_gid != getgid())
			fprintf(stderr, "vastrun: warning: '%s' is set-group-ID: the dynamic linker "
			        "ignores LD_PRELOAD for it, it runs without the runtime\n", name);
	}
	if (fd >= 0)
		close(fd);
	free(path);
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
	/* The dynamic linker splits LD_PRELOAD at spaces and colons and has no
	 * quoting (ld.so(8)): it would try the pieces, fail, and run the
	 * program without the runtime. */
	if (strpbrk(lib, " :")) {
		fprintf(stderr, "vastrun: error: the runtime's path '%s' holds a space or a colon, "
		        "which LD_PRELOAD cannot carry: install vastcc under a path without them\n",
		        lib);
		return EXIT_OWN_ERROR;
	}
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

	warn_not_preloaded(argv[first]);
	/* execvp searches $PATH for a name without a slash, as a shell does. */
	execvp(argv[first], argv + first);
	int err = errno;
	fprintf(stderr, "vastrun: error: cannot run '%s': %s\n", argv[first], strerror(err));
	return err == ENOENT || err == ENOTDIR ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN;
}
