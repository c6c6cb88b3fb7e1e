/* SPDX-License-Identifier: MIT */
/*
 * cache.c - the on-disk cache of programs compiled at clBuildProgram.
 *
 * One file per key in the cache directory, named by a 64-bit hash of the
 * key's inputs (vrt_cache_key: the original source, the build options as
 * given, the device flags the compiler ran with, the compiler's identity,
 * the preprocessor's output) and ".vc". The file repeats every input in
 * full, then the payload:
 *
 *   vastcc-cache 2\n
 *   source N\n<N bytes>\n  options N\n<N bytes>\n  device N\n<N bytes>\n
 *   compiler N\n<N bytes>\n  preprocessed N\n<N bytes>\n  payload N\n<N bytes>\n
 *
 * so a lookup compares the inputs byte for byte: a hash collision is a
 * miss, never another program. An entry that cannot be read or parsed is
 * a miss and is removed; nothing here is ever an error to the program.
 *
 * Trust: an entry's payload is a program the runtime runs, and anyone who
 * can write an entry can recompute its fields, so the cache trusts the
 * file system, as ssh trusts ~/.ssh and ccache its directory (trust.c).
 * A directory is used only if it is owned by the effective user and
 * writable by nobody else (made 0700 when missing), and an entry only if
 * it is a regular file (opened with O_NOFOLLOW and O_NONBLOCK, then
 * fstat'ed: a symbolic link or a FIFO planted under an entry's name is
 * refused, and cannot block) owned by the effective user and writable by
 * nobody else.
 * A refusal is one warning per process that names the directory and why,
 * and the program is compiled as without a cache; so is a directory that
 * cannot be made, opened or written (a VAST_CACHE_DIR on a read-only
 * disk), but not one merely not made yet. Every operation works
 * on the directory's descriptor once it is checked (openat, renameat,
 * unlinkat), so the directory cannot be swapped under it.
 *
 * Concurrency: an entry is written to a temporary file ".tmpXXXXXX" in
 * the same directory, then renamed over its name (POSIX: atomic), so a
 * reader sees a whole entry or none, and two processes filling one key
 * both leave a whole one. Size: after a write, entries are removed oldest
 * first (by modification time, which a hit refreshes: least recently
 * used) until the directory holds at most `max` bytes, temporaries
 * counted. Only files the cache wrote are counted or removed: entries by
 * their hash-derived name and their magic line, temporaries by their
 * name; a temporary untouched for STALE_TMP_SECONDS is what a writer
 * killed mid-write left, and is removed. Two processes evicting at once
 * may both remove a file; unlink's ENOENT is ignored. No function here
 * takes the runtime's lock or touches shared state but the warned-once
 * flag.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "program/program.h"

#define CACHE_MAGIC "vastcc-cache 2\n"
#define KEY_FIELDS 5
#define CACHE_SUFFIX ".vc"
#define HASH_DIGITS 16
#define TMP_PREFIX ".tmp"
#define TMP_RANDOM 6
/* A write takes well under a second (a payload is a JSON of a few MB at
 * most, and its temporary's mtime moves with every write); a temporary
 * an hour old has no writer left. */
#define STALE_TMP_SECONDS 3600

/* The key's fields in file order, with their tags. */
static void key_fields(const vrt_cache_key *k, const char *s[KEY_FIELDS],
                       size_t n[KEY_FIELDS])
{
	s[0] = k->source, n[0] = k->source_len;
	s[1] = k->options ? k->options : "", n[1] = strlen(s[1]);
	s[2] = k->device ? k->device : "", n[2] = strlen(s[2]);
	s[3] = k->compiler ? k->compiler : "", n[3] = strlen(s[3]);
	s[4] = k->preprocessed ? k->preprocessed : "", n[4] = k->preprocessed ? k->preprocessed_len : 0;
}
static const char *const tags[KEY_FIELDS + 1] = { "source", "options", "device", "compiler",
                                                  "preprocessed", "payload" };

unsigned long long vrt_cache_hash(const vrt_cache_key *k)
{
	const char *s[KEY_FIELDS];
	size_t n[KEY_FIELDS];
	key_fields(k, s, n);
	unsigned long long h = VAST_HASH_SEED;
	for (int i = 0; i < KEY_FIELDS; i++) {
		/* The length first: ("ab", "c") and ("a", "bc") differ. */
		unsigned long long len = n[i];
		h = vast_hash_bytes(h, &len, sizeof len);
		h = vast_hash_bytes(h, s[i], n[i]);
	}
	return h;
}

/* HASH.vc, the entry's name in its directory. */
static void entry_name(const vrt_cache_key *k, char name[HASH_DIGITS + sizeof CACHE_SUFFIX])
{
	snprintf(name, HASH_DIGITS + sizeof CACHE_SUFFIX, "%016llx" CACHE_SUFFIX,
	         vrt_cache_hash(k));
}

static int is_entry_name(const char *s)
{
	for (int i = 0; i < HASH_DIGITS; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return !strcmp(s + HASH_DIGITS, CACHE_SUFFIX);
}

static int is_tmp_name(const char *s)
{
	static const char alnum[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	size_t p = strlen(TMP_PREFIX);
	if (strncmp(s, TMP_PREFIX, p) || strlen(s) != p + TMP_RANDOM)
		return 0;
	return strspn(s + p, alnum) == TMP_RANDOM;
}

/* Refusals warn once per process (a program building ten programs says it
 * once), then only at VAST_LOG=info. */
static int warned;

static void refuse(const char *dir, const char *why)
{
	int level = __atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED) ? VRT_LOG_INFO : VRT_LOG_WARN;
	vrt_log(level, "cache '%s' not used: %s; compiling without it", dir, why);
}

/* mkdir -p for the cache directory, each directory it makes 0700: a
 * user's own programs. */
static int make_dirs(const char *dir)
{
	char *d = vrt_strdup(dir);
	int r = 0;
	if (!d)
		return -1;
	for (char *p = d + 1; *p && !r; p++)
		if (*p == '/') {
			*p = '\0';
			r = mkdir(d, 0700) && errno != EEXIST ? -1 : 0;
			*p = '/';
		}
	if (!r)
		r = mkdir(d, 0700) && errno != EEXIST ? -1 : 0;
	int e = errno;
	vrt_free(d);
	errno = e;
	return r;
}

int vrt_cache_open_dir(const char *dir, int make, char *why, size_t n)
{
	struct stat st;
	why[0] = '\0';
	if (make && make_dirs(dir)) {
		snprintf(why, n, "cannot make it: %s", strerror(errno));
		return -1;
	}
	/* The path may pass through symbolic links (~/.cache on another
	 * disk); what is checked is the directory it names. */
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		/* Not made yet is no fault: the first put makes it. */
		if (errno != ENOENT)
			snprintf(why, n, "cannot open it: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!vrt_trusted_stat(&st, 0, "it", why, n)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* vrt_cache_open_dir, a refusal warned. */
static int open_dir(const char *dir, int make)
{
	char why[256];
	int fd = vrt_cache_open_dir(dir, make, why, sizeof why);
	if (fd < 0 && *why)
		refuse(dir, why);
	return fd;
}

/* Entry `name` of dfd opened for reading if it may be trusted, its stat
 * in *st; -1: missing (errno ENOENT) or refused (warned, errno EPERM). */
static int open_entry(int dfd, const char *dir, const char *name, struct stat *st)
{
	char what[64], why[256];
	snprintf(what, sizeof what, "entry '%s'", name);
	/* O_NONBLOCK: opening a FIFO for reading would wait for a writer. */
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ELOOP) {
			snprintf(why, sizeof why, "%s is a symbolic link", what);
			refuse(dir, why);
			errno = EPERM;
		}
		return -1;
	}
	if (fstat(fd, st)) {
		close(fd);
		return -1;
	}
	if (!S_ISREG(st->st_mode))
		snprintf(why, sizeof why, "%s is not a regular file", what);
	if (!S_ISREG(st->st_mode) || !vrt_trusted_stat(st, 0, what, why, sizeof why)) {
		refuse(dir, why);
		close(fd);
		errno = EPERM;
		return -1;
	}
	return fd;
}

/* The whole of a regular file open at fd (its size from st), malloc'd
 * and NUL-terminated, its length in *len; NULL when it cannot be read. */
static char *read_fd(int fd, const struct stat *st, size_t *len)
{
	char *buf = vrt_malloc((size_t)st->st_size + 1);
	size_t got = 0;
	if (!buf)
		return NULL;
	while (got < (size_t)st->st_size) {
		ssize_t r = read(fd, buf + got, (size_t)st->st_size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	if (got != (size_t)st->st_size) {
		vrt_free(buf);
		return NULL;
	}
	buf[got] = '\0';
	*len = got;
	return buf;
}

char *vrt_read_file(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *buf = NULL;
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0)
		buf = read_fd(fd, &st, len);
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
	char name[HASH_DIGITS + sizeof CACHE_SUFFIX], *buf = NULL, *out = NULL;
	struct stat st;
	size_t n = 0;
	int dfd = open_dir(dir, 0), fd = -1;
	entry_name(k, name);
	if (dfd < 0 || (fd = open_entry(dfd, dir, name, &st)) < 0 || !(buf = read_fd(fd, &st, &n)))
		goto out;
	const char *want[KEY_FIELDS], *s = NULL;
	size_t wn[KEY_FIELDS], at = strlen(CACHE_MAGIC), sn = 0;
	key_fields(k, want, wn);
	int ok = n >= at && !memcmp(buf, CACHE_MAGIC, at), same = 1;
	for (int i = 0; ok && i < KEY_FIELDS; i++) {
		ok = field(buf, n, &at, tags[i], &s, &sn);
		same = same && ok && sn == wn[i] && !memcmp(s, want[i], sn);
	}
	ok = ok && field(buf, n, &at, tags[KEY_FIELDS], &s, &sn) && at == n;
	if (!ok) {
		/* Truncated or garbled: remove it, a later build refills it. */
		vrt_log(VRT_LOG_INFO, "cache: removing corrupt entry '%s' of '%s'", name, dir);
		unlinkat(dfd, name, 0);
	} else if (same && (out = vrt_malloc(sn + 1))) {
		memcpy(out, s, sn);
		out[sn] = '\0';
		*len = sn;
		/* Used now: eviction takes the least recently used first. */
		futimens(fd, NULL);
	}
	/* A whole entry of another key (a hash collision) stays: a miss. */
out:
	if (fd >= 0)
		close(fd);
	if (dfd >= 0)
		close(dfd);
	vrt_free(buf);
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

/* A new temporary of dfd, 0600, its name in name[]: mkstemp relative to
 * the checked descriptor (O_EXCL makes the name ours; the random part
 * only makes a clash unlikely). */
static int make_tmp(int dfd, char name[sizeof TMP_PREFIX + TMP_RANDOM])
{
	static const char alnum[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	static unsigned long long counter;
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	unsigned long long h = VAST_HASH_SEED, c;
	pid_t pid = getpid();
	h = vast_hash_bytes(h, &pid, sizeof pid);
	h = vast_hash_bytes(h, &now, sizeof now);
	for (int attempt = 0; attempt < 100; attempt++) {
		c = __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
		unsigned long long r = vast_hash_bytes(h, &c, sizeof c);
		memcpy(name, TMP_PREFIX, strlen(TMP_PREFIX));
		for (int i = 0; i < TMP_RANDOM; i++, r /= sizeof alnum - 1)
			name[strlen(TMP_PREFIX) + i] = alnum[r % (sizeof alnum - 1)];
		name[strlen(TMP_PREFIX) + TMP_RANDOM] = '\0';
		int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
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

/* Whether `name` in dfd is an entry this cache wrote (for this user):
 * a regular file, ours, that begins with the magic line; its stat in *st. */
static int is_ours(int dfd, const char *name, struct stat *st)
{
	char head[sizeof CACHE_MAGIC - 1];
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), ok = 0;
	if (fd < 0)
		return 0;
	if (!fstat(fd, st) && S_ISREG(st->st_mode) && st->st_uid == geteuid())
		ok = read(fd, head, sizeof head) == (ssize_t)sizeof head &&
		     !memcmp(head, CACHE_MAGIC, sizeof head);
	close(fd);
	return ok;
}

void vrt_cache_trim(int dfd, unsigned long long max, vrt_cache_usage *left,
                    vrt_cache_usage *removed)
{
	vrt_cache_usage kept = { 0, 0 }, gone = { 0, 0 };
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	entry *all = NULL;
	size_t n = 0, cap = 0;
	unsigned long long total = 0;
	if (!d) {
		if (fd >= 0)
			close(fd);
		goto out;
	}
	time_t stale = time(NULL) - STALE_TMP_SECONDS;
	for (struct dirent *e; (e = readdir(d));) {
		struct stat st;
		if (is_tmp_name(e->d_name)) {
			/* Another writer's temporary takes room until renamed;
			 * one left by a writer killed mid-write is removed. */
			if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode) ||
			    st.st_uid != geteuid())
				continue;
			if (st.st_mtim.tv_sec < stale && unlinkat(dfd, e->d_name, 0) == 0)
				vrt_log(VRT_LOG_INFO, "cache: removed '%s', a write's leftover",
				        e->d_name);
			else
				total += (unsigned long long)st.st_size;
			continue;
		}
		/* A user's own files are neither counted nor removed. */
		if (!is_entry_name(e->d_name) || !is_ours(dfd, e->d_name, &st))
			continue;
		if (VRT_GROW(&all, &cap, n + 1))
			break;
		if (!(all[n].name = vrt_strdup(e->d_name)))
			break;
		all[n].used = st.st_mtim;
		all[n].size = (unsigned long long)st.st_size;
		total += all[n++].size;
	}
	if (n) /* qsort may not be passed NULL, even for no elements */
		qsort(all, n, sizeof *all, older);
	for (size_t i = 0; i < n; i++) {
		vrt_cache_usage *u = &kept;
		if (total > max && (unlinkat(dfd, all[i].name, 0) == 0 || errno == ENOENT)) {
			total -= all[i].size;
			u = &gone;
		}
		u->entries++;
		u->bytes += all[i].size;
	}
	for (size_t i = 0; i < n; i++)
		vrt_free(all[i].name);
	vrt_free(all);
	closedir(d);
out:
	if (left)
		*left = kept;
	if (removed)
		*removed = gone;
}

void vrt_cache_evict(const char *dir, unsigned long long max)
{
	int dfd = open_dir(dir, 0);
	if (dfd >= 0) {
		vrt_cache_trim(dfd, max, NULL, NULL);
		close(dfd);
	}
}

int vrt_cache_put(const char *dir, const vrt_cache_key *k, const char *data,
                  size_t len, unsigned long long max)
{
	char name[HASH_DIGITS + sizeof CACHE_SUFFIX], tmp[sizeof TMP_PREFIX + TMP_RANDOM];
	int dfd = open_dir(dir, 1), fd = -1, err = -1;
	if (dfd < 0)
		goto out;
	if ((fd = make_tmp(dfd, tmp)) < 0) {
		char why[256];
		snprintf(why, sizeof why, "cannot write in it: %s", strerror(errno));
		refuse(dir, why);
		goto out;
	}
	entry_name(k, name);
	const char *s[KEY_FIELDS];
	size_t n[KEY_FIELDS];
	key_fields(k, s, n);
	err = write_all(fd, CACHE_MAGIC, strlen(CACHE_MAGIC));
	for (int i = 0; !err && i < KEY_FIELDS; i++)
		err = write_field(fd, tags[i], s[i], n[i]);
	err = err || write_field(fd, tags[KEY_FIELDS], data, len);
	err = close(fd) || err ? -1 : 0;
	/* Over whatever has the name: a refused entry is replaced by ours. */
	if (!err)
		err = renameat(dfd, tmp, dfd, name);
	if (err)
		unlinkat(dfd, tmp, 0);
	else
		vrt_cache_trim(dfd, max, NULL, NULL);
out:
	if (dfd >= 0)
		close(dfd);
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
