/* SPDX-License-Identifier: MIT */
/*
 * output.c - every file vastcc writes goes through a temporary name in the
 * target's directory and a rename, so an error never leaves a partial file
 * behind (and a reader never sees one).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "driver.h"

bool commit_file(const char *tmp, const char *path)
{
	if (rename(tmp, path) == 0)
		return true;
	fprintf(stderr, "vastcc: error: cannot write '%s': %s\n", path, strerror(errno));
	unlink(tmp);
	return false;
}

bool write_file_atomic(const char *path, const char *data, size_t len)
{
	if (!strcmp(path, "-"))
		return fwrite(data, 1, len, stdout) == len && fflush(stdout) == 0;
	size_t n = strlen(path) + 16;
	char *tmp = malloc(n);
	snprintf(tmp, n, "%s.tmpXXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		fprintf(stderr, "vastcc: error: cannot write '%s': %s\n", path, strerror(errno));
		free(tmp);
		return false;
	}
	mode_t mask = umask(0); /* mkstemp makes 0600; give the usual mode */
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	FILE *f = fdopen(fd, "wb");
	bool ok = f && fwrite(data, 1, len, f) == len;
	ok = ok && !ferror(f);
	if (f ? fclose(f) != 0 : close(fd) != 0)
		ok = false;
	if (ok)
		ok = commit_file(tmp, path);
	else {
		fprintf(stderr, "vastcc: error: cannot write '%s': %s\n", path, strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	return ok;
}
