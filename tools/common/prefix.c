/* SPDX-License-Identifier: MIT */
/*
 * prefix.c - where the running tool is installed.
 *
 * The tools find their companions relative to themselves
 * (<prefix>/bin/vastcc -> <prefix>/lib/libvastrt.a,
 * <prefix>/bin/vastrun -> <prefix>/lib/libvastrt.so), which holds both in
 * the build tree and after `cmake --install`. /proc/self/exe names the
 * executable with symbolic links resolved, so `vastc++` (a link to vastcc)
 * and a link to vastrun from elsewhere on $PATH find the same prefix.
 */
#include <string.h>
#include <unistd.h>
#include "prefix.h"

bool tool_prefix(char *dir, size_t size)
{
	if (size < 2)
		return false;
	ssize_t n = readlink("/proc/self/exe", dir, size - 1);
	if (n <= 0 || (size_t)n == size - 1)
		return false;
	dir[n] = '\0';
	for (int up = 0; up < 2; up++) { /* strip "/NAME", then "/bin" */
		char *slash = strrchr(dir, '/');
		if (!slash)
			return false;
		*slash = '\0';
	}
	return true;
}
