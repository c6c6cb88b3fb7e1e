/* SPDX-License-Identifier: MIT */
/*
 * trust.c - whether a file the runtime reads a program from, or runs,
 * may be trusted: the rule the on-disk cache (cache.c, cachestats.c) and
 * the compiler lookup (jit.c) share, as ssh trusts ~/.ssh.
 *
 * A file is trusted when nobody but the effective user (or root, for a
 * compiler from a system prefix) could have written it: owned so, and
 * writable by neither its group nor others. The cache checks its
 * directory and each file it opens through that directory's descriptor;
 * a compiler is run by its path, so every directory above it must pass
 * too, or another user could rename a file of his into its place. A
 * sticky directory writable by others (/tmp) passes: in it, nobody may
 * remove or rename a file he does not own (POSIX, rename() and unlink()
 * on S_ISVTX), and the next component, checked in turn, is ours.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "program/program.h"

int vrt_trusted_stat(const struct stat *st, int root_too, const char *what, char *why,
                     size_t n)
{
	if (st->st_uid != geteuid() && !(root_too && st->st_uid == 0)) {
		snprintf(why, n, "%s is owned by uid %u, not by this user (uid %u)%s", what,
		         (unsigned)st->st_uid, (unsigned)geteuid(), root_too ? " or root" : "");
		return 0;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(why, n, "%s is writable by %s (mode %04o)", what,
		         st->st_mode & S_IWOTH ? "others" : "its group",
		         (unsigned)(st->st_mode & 07777));
		return 0;
	}
	return 1;
}

/* The walk both checks make, from "/" down: each directory of path, then
 * (resolved) the file itself; or (as_written) the directories the name
 * passes through up to the one holding its last component, a link met
 * on the way taken as its directory's (checked the step before: where it
 * leads, the resolved walk checks). The first that fails is named. */
static int trusted_walk(const char *path, int as_written, char *why, size_t n)
{
	size_t len = strlen(path);
	char *p = vrt_malloc(len + 1), *what = vrt_malloc(len + 3);
	int ok = 0;
	if (!p || !what) {
		snprintf(why, n, "out of memory");
		goto out;
	}
	if (path[0] != '/') {
		snprintf(why, n, "'%s' is not an absolute path", path);
		goto out;
	}
	memcpy(p, path, len + 1);
	size_t stop = len; /* where the last name checked ends */
	if (as_written) {
		while (path[stop] != '/')
			stop--;
		stop = stop ? stop : 1; /* a file in "/": "/" itself */
	}
	for (size_t end = 1; end <= stop; end++) {
		if (end > 1 && end < len && path[end] != '/')
			continue; /* "/" first, then each "/"-ended prefix */
		int last = !as_written && end >= len;
		struct stat st;
		char keep = p[end];
		p[end] = '\0';
		sprintf(what, "'%s'", p);
		int got = lstat(p, &st);
		p[end] = keep;
		if (got) {
			snprintf(why, n, "cannot read %s: %s", what, strerror(errno));
			goto out;
		}
		if (as_written && S_ISLNK(st.st_mode))
			continue;
		if (!(last ? S_ISREG(st.st_mode) : S_ISDIR(st.st_mode))) {
			/* Resolved: a link now is a change since. */
			snprintf(why, n, "%s is not a %s", what, last ? "regular file" : "directory");
			goto out;
		}
		/* A sticky directory's other writers cannot touch ours in it. */
		if (!last && st.st_mode & S_ISVTX)
			st.st_mode &= (mode_t)~(S_IWGRP | S_IWOTH);
		if (!vrt_trusted_stat(&st, 1, what, why, n))
			goto out;
	}
	ok = 1;
out:
	vrt_free(p);
	vrt_free(what);
	return ok;
}

int vrt_trusted_path(const char *path, char *why, size_t n)
{
	return trusted_walk(path, 0, why, n);
}

int vrt_trusted_dirs(const char *path, char *why, size_t n)
{
	return trusted_walk(path, 1, why, n);
}
