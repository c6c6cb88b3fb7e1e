/* SPDX-License-Identifier: MIT */
/*
 * paths.c - where vastcc finds the real compiler and its runtime.
 *
 * The runtime library and headers are found relative to the vastcc
 * executable itself (<prefix>/bin/vastcc -> <prefix>/lib/libvastrt.a and
 * <prefix>/include/vast/stub.h; tools/common/prefix.c), which holds both
 * in the build tree and after `cmake --install`.
 *
 * A program it links learns where this vastcc is (compiler_record): its
 * runtime compiles the kernels it builds from source with the compiler
 * beside the libvastrt.a it was linked with, wherever that prefix is, and
 * never with one in a build tree the program no longer needs.
 *
 * Invoked as vastc++ (any name ending in "++", usually a link to vastcc),
 * the driver compiles and links with the C++ compiler ($VAST_CXX, default
 * c++), so a C++ host links with the C++ runtime library; the stubs of
 * .cl files are C and still go to $VAST_CC.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "driver.h"
#include "prefix.h"

const char *real_cc(void)
{
	const char *cc = getenv("VAST_CC");
	return cc && *cc ? cc : "cc";
}

const char *real_compiler(const options *opt)
{
	if (!opt->cxx)
		return real_cc();
	const char *cxx = getenv("VAST_CXX");
	return cxx && *cxx ? cxx : "c++";
}

static const char *prefix(void)
{
	static char dir[PATH_MAX];
	static bool found;
	if (!found && !(found = tool_prefix(dir, sizeof dir))) {
		fprintf(stderr, "vastcc: error: cannot locate the vastcc executable\n");
		exit(1);
	}
	return dir;
}

/* buf receives "<prefix>/rel" once; later calls return it as it is. */
static const char *under_prefix(char *buf, size_t size, const char *rel)
{
	if (!buf[0])
		snprintf(buf, size, "%s/%s", prefix(), rel);
	return buf;
}

const char *runtime_lib(void)
{
	static char path[PATH_MAX + 32];
	return under_prefix(path, sizeof path, "lib/libvastrt.a");
}

const char *runtime_dynlist_flag(void)
{
	static char path[PATH_MAX + 32], flag[PATH_MAX + 64];
	snprintf(flag, sizeof flag, "-Wl,--dynamic-list=%s",
	         under_prefix(path, sizeof path, "lib/vastrt.dynlist"));
	return flag;
}

const char *include_dir(void)
{
	static char path[PATH_MAX + 32];
	return under_prefix(path, sizeof path, "include");
}

const char *compiler_record(const options *opt)
{
	static char src[PATH_MAX + 32], obj[PATH_MAX + 32];
	char self[PATH_MAX + 32];
	snprintf(self, sizeof self, "%s/bin/vastcc", prefix());
	snprintf(src, sizeof src, "%s/vast_linked_compiler.c", temp_dir());
	snprintf(obj, sizeof obj, "%s/vast_linked_compiler.o", temp_dir());
	FILE *f = fopen(src, "w");
	if (!f) {
		fprintf(stderr, "vastcc: error: cannot write '%s': %s\n", src, strerror(errno));
		return NULL;
	}
	/* The path as a C string, every byte that could mean something
	 * else in octal. Declared first: -Wmissing-variable-declarations. */
	fputs("/* vastcc: the compiler beside the runtime linked in (runtime/jit.c) */\n"
	      "extern const char vast_linked_compiler[];\n"
	      "const char vast_linked_compiler[] = \"", f);
	for (const unsigned char *c = (const unsigned char *)self; *c; c++) {
		if (isalnum(*c) || strchr("/._-+", *c))
			fputc(*c, f);
		else
			fprintf(f, "\\%03o", *c);
	}
	fputs("\";\n", f);
	if (fclose(f)) {
		fprintf(stderr, "vastcc: error: cannot write '%s': %s\n", src, strerror(errno));
		return NULL;
	}
	strv cmd = {0};
	strv_push(&cmd, real_cc());
	object_flags(opt, &cmd);
	strv_push(&cmd, "-c");
	strv_push(&cmd, src);
	strv_push(&cmd, "-o");
	strv_push(&cmd, obj);
	int rc = run_command(&cmd, opt);
	strv_free(&cmd);
	return rc ? NULL : obj;
}
