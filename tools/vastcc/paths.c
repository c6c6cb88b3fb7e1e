/* SPDX-License-Identifier: MIT */
/*
 * paths.c - where vastcc finds the real compiler and its runtime.
 *
 * The runtime library and headers are found relative to the vastcc
 * executable itself (<prefix>/bin/vastcc -> <prefix>/lib/libvastrt.a and
 * <prefix>/include/vast/stub.h), which holds both in the build tree and
 * after `cmake --install`.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "driver.h"

const char *real_cc(void)
{
	const char *cc = getenv("VAST_CC");
	return cc && *cc ? cc : "cc";
}

static const char *prefix(void)
{
	static char dir[PATH_MAX];
	if (dir[0])
		return dir;
	ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
	if (n <= 0) {
		fprintf(stderr, "vastcc: error: cannot locate the vastcc executable\n");
		exit(1);
	}
	dir[n] = '\0';
	for (int up = 0; up < 2; up++) { /* strip "/vastcc", then "/bin" */
		char *slash = strrchr(dir, '/');
		if (slash)
			*slash = '\0';
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

const char *include_dir(void)
{
	static char path[PATH_MAX + 32];
	return under_prefix(path, sizeof path, "include");
}
