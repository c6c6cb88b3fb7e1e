/* SPDX-License-Identifier: MIT */
/*
 * output.c - every file vastcc writes goes through a temporary name in the
 * target's directory and a rename, so an error never leaves a partial file
 * behind (and a reader never sees one). A target that is not a regular
 * file (/dev/null, a FIFO) is written through, from a temporary in $TMPDIR.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "driver.h"

/* A target that exists and is not a regular file (/dev/null, a FIFO, a
 * terminal, a symbolic link) is written through, as cc does, never
 * renamed over: `-o /dev/null` run as root would replace the device with
 * a file of our output. */
static bool written_through(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

char *temp_template(const char *path)
{
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	size_t n = strlen(path) + strlen(dir) + 24;
	char *t = malloc(n);
	if (!t)
		return NULL;
	if (written_through(path))
		snprintf(t, n, "%s/vastcc.tmpXXXXXX", dir);
	else
		snprintf(t, n, "%s.tmpXXXXXX", path);
	return t;
}

/* Copies the finished temporary into a target written through. */
static bool copy_into(const char *tmp, const char *path)
{
	FILE *in = fopen(tmp, "rb"), *out = in ? fopen(path, "wb") : NULL;
	bool ok = in && out;
	char buf[65536];
	size_t n;
	while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0)
		ok = fwrite(buf, 1, n, out) == n;
	ok = ok && !ferror(in);
	if (in)
		fclose(in);
	if (out && fclose(out) != 0)
		ok = false;
	return ok;
}

bool commit_file(const char *tmp, const char *path)
{
	bool through = written_through(path);
	bool ok = through ? copy_into(tmp, path) : rename(tmp, path) == 0;
	int err = errno;
	if (through || !ok)
		unlink(tmp);
	if (ok)
		return true;
	errno = err;
	fprintf(stderr, "vastcc: error: cannot write '%s': %s\n", path, strerror(errno));
	return false;
}

bool write_file_atomic(const char *path, const char *data, size_t len)
{
	if (!strcmp(path, "-"))
		return fwrite(data, 1, len, stdout) == len && fflush(stdout) == 0;
	char *tmp = temp_template(path);
	int fd = tmp ? mkstemp(tmp) : -1;
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
