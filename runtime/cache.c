/* SPDX-License-Identifier: MIT */
/*
 * cache.c - the on-disk cache of programs compiled at clBuildProgram.
 *
 * One file per key in the cache directory, named by a 64-bit hash of the
 * key's inputs (vrt_cache_key: the original source, the build options as
 * given, the device flags the compiler ran with, the compiler's identity)
 * and ".vc". The file repeats every input in full, then the payload:
 *
 *   vastcc-cache 1\n
 *   source N\n<N bytes>\n  options N\n<N bytes>\n  device N\n<N bytes>\n
 *   compiler N\n<N bytes>\n  payload N\n<N bytes>\n
 *
 * so a lookup compares the inputs byte for byte: a hash collision is a
 * miss, never another program. An entry that cannot be read or parsed is
 * a miss and is removed; nothing here is ever an error to the program.
 *
 * Concurrency: an entry is written to a temporary file in the same
 * directory, then rename()d over its name (POSIX: atomic), so a reader
 * sees a whole entry or none, and two processes filling one key both
 * leave a whole one. Size: after a write, entries are removed oldest
 * first (by modification time, which a hit refreshes: least recently
 * used) until the directory holds at most `max` bytes. Two processes
 * evicting at once may both remove a file; unlink's ENOENT is ignored.
 * No function here takes the runtime's lock or touches shared state.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vrt.h"

#define CACHE_MAGIC "vastcc-cache 1\n"
#define CACHE_SUFFIX ".vc"

/* The key's fields in file order, with their tags. */
static void key_fields(const vrt_cache_key *k, const char *s[4], size_t n[4])
{
	s[0] = k->source, n[0] = k->source_len;
	s[1] = k->options ? k->options : "", n[1] = strlen(s[1]);
	s[2] = k->device ? k->device : "", n[2] = strlen(s[2]);
	s[3] = k->compiler ? k->compiler : "", n[3] = strlen(s[3]);
}
static const char *const tags[5] = { "source", "options", "device", "compiler", "payload" };

unsigned long long vrt_cache_hash(const vrt_cache_key *k)
{
	const char *s[4];
	size_t n[4];
	key_fields(k, s, n);
	unsigned long long h = VAST_HASH_SEED;
	for (int i = 0; i < 4; i++) {
		/* The length first: ("ab", "c") and ("a", "bc") differ. */
		unsigned long long len = n[i];
		h = vast_hash_bytes(h, &len, sizeof len);
		h = vast_hash_bytes(h, s[i], n[i]);
	}
	return h;
}

/* DIR/HASH.vc, malloc'd. */
static char *entry_path(const char *dir, const vrt_cache_key *k)
{
	size_t n = strlen(dir) + 32;
	char *path = vrt_malloc(n);
	if (path)
		snprintf(path, n, "%s/%016llx" CACHE_SUFFIX, dir, vrt_cache_hash(k));
	return path;
}

char *vrt_read_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *buf = NULL;
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && (buf = vrt_malloc((size_t)st.st_size + 1))) {
		size_t got = 0;
		while (got < (size_t)st.st_size) {
			ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			got += (size_t)r;
		}
		if (got != (size_t)st.st_size) {
			vrt_free(buf);
			buf = NULL;
		} else {
			buf[got] = '\0';
			*len = got;
		}
	}
	close(fd);
	return buf;
}

/* Reads "TAG N\n<N bytes>\n" at *at; the bytes in *s, *n. */
static int field(const char *buf, size_t len, size_t *at, const char *tag,
                 const char **s, size_t *n)
{
	size_t t = strlen(tag), i = *at;
	if (len - i < t + 2 || memcmp(buf + i, tag, t) || buf[i + t] != ' ')
		return 0;
	i += t + 1;
	unsigned long long v = 0;
	size_t digits = 0;
	while (i < len && buf[i] >= '0' && buf[i] <= '9' && digits < 19)
		v = v * 10 + (unsigned)(buf[i++] - '0'), digits++;
	if (!digits || i >= len || buf[i++] != '\n' || v > len - i || len - i - v < 1 ||
	    buf[i + v] != '\n')
		return 0;
	*s = buf + i;
	*n = (size_t)v;
	*at = i + v + 1;
	return 1;
}

char *vrt_cache_get(const char *dir, const vrt_cache_key *k, size_t *len)
{
	char *path = entry_path(dir, k), *buf = NULL, *out = NULL;
	size_t n = 0;
	if (!path || !(buf = vrt_read_file(path, &n))) {
		vrt_free(path);
		return NULL;
	}
	const char *want[4], *s = NULL;
	size_t wn[4], at = strlen(CACHE_MAGIC), sn = 0;
	key_fields(k, want, wn);
	int ok = n >= at && !memcmp(buf, CACHE_MAGIC, at), same = 1;
	for (int i = 0; ok && i < 4; i++) {
		ok = field(buf, n, &at, tags[i], &s, &sn);
		same = same && ok && sn == wn[i] && !memcmp(s, want[i], sn);
	}
	ok = ok && field(buf, n, &at, tags[4], &s, &sn) && at == n;
	if (!ok) {
		/* Truncated or garbled: remove it, a later build refills it. */
		vrt_log(VRT_LOG_INFO, "cache: removing corrupt entry '%s'", path);
		unlink(path);
	} else if (same && (out = vrt_malloc(sn + 1))) {
		memcpy(out, s, sn);
		out[sn] = '\0';
		*len = sn;
		/* Used now: eviction takes the least recently used first. */
		utimensat(AT_FDCWD, path, NULL, 0);
	}
	/* A whole entry of another key (a hash collision) stays: a miss. */
	vrt_free(buf);
	vrt_free(path);
	return out;
}

static int write_all(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		s += w, n -= (size_t)w;
	}
	return 0;
}

static int write_field(int fd, const char *tag, const char *s, size_t n)
{
	char head[64];
	int h = snprintf(head, sizeof head, "%s %zu\n", tag, n);
	return write_all(fd, head, (size_t)h) || write_all(fd, s, n) || write_all(fd, "\n", 1);
}

/* mkdir -p for the cache directory (mode 0700: a user's own programs). */
static int make_dirs(const char *dir)
{
	char *d = vrt_strdup(dir);
	if (!d)
		return -1;
	for (char *p = d + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(d, 0700) && errno != EEXIST) {
				vrt_free(d);
				return -1;
			}
			*p = '/';
		}
	int r = mkdir(d, 0700) && errno != EEXIST ? -1 : 0;
	vrt_free(d);
	return r;
}

typedef struct entry {
	char *name;
	struct timespec used;
	unsigned long long size;
} entry;

static int older(const void *a, const void *b)
{
	const entry *x = a, *y = b;
	if (x->used.tv_sec != y->used.tv_sec)
		return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
	if (x->used.tv_nsec != y->used.tv_nsec)
		return x->used.tv_nsec < y->used.tv_nsec ? -1 : 1;
	return strcmp(x->name, y->name);
}

void vrt_cache_evict(const char *dir, unsigned long long max)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	entry *all = NULL;
	size_t n = 0, cap = 0;
	unsigned long long total = 0;
	for (struct dirent *e; (e = readdir(d));) {
		size_t l = strlen(e->d_name), sl = strlen(CACHE_SUFFIX);
		struct stat st;
		if (l <= sl || strcmp(e->d_name + l - sl, CACHE_SUFFIX) ||
		    fstatat(dirfd(d), e->d_name, &st, 0) || !S_ISREG(st.st_mode))
			continue;
		if (n == cap) {
			entry *g = vrt_realloc(all, (cap = cap ? 2 * cap : 64) * sizeof *all);
			if (!g)
				break;
			all = g;
		}
		if (!(all[n].name = vrt_strdup(e->d_name)))
			break;
		all[n].used = st.st_mtim;
		all[n].size = (unsigned long long)st.st_size;
		total += all[n++].size;
	}
	qsort(all, n, sizeof *all, older);
	for (size_t i = 0; i < n && total > max; i++) {
		if (unlinkat(dirfd(d), all[i].name, 0) == 0 || errno == ENOENT)
			total -= all[i].size;
	}
	for (size_t i = 0; i < n; i++)
		vrt_free(all[i].name);
	vrt_free(all);
	closedir(d);
}

int vrt_cache_put(const char *dir, const vrt_cache_key *k, const char *data,
                  size_t len, unsigned long long max)
{
	char *path = entry_path(dir, k), *tmp = path ? vrt_malloc(strlen(path) + 16) : NULL;
	int fd = -1, err = -1;
	if (!tmp || make_dirs(dir))
		goto out;
	/* A name no other process or thread uses: mkstemp's random suffix. */
	sprintf(tmp, "%s/.tmpXXXXXX", dir);
	if ((fd = mkstemp(tmp)) < 0)
		goto out;
	const char *s[4];
	size_t n[4];
	key_fields(k, s, n);
	err = write_all(fd, CACHE_MAGIC, strlen(CACHE_MAGIC));
	for (int i = 0; !err && i < 4; i++)
		err = write_field(fd, tags[i], s[i], n[i]);
	err = err || write_field(fd, tags[4], data, len);
	err = close(fd) || err ? -1 : 0;
	if (!err)
		err = rename(tmp, path);
	if (err)
		unlink(tmp);
	else
		vrt_cache_evict(dir, max);
out:
	vrt_free(path);
	vrt_free(tmp);
	return err;
}

char *vrt_cache_dir(void)
{
	const char *s = vrt_getenv("VAST_CACHE_DIR");
	const char *base = vrt_getenv("XDG_CACHE_HOME"), *home = vrt_getenv("HOME");
	char *out;
	if (s && *s)
		return vrt_strdup(s);
	/* XDG Base Directory: $XDG_CACHE_HOME only when absolute. */
	if (base && base[0] == '/') {
		if ((out = vrt_malloc(strlen(base) + 8)))
			sprintf(out, "%s/vastcc", base);
	} else if (home && *home) {
		if ((out = vrt_malloc(strlen(home) + 16)))
			sprintf(out, "%s/.cache/vastcc", home);
	} else {
		out = NULL;
	}
	return out;
}
