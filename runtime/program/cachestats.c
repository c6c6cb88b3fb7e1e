/* SPDX-License-Identifier: MIT */
/*
 * cachestats.c - the cache's counts and its size setting, kept in its
 * directory beside the entries (cache.c), as ccache keeps its statistics
 * and its ccache.conf there: ".vastcc-stats" counts the runtime's lookups
 * (hits, misses), ".vastcc-settings" holds the bound `vastcc --cache-max`
 * set. `vastcc --cache-stats` reads both; VAST_CACHE_MAX, when set,
 * overrides the setting (vrt_cache_max). The names are hidden and
 * prefixed, as the entries' are hash-derived: the directory may be one
 * the user keeps files in (VAST_CACHE_DIR=.), whose own "stats" must not
 * become ours.
 *
 * A file is a magic line, then "NAME VALUE" lines:
 *
 *   vastcc-cache-stats 1\n  hits 12\n  misses 3\n
 *
 * It is opened as an entry is (openat on the checked directory,
 * O_NOFOLLOW, O_NONBLOCK; a regular file of the effective user writable
 * by nobody else, made 0600) and changed in place under an exclusive
 * flock: read, change, write from offset 0, truncate. A reader takes a
 * shared lock, so processes counting at once lose no count and a reader
 * never sees half a write. The lock is waited for a little only
 * (LOCK_WAIT_MS): a holder that does not let go (a stopped `vastcc
 * --cache-max`, a forked child that kept the descriptor) costs a count,
 * never the program's time. A file is the cache's only when it is empty
 * (made, its writer killed before it wrote) or begins with the magic
 * line; any other is the user's, neither read nor written (warned once).
 * One of ours that does not parse further on (a writer killed between
 * its write and its truncate) reads as zeros from the first bad line and
 * is rewritten whole by the next change. Counting is never an error to
 * the program: a file that cannot be opened, trusted or locked is left
 * alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "program/program.h"

/* The counts and settings, each in its file. */
typedef struct number_file {
	const char *name, *magic;
} number_file;
static const number_file stats_file = { ".vastcc-stats", "vastcc-cache-stats 1\n" };
static const number_file settings_file = { ".vastcc-settings", "vastcc-cache-settings 1\n" };

/* open_numbers' answers besides a descriptor. */
enum {
	NUMBERS_REFUSED = -1, /* cannot be opened, trusted or locked */
	NUMBERS_MISSING = -2, /* and not to be made */
	NUMBERS_FOREIGN = -3, /* the user's file under our name: left alone */
};

/* A change takes well under a millisecond; a lock still held after this
 * long has a holder that is not counting (stopped, or a child that
 * inherited it). Tried every LOCK_POLL_MS. */
#define LOCK_WAIT_MS 100
#define LOCK_POLL_MS 5

#define MAX_NUMBERS 8
#define NAME_CHARS 32

/* What a file holds: every line kept, known or not, so that a later
 * version's numbers survive this one's writes. */
typedef struct numbers {
	int n;
	char name[MAX_NUMBERS][NAME_CHARS];
	unsigned long long value[MAX_NUMBERS];
} numbers;

static unsigned long long *number(numbers *ns, const char *name)
{
	for (int i = 0; i < ns->n; i++)
		if (!strcmp(ns->name[i], name))
			return &ns->value[i];
	if (ns->n == MAX_NUMBERS)
		return NULL;
	snprintf(ns->name[ns->n], NAME_CHARS, "%s", name);
	ns->value[ns->n] = 0;
	return &ns->value[ns->n++];
}

/* The numbers of file f open at fd; those up to the first line that does
 * not parse. */
static void parse(int fd, const number_file *f, numbers *ns)
{
	char buf[1024];
	ssize_t got = pread(fd, buf, sizeof buf - 1, 0);
	size_t m = strlen(f->magic);
	ns->n = 0;
	if (got < (ssize_t)m || memcmp(buf, f->magic, m))
		return;
	buf[got] = '\0';
	for (char *l = buf + m, *nl; (nl = strchr(l, '\n')); l = nl + 1) {
		char name[NAME_CHARS], end;
		unsigned long long v;
		*nl = '\0';
		if (sscanf(l, "%31[a-z_] %llu%c", name, &v, &end) != 2 || ns->n == MAX_NUMBERS)
			return;
		*number(ns, name) = v;
	}
}

static int write_numbers(int fd, const number_file *f, const numbers *ns)
{
	char buf[1024];
	size_t at = (size_t)snprintf(buf, sizeof buf, "%s", f->magic);
	for (int i = 0; i < ns->n; i++)
		at += (size_t)snprintf(buf + at, sizeof buf - at, "%s %llu\n", ns->name[i],
		                       ns->value[i]);
	return pwrite(fd, buf, at, 0) == (ssize_t)at && ftruncate(fd, (off_t)at) == 0 ? 0 : -1;
}

/* flock(fd, op) retried without blocking for LOCK_WAIT_MS; 0, or -1
 * with errno. */
static int lock_a_little(int fd, int op)
{
	for (int waited = 0;; waited += LOCK_POLL_MS) {
		if (flock(fd, op | LOCK_NB) == 0)
			return 0;
		if ((errno != EWOULDBLOCK && errno != EINTR) || waited >= LOCK_WAIT_MS)
			return -1;
		nanosleep(&(struct timespec){ 0, LOCK_POLL_MS * 1000 * 1000 }, NULL);
	}
}

/* Whether the file open at fd is ours: empty, or beginning with f's
 * magic line. */
static int ours(int fd, const number_file *f)
{
	char head[64];
	size_t m = strlen(f->magic);
	ssize_t got = pread(fd, head, m, 0);
	return got == 0 || (got == (ssize_t)m && !memcmp(head, f->magic, m));
}

/* File f of the checked directory dfd, locked: exclusive and made when
 * missing for `change`, else shared. A descriptor, or NUMBERS_REFUSED or
 * NUMBERS_FOREIGN with why (naming the file), or NUMBERS_MISSING when it
 * is missing and not to be made. */
static int open_numbers(int dfd, const number_file *f, int change, char *why, size_t n)
{
	char what[64];
	struct stat st;
	snprintf(what, sizeof what, "'%s'", f->name);
	int fd = openat(dfd, f->name, (change ? O_RDWR | O_CREAT : O_RDONLY) | O_NOFOLLOW |
	                              O_NONBLOCK | O_CLOEXEC, 0600);
	if (fd < 0) {
		if (errno == ENOENT && !change)
			return NUMBERS_MISSING;
		snprintf(why, n, errno == ELOOP ? "%s is a symbolic link" : "cannot open %s: %s",
		         what, strerror(errno));
		return NUMBERS_REFUSED;
	}
	int res = NUMBERS_REFUSED;
	if (fstat(fd, &st)) {
		snprintf(why, n, "cannot read %s: %s", what, strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		snprintf(why, n, "%s is not a regular file", what);
	} else if (vrt_trusted_stat(&st, 0, what, why, n)) {
		if (lock_a_little(fd, change ? LOCK_EX : LOCK_SH))
			snprintf(why, n, "cannot lock %s: %s", what,
			         errno == EWOULDBLOCK ? "another process holds it" : strerror(errno));
		else if (ours(fd, f))
			return fd;
		else {
			snprintf(why, n, "%s is not the cache's (it does not begin with '%.*s'); "
			         "left alone", what, (int)strlen(f->magic) - 1, f->magic);
			res = NUMBERS_FOREIGN;
		}
	}
	close(fd);
	return res;
}

/* Reads file f of dfd into *ns (nothing when it is missing); 0, or -1
 * with why. */
static int read_numbers(int dfd, const number_file *f, numbers *ns, char *why, size_t n)
{
	ns->n = 0;
	int fd = open_numbers(dfd, f, 0, why, n);
	if (fd == NUMBERS_REFUSED || fd == NUMBERS_FOREIGN)
		return -1;
	if (fd >= 0) {
		parse(fd, f, ns);
		close(fd);
	}
	return 0;
}

/* Adds v to the number `name` of file f of dfd, or with `set` makes it
 * v; 0, or NUMBERS_REFUSED or NUMBERS_FOREIGN with why. */
static int change_number(int dfd, const number_file *f, const char *name, int set,
                         unsigned long long v, char *why, size_t n)
{
	numbers ns;
	int fd = open_numbers(dfd, f, 1, why, n);
	if (fd < 0)
		return fd;
	parse(fd, f, &ns);
	unsigned long long *p = number(&ns, name);
	int err = -1;
	if (p) {
		*p = set ? v : *p + v;
		if ((err = write_numbers(fd, f, &ns)))
			snprintf(why, n, "cannot write '%s': %s", f->name, strerror(errno));
	} else {
		snprintf(why, n, "'%s' holds too many numbers", f->name);
	}
	close(fd); /* and the lock with it */
	return err;
}

/* A user's file under our name is worth telling once per process (then
 * at VAST_LOG=info): nothing is counted while it is there. */
static int warned_foreign;

void vrt_cache_count(const char *dir, int hit)
{
	char why[256];
	int dfd = vrt_cache_open_dir(dir, 1, why, sizeof why);
	if (dfd < 0)
		return; /* the lookup or the store says why */
	int r = change_number(dfd, &stats_file, hit ? "hits" : "misses", 0, 1, why, sizeof why);
	int level = r == NUMBERS_FOREIGN &&
	            !__atomic_exchange_n(&warned_foreign, 1, __ATOMIC_RELAXED) ? VRT_LOG_WARN
	                                                                       : VRT_LOG_INFO;
	if (r)
		vrt_log(level, "cache '%s': not counted: %s", dir, why);
	close(dfd);
}

int vrt_cache_numbers_read(int dfd, vrt_cache_numbers *out, char *why, size_t n)
{
	numbers stats, settings;
	char also[256];
	*out = (vrt_cache_numbers){ 0, 0, 0 };
	/* Each file on its own: a refused count leaves the bound read. */
	int bad_stats = read_numbers(dfd, &stats_file, &stats, why, n);
	int bad_settings = read_numbers(dfd, &settings_file, &settings, also, sizeof also);
	if (bad_settings && !bad_stats)
		snprintf(why, n, "%s", also);
	unsigned long long *v;
	if ((v = number(&stats, "hits")))
		out->hits = *v;
	if ((v = number(&stats, "misses")))
		out->misses = *v;
	if ((v = number(&settings, "max")))
		out->max = *v;
	return bad_stats || bad_settings ? -1 : 0;
}

int vrt_cache_set_max(int dfd, unsigned long long max, char *why, size_t n)
{
	return change_number(dfd, &settings_file, "max", 1, max, why, n) ? -1 : 0;
}

unsigned long long vrt_cache_max(const char *dir)
{
	char why[256];
	vrt_cache_numbers nums = { 0, 0, 0 };
	if (vrt_cfg.cache_max)
		return vrt_cfg.cache_max;
	int dfd = vrt_cache_open_dir(dir, 0, why, sizeof why);
	if (dfd >= 0) {
		if (vrt_cache_numbers_read(dfd, &nums, why, sizeof why))
			vrt_log(VRT_LOG_INFO, "cache '%s': its counts or setting not read: %s", dir, why);
		close(dfd);
	}
	return nums.max ? nums.max : VRT_CACHE_MAX_DEFAULT;
}
