/* SPDX-License-Identifier: MIT */
/*
 * paths.c - where vastcc finds the real compiler and its runtime.
 *
 * The runtime library and headers are found relative to the vastcc
 * executable itself (<prefix>/bin/vastcc -> <prefix>/lib/libvastrt.a and
 * <prefix>/include/vast/stub.h; tools/common/prefix.c), which holds both
 * in the build tree and after `cmake --install`.
 *
 * Invoked as vastc++ (any name ending in "++", usually a link to vastcc),
 * the driver compiles and links with the C++ compiler ($VAST_CXX, default
 * c++), so a C++ host links with the C++ runtime library; the stubs of
 * .cl files are C and still go to $VAST_CC.
 */
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
