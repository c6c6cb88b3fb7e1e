/* SPDX-License-Identifier: MIT */
/*
 * test_rt_cache.c - the on-disk cache of compiled programs (cache.c):
 * key stability and sensitivity, a collision is a miss, corrupt entries
 * are misses and removed, eviction takes the least recently used first,
 * removes only what the cache wrote and counts (and clears out, when
 * stale) temporaries, processes writing at once leave whole entries, and
 * the trust rule: a directory or entry another user owns or could write,
 * a symbolic link or a FIFO under an entry's name, is never used (one
 * warning); nor is a directory that cannot be made or written (one
 * warning too); the counts of hits and misses and the size setting beside
 * the entries (cachestats.c). Files of another user are made by chown, so those checks
 * need root and are skipped with a message otherwise.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vrt.h"

#include "check.h"

static char dir[256];

static vrt_cache_key key_of(const char *src, const char *opts)
{
	vrt_cache_key k = { src, strlen(src), opts, "--device-extensions=cl_khr_fp64",
	                    "vastcc 0.1.0 abi 3", NULL, 0 };
	return k;
}

static char *path_of(const vrt_cache_key *k)
{
	static char p[512];
	snprintf(p, sizeof p, "%s/%016llx.vc", dir, vrt_cache_hash(k));
	return p;
}

static int exists(const char *p)
{
	return access(p, F_OK) == 0;
}

/* get(k) returns exactly want. */
static int holds(const vrt_cache_key *k, const char *want)
{
	size_t n = 0;
	char *got = vrt_cache_get(dir, k, &n);
	int ok = got && n == strlen(want) && !memcmp(got, want, n);
	vrt_free(got);
	return ok;
}

static void test_key(void)
{
	vrt_cache_key a = key_of("kernel void k() {}", "-DN=4");
	vrt_cache_key b = a;
	unsigned long long h = vrt_cache_hash(&a);
	CHECK(vrt_cache_hash(&b) == h);
	/* The same in another process (no per-process seed). */
	int fd[2];
	CHECK(pipe(fd) == 0);
	pid_t pid = fork();
	if (pid == 0) {
		unsigned long long c = vrt_cache_hash(&a);
		_exit(write(fd[1], &c, sizeof c) == sizeof c ? 0 : 1);
	}
	unsigned long long other = 0;
	CHECK(read(fd[0], &other, sizeof other) == sizeof other);
	waitpid(pid, NULL, 0);
	close(fd[0]), close(fd[1]);
	CHECK(other == h);
	/* Each input counts. */
	b.source = "kernel void k() { }", b.source_len = strlen(b.source);
	CHECK(vrt_cache_hash(&b) != h);
	b = a, b.source_len--;
	CHECK(vrt_cache_hash(&b) != h);
	b = a, b.options = "-DN=5";
	CHECK(vrt_cache_hash(&b) != h);
	b = a, b.options = "-DN=4 ";
	CHECK(vrt_cache_hash(&b) != h);
	b = a, b.device = "--device-extensions=";
	CHECK(vrt_cache_hash(&b) != h);
	b = a, b.compiler = "vastcc 0.1.1 abi 3";
	CHECK(vrt_cache_hash(&b) != h);
	b = a, b.preprocessed = "# 1 \"./scale.h\" 1", b.preprocessed_len = 17;
	CHECK(vrt_cache_hash(&b) != h);
	/* Bytes moved from one field to the next: another key. */
	vrt_cache_key c = { "ab", 2, "c", "", "", NULL, 0 }, d = { "a", 1, "bc", "", "", NULL, 0 };
	CHECK(vrt_cache_hash(&c) != vrt_cache_hash(&d));
	/* NULL is the empty string. */
	c.options = "", d = c, d.options = NULL;
	CHECK(vrt_cache_hash(&c) == vrt_cache_hash(&d));
}

static void test_round_trip_and_collision(void)
{
	vrt_cache_key a = key_of("kernel void a() {}", "-DX");
	vrt_cache_key b = key_of("kernel void b() {}", "-DX");
	CHECK(!holds(&a, "")); /* empty cache: a miss */
	CHECK(vrt_cache_put(dir, &a, "{\"a\":1}", 7, 1 << 20) == 0);
	CHECK(holds(&a, "{\"a\":1}"));
	CHECK(!holds(&b, "{\"a\":1}"));
	/* The payload may hold anything, newlines and NULs included. */
	CHECK(vrt_cache_put(dir, &b, "x\n\0y\n", 5, 1 << 20) == 0);
	size_t n = 0;
	char *got = vrt_cache_get(dir, &b, &n);
	CHECK(got && n == 5 && !memcmp(got, "x\n\0y\n", 5));
	vrt_free(got);
	/* A's whole entry under B's name (their hashes collided): a miss
	 * for B, never A's program; the entry is not corrupt, it stays. */
	char pa[512];
	snprintf(pa, sizeof pa, "%s", path_of(&a));
	CHECK(rename(pa, path_of(&b)) == 0);
	CHECK(!holds(&b, "{\"a\":1}"));
	CHECK(!holds(&b, "x\n\0y\n"));
	CHECK(exists(path_of(&b)));
	unlink(path_of(&b));
	/* The preprocessor's output (the headers' text) is compared as the
	 * rest: another header's entry under this key's name is a miss. */
	vrt_cache_key ha = a, hb = a;
	ha.preprocessed = "int x;", ha.preprocessed_len = 6;
	hb.preprocessed = "int y;", hb.preprocessed_len = 6;
	CHECK(vrt_cache_put(dir, &ha, "{\"h\":1}", 7, 1 << 20) == 0);
	CHECK(holds(&ha, "{\"h\":1}") && !holds(&hb, "{\"h\":1}"));
	snprintf(pa, sizeof pa, "%s", path_of(&ha));
	CHECK(rename(pa, path_of(&hb)) == 0);
	CHECK(!holds(&hb, "{\"h\":1}"));
	unlink(path_of(&hb));
}

static void test_corrupt(void)
{
	vrt_cache_key a = key_of("kernel void c() {}", "");
	const char *payload = "{\"program\":\"kernel void c() {}\"}";
	CHECK(vrt_cache_put(dir, &a, payload, strlen(payload), 1 << 20) == 0);
	size_t whole = 0;
	char *bytes = vrt_read_file(path_of(&a), &whole);
	CHECK(bytes != NULL);
	if (!bytes)
		return;
	/* Cut at every length: a miss, and the remains are removed. */
	for (size_t cut = 0; cut < whole; cut++) {
		FILE *f = fopen(path_of(&a), "wb");
		CHECK(f && fwrite(bytes, 1, cut, f) == cut);
		if (f)
			fclose(f);
		CHECK(!holds(&a, payload));
		CHECK(!exists(path_of(&a)));
	}
	/* Garbled in place: every byte of the header changed in turn. */
	size_t header = whole - strlen(payload) - 1;
	for (size_t i = 0; i < header; i++) {
		char *g = malloc(whole);
		memcpy(g, bytes, whole);
		g[i] = g[i] == '9' ? '8' : '9';
		FILE *f = fopen(path_of(&a), "wb");
		CHECK(f && fwrite(g, 1, whole, f) == whole);
		if (f)
			fclose(f);
		free(g);
		CHECK(!holds(&a, payload));
	}
	unlink(path_of(&a));
	vrt_free(bytes);
}

static void set_time(const char *p, long sec)
{
	struct timespec t[2] = { { sec, 0 }, { sec, 0 } };
	CHECK(utimensat(AT_FDCWD, p, t, 0) == 0);
}

static long long file_size(const char *p)
{
	struct stat st;
	return stat(p, &st) ? -1 : (long long)st.st_size;
}

static void test_eviction(void)
{
	vrt_cache_key k[4] = {
		key_of("kernel void e0() {}", ""), key_of("kernel void e1() {}", ""),
		key_of("kernel void e2() {}", ""), key_of("kernel void e3() {}", ""),
	};
	long long total = 0;
	for (int i = 0; i < 3; i++) {
		CHECK(vrt_cache_put(dir, &k[i], "payload", 7, 1 << 20) == 0);
		set_time(path_of(&k[i]), 1000000 + 1000 * i); /* e0 oldest */
		total += file_size(path_of(&k[i]));
	}
	/* A hit makes e0 the most recently used... */
	CHECK(holds(&k[0], "payload"));
	/* ...so a write that needs room for one more removes e1, then e2. */
	long long one = file_size(path_of(&k[0]));
	CHECK(vrt_cache_put(dir, &k[3], "payload", 7, (unsigned long long)(total)) == 0);
	CHECK(!exists(path_of(&k[1])));
	CHECK(exists(path_of(&k[2])) && exists(path_of(&k[0])) && exists(path_of(&k[3])));
	vrt_cache_evict(dir, (unsigned long long)(2 * one));
	CHECK(!exists(path_of(&k[2])));
	CHECK(exists(path_of(&k[0])) && exists(path_of(&k[3])));
	/* Files that are not entries are never counted nor removed. */
	char other[512];
	snprintf(other, sizeof other, "%s/README", dir);
	FILE *f = fopen(other, "w");
	CHECK(f && fputs("not an entry\n", f) >= 0);
	if (f)
		fclose(f);
	vrt_cache_evict(dir, 0);
	CHECK(!exists(path_of(&k[0])) && !exists(path_of(&k[3])));
	CHECK(exists(other));
	unlink(other);
}

/* A uid that is not ours, for files "another user" owns (chown: root). */
#define OTHER_UID 4242

static void write_file(const char *p, const char *s, size_t n)
{
	FILE *f = fopen(p, "wb");
	CHECK(f && fwrite(s, 1, n, f) == n);
	if (f)
		CHECK(fclose(f) == 0);
}

/* Runs fn in a child, its stderr in dir/child.log, under a 20-second
 * alarm: a call that blocks fails the test rather than hanging it. The
 * child's warnings (lines with "warning: ") are counted in *warnings and
 * the first kept in first[]. Whether every CHECK of fn held. */
static int in_child(void (*fn)(void), int *warnings, char first[512])
{
	char log[512];
	snprintf(log, sizeof log, "%s/child.log", dir);
	fflush(stderr);
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || dup2(fd, 2) < 0)
			_exit(2);
		failures = 0;
		alarm(20);
		fn();
		_exit(failures != 0);
	}
	int st = 0;
	CHECK(waitpid(pid, &st, 0) == pid);
	int ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
	FILE *f = fopen(log, "r");
	char line[512];
	*warnings = 0;
	first[0] = '\0';
	while (f && fgets(line, sizeof line, f)) {
		if (strstr(line, "warning: ") && !(*warnings)++)
			snprintf(first, 512, "%s", line);
		if (!ok)
			fputs(line, stderr);
	}
	if (f)
		fclose(f);
	if (!ok)
		fprintf(stderr, "child %s\n",
		        WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM ? "blocked (killed after 20 s)"
		                                                   : "failed");
	unlink(log);
	return ok;
}

/* The directory trust() works on: a subdirectory of dir made for the
 * case, with one entry written while it was still trusted. */
static char case_dir[512];
static vrt_cache_key case_key;

static char *case_path(void)
{
	static char p[600];
	snprintf(p, sizeof p, "%s/%016llx.vc", case_dir, vrt_cache_hash(&case_key));
	return p;
}

static void new_case(const char *name)
{
	char cmd[600];
	snprintf(case_dir, sizeof case_dir, "%s/%s", dir, name);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", case_dir);
	CHECK(system(cmd) == 0);
	case_key = key_of("kernel void t() {}", "-DT");
	CHECK(vrt_cache_put(case_dir, &case_key, "payload", 7, 1 << 20) == 0);
	CHECK(exists(case_path()));
}

/* In the child: the entry is not used, nothing is written, eviction
 * leaves the directory alone; twice, so that the warning's count shows
 * it is given once. */
static void refused_case(void)
{
	vrt_cache_key other = key_of("kernel void u() {}", "-DT");
	for (int i = 0; i < 2; i++) {
		size_t n = 0;
		char *got = vrt_cache_get(case_dir, &case_key, &n);
		CHECK(got == NULL);
		vrt_free(got);
	}
	/* An untrusted directory: nothing is written. An untrusted entry in
	 * a trusted one is replaced by ours. */
	struct stat st;
	if (stat(case_dir, &st) == 0 && st.st_uid == geteuid() && !(st.st_mode & 022)) {
		CHECK(vrt_cache_put(case_dir, &other, "p", 1, 1 << 20) == 0);
	} else {
		CHECK(vrt_cache_put(case_dir, &other, "p", 1, 1 << 20) != 0);
		char p[600];
		snprintf(p, sizeof p, "%s/%016llx.vc", case_dir, vrt_cache_hash(&other));
		CHECK(!exists(p));
		vrt_cache_evict(case_dir, 0);
		CHECK(exists(case_path()));
	}
}

/* The case's directory is refused: one warning naming it and `why`. */
static void expect_refused(const char *why)
{
	int warnings = 0;
	char first[512];
	CHECK(in_child(refused_case, &warnings, first));
	CHECK(warnings == 1);
	CHECK(strstr(first, case_dir) != NULL);
	CHECK(strstr(first, why) != NULL);
	if (warnings != 1 || !strstr(first, why))
		fprintf(stderr, "  %s: want one warning saying '%s', got %d: %s\n", case_dir, why,
		        warnings, first);
}

static void fifo_case(void)
{
	size_t n = 0;
	char *got = vrt_cache_get(case_dir, &case_key, &n);
	CHECK(got == NULL);
	vrt_free(got);
	vrt_cache_evict(case_dir, 1 << 20);
	/* The FIFO is replaced by a real entry. */
	CHECK(vrt_cache_put(case_dir, &case_key, "payload", 7, 1 << 20) == 0);
	got = vrt_cache_get(case_dir, &case_key, &n);
	CHECK(got && n == 7 && !memcmp(got, "payload", 7));
	vrt_free(got);
}

static void made_dir_case(void)
{
	/* Whatever the umask leaves of 0700 (a umask cannot add bits). */
	umask(0);
	char sub[600];
	snprintf(sub, sizeof sub, "%s/made", case_dir);
	CHECK(vrt_cache_put(sub, &case_key, "payload", 7, 1 << 20) == 0);
	struct stat st;
	CHECK(stat(sub, &st) == 0 && (st.st_mode & 07777) == 0700);
	snprintf(sub, sizeof sub, "%s/made/deeper/still", case_dir);
	CHECK(vrt_cache_put(sub, &case_key, "payload", 7, 1 << 20) == 0);
	CHECK(stat(sub, &st) == 0 && (st.st_mode & 07777) == 0700);
	snprintf(sub, sizeof sub, "%s/made/deeper", case_dir);
	CHECK(stat(sub, &st) == 0 && (st.st_mode & 07777) == 0700);
}

static void test_trust(void)
{
	int root = geteuid() == 0, warnings = 0;
	char first[512];
	/* The directory group- or world-writable (a shared VAST_CACHE_DIR),
	 * sticky or not. */
	static const struct { mode_t mode; const char *why; } modes[] = {
		{ 0770, "is writable by its group (mode 0770)" },
		{ 0722, "is writable by others (mode 0722)" },
		{ 0777, "is writable by others (mode 0777)" },
		{ 01777, "is writable by others (mode 1777)" },
	};
	for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) {
		new_case("shared");
		CHECK(chmod(case_dir, modes[i].mode) == 0);
		expect_refused(modes[i].why);
	}
	/* A group-writable entry in our own directory. */
	new_case("entry-mode");
	CHECK(chmod(case_path(), 0620) == 0);
	expect_refused("is writable by its group (mode 0620)");
	/* A symbolic link under an entry's name, to a whole entry of ours. */
	new_case("symlink");
	char target[600];
	snprintf(target, sizeof target, "%s/real", case_dir);
	CHECK(rename(case_path(), target) == 0);
	CHECK(symlink("real", case_path()) == 0);
	expect_refused("is a symbolic link");
	/* A FIFO under an entry's name: not an entry, and nothing blocks. */
	new_case("fifo");
	CHECK(unlink(case_path()) == 0);
	CHECK(mkfifo(case_path(), 0600) == 0);
	CHECK(in_child(fifo_case, &warnings, first));
	CHECK(warnings == 1 && strstr(first, "is not a regular file"));
	/* A directory under an entry's name: a miss, no error. */
	new_case("dir-entry");
	CHECK(unlink(case_path()) == 0);
	CHECK(mkdir(case_path(), 0700) == 0);
	expect_refused("is not a regular file");
	/* A directory the cache makes is 0700, parents included. */
	new_case("fresh");
	CHECK(in_child(made_dir_case, &warnings, first) && warnings == 0);
	/* Our own files: used, no warning. */
	new_case("own");
	size_t n = 0;
	char *got = vrt_cache_get(case_dir, &case_key, &n);
	CHECK(got && n == 7 && !memcmp(got, "payload", 7));
	vrt_free(got);
	if (!root) {
		fprintf(stderr, "test_rt_cache: skipping the checks of another user's directory "
		                "and entries: they need root (chown)\n");
		return;
	}
	/* A directory another user owns (made before the owner used it),
	 * even one nobody else can write. */
	new_case("foreign-dir");
	CHECK(chown(case_dir, OTHER_UID, OTHER_UID) == 0);
	expect_refused("is owned by uid 4242, not by this user (uid 0)");
	/* An entry another user owns, in our directory. */
	new_case("foreign-entry");
	CHECK(chown(case_path(), OTHER_UID, OTHER_UID) == 0);
	expect_refused("is owned by uid 4242, not by this user (uid 0)");
}

/* In the child: case_dir cannot be written; twice, so that the warning's
 * count shows it is given once. */
static void unwritable_case(void)
{
	for (int i = 0; i < 2; i++) {
		size_t n = 0;
		char *got = vrt_cache_get(case_dir, &case_key, &n);
		CHECK(got == NULL);
		vrt_free(got);
		CHECK(vrt_cache_put(case_dir, &case_key, "p", 1, 1 << 20) != 0);
	}
}

/* In the child: a directory not made yet is a miss, no warning. */
static void missing_case(void)
{
	size_t n = 0;
	char *got = vrt_cache_get(case_dir, &case_key, &n);
	CHECK(got == NULL);
	vrt_free(got);
}

/* A cache directory that cannot be made or written is a warning that
 * names it and says why, not a silent miss; one merely not made yet is
 * no warning. */
static void test_unwritable(void)
{
	int warnings = 0;
	char first[512], file[300];
	snprintf(file, sizeof file, "%s/a-file", dir);
	write_file(file, "x", 1);
	snprintf(case_dir, sizeof case_dir, "%s/cache", file);
	case_key = key_of("kernel void w() {}", "");
	CHECK(in_child(unwritable_case, &warnings, first));
	CHECK(warnings == 1 && strstr(first, case_dir) && strstr(first, "Not a directory"));
	snprintf(case_dir, sizeof case_dir, "%s/not-yet", dir);
	CHECK(in_child(missing_case, &warnings, first) && warnings == 0 && !exists(case_dir));
	if (geteuid() == 0) {
		fprintf(stderr, "test_rt_cache: skipping the check of a read-only directory: "
		                "root writes there\n");
		return;
	}
	snprintf(case_dir, sizeof case_dir, "%s/read-only", dir);
	CHECK(mkdir(case_dir, 0500) == 0);
	CHECK(in_child(unwritable_case, &warnings, first));
	CHECK(warnings == 1 && strstr(first, case_dir) && strstr(first, "cannot write in it") &&
	      strstr(first, "Permission denied"));
	CHECK(chmod(case_dir, 0700) == 0);
}

/* Temporaries a killed writer left: counted against max while fresh,
 * removed once stale. */
static void test_temporaries(void)
{
	vrt_cache_key k = key_of("kernel void tmp() {}", "");
	CHECK(vrt_cache_put(dir, &k, "payload", 7, 1 << 20) == 0);
	long long e = file_size(path_of(&k));
	char stale[512], fresh[512];
	snprintf(stale, sizeof stale, "%s/.tmpAb3xYz", dir);
	snprintf(fresh, sizeof fresh, "%s/.tmpQ9w2Er", dir);
	static char junk[3000];
	write_file(stale, junk, sizeof junk);
	write_file(fresh, junk, 1000);
	set_time(stale, (long)time(NULL) - 2 * 3600);
	/* Room for the entry and the fresh temporary: the stale one goes. */
	vrt_cache_evict(dir, (unsigned long long)(e + 1000));
	CHECK(!exists(stale));
	CHECK(exists(fresh) && exists(path_of(&k)));
	/* One byte less: the fresh temporary counts, so the entry goes (a
	 * temporary in use is never removed: its writer renames it). */
	vrt_cache_evict(dir, (unsigned long long)(e + 999));
	CHECK(!exists(path_of(&k)));
	CHECK(exists(fresh));
	unlink(fresh);
}

/* Eviction removes entries the cache wrote, never a user's *.vc file. */
static void test_only_entries(void)
{
	vrt_cache_key k = key_of("kernel void own() {}", "");
	CHECK(vrt_cache_put(dir, &k, "payload", 7, 1 << 20) == 0);
	static const char *const mine[] = {
		"notes.vc",             /* not a hash */
		"0123456789abcdef.vc",  /* a hash's name, not an entry's magic */
		"0123456789ABCDEF.vc",  /* not the cache's hex */
		"0123456789abcdef0.vc", /* too long */
	};
	char p[4][512];
	for (int i = 0; i < 4; i++) {
		snprintf(p[i], sizeof p[i], "%s/%s", dir, mine[i]);
		write_file(p[i], "my own work\n", 12);
		set_time(p[i], 1000); /* older than any entry */
	}
	vrt_cache_evict(dir, 0);
	CHECK(!exists(path_of(&k)));
	for (int i = 0; i < 4; i++) {
		CHECK(exists(p[i]));
		unlink(p[i]);
	}
}

/* Several processes write the same key and their own keys at once,
 * reading as they go: every read is a whole entry of the right key. */
static void test_concurrent(void)
{
	enum { PROCS = 6, ROUNDS = 40 };
	static char big[64 << 10];
	memset(big, 'z', sizeof big);
	vrt_cache_key shared = key_of("kernel void shared() {}", "-DSHARED");
	pid_t pids[PROCS];
	for (int p = 0; p < PROCS; p++) {
		if ((pids[p] = fork()) == 0) {
			char src[64];
			snprintf(src, sizeof src, "kernel void own%d() {}", p);
			vrt_cache_key own = key_of(src, "");
			int bad = 0;
			for (int r = 0; r < ROUNDS; r++) {
				bad |= vrt_cache_put(dir, &shared, big, sizeof big, 64 << 20) != 0;
				bad |= vrt_cache_put(dir, &own, src, strlen(src), 64 << 20) != 0;
				size_t n = 0;
				char *got = vrt_cache_get(dir, &shared, &n);
				/* A miss is allowed (never here: rename is atomic);
				 * a wrong or partial payload never. */
				bad |= !got || n != sizeof big || memcmp(got, big, n);
				vrt_free(got);
				bad |= !holds(&own, src);
			}
			_exit(bad);
		}
	}
	for (int p = 0; p < PROCS; p++) {
		int st = 0;
		CHECK(waitpid(pids[p], &st, 0) == pids[p] && WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	size_t n = 0;
	char *got = vrt_cache_get(dir, &shared, &n);
	CHECK(got && n == sizeof big && !memcmp(got, big, n));
	vrt_free(got);
	/* No temporary file is left behind. */
	DIR *d = opendir(dir);
	int entries = 0, temps = 0;
	for (struct dirent *e; d && (e = readdir(d));) {
		entries += strstr(e->d_name, ".vc") != NULL;
		temps += !strncmp(e->d_name, ".tmp", 4);
	}
	if (d)
		closedir(d);
	CHECK(entries == PROCS + 1);
	CHECK(temps == 0);
}

/* The numbers of directory d: 0, or -1 with why in why[]. */
static int numbers_of(const char *d, vrt_cache_numbers *out, char why[256])
{
	int dfd = vrt_cache_open_dir(d, 0, why, 256);
	if (dfd < 0)
		return -1;
	int r = vrt_cache_numbers_read(dfd, out, why, 256);
	close(dfd);
	return r;
}

/* The counts of hits and misses and the size setting (cachestats.c):
 * kept beside the entries, none lost by processes counting at once, a
 * damaged file read as zeros and rewritten, a symbolic link or another
 * user's file never followed or used. */
static void test_numbers(void)
{
	char d[512], why[256], p[600];
	vrt_cache_numbers nums;
	snprintf(d, sizeof d, "%s/numbers", dir);
	/* None yet, not even the directory: zeros. */
	CHECK(numbers_of(d, &nums, why) == -1 && !*why);
	vrt_cache_count(d, 1);
	vrt_cache_count(d, 1);
	vrt_cache_count(d, 0);
	CHECK(numbers_of(d, &nums, why) == 0 && nums.hits == 2 && nums.misses == 1 && !nums.max);
	/* The setting: kept apart from the counts, set again at will. */
	int dfd = vrt_cache_open_dir(d, 0, why, sizeof why);
	CHECK(dfd >= 0 && vrt_cache_set_max(dfd, 4096, why, sizeof why) == 0);
	CHECK(vrt_cache_set_max(dfd, 1 << 20, why, sizeof why) == 0);
	close(dfd);
	CHECK(numbers_of(d, &nums, why) == 0 && nums.hits == 2 && nums.misses == 1 &&
	      nums.max == 1 << 20);
	CHECK(vrt_cache_max(d) == 1 << 20);
	vrt_cfg.cache_max = 12345; /* VAST_CACHE_MAX */
	CHECK(vrt_cache_max(d) == 12345);
	vrt_cfg.cache_max = 0;
	/* Processes counting at once: every count kept. */
	enum { PROCS = 4, COUNTS = 100 };
	for (int i = 0; i < PROCS; i++)
		if (fork() == 0) {
			for (int c = 0; c < COUNTS; c++)
				vrt_cache_count(d, c & 1);
			_exit(0);
		}
	for (int i = 0; i < PROCS; i++)
		wait(NULL);
	CHECK(numbers_of(d, &nums, why) == 0 && nums.hits == 2 + PROCS * COUNTS / 2 &&
	      nums.misses == 1 + PROCS * COUNTS / 2 && nums.max == 1 << 20);
	/* Damaged (a writer killed mid-write): zeros, then whole again. */
	snprintf(p, sizeof p, "%s/.vastcc-stats", d);
	write_file(p, "vastcc-cache-stats 1\nhits 1x", 27);
	CHECK(numbers_of(d, &nums, why) == 0 && nums.hits == 0 && nums.misses == 0);
	vrt_cache_count(d, 1);
	CHECK(numbers_of(d, &nums, why) == 0 && nums.hits == 1 && nums.misses == 0);
	/* A symbolic link under the name: refused, its target untouched. */
	char target[600];
	snprintf(target, sizeof target, "%s/elsewhere", dir);
	write_file(target, "x", 1);
	CHECK(unlink(p) == 0 && symlink(target, p) == 0);
	CHECK(numbers_of(d, &nums, why) == -1 && strstr(why, "'.vastcc-stats' is a symbolic link"));
	vrt_cache_count(d, 1);
	CHECK(file_size(target) == 1);
	/* The setting is read all the same: the bound is not the default. */
	CHECK(nums.max == 1 << 20 && vrt_cache_max(d) == 1 << 20);
	CHECK(unlink(p) == 0);
	/* Writable by the group, or another user's: refused. */
	vrt_cache_count(d, 1);
	CHECK(chmod(p, 0660) == 0);
	CHECK(numbers_of(d, &nums, why) == -1 && strstr(why, "'.vastcc-stats' is writable by its group"));
	CHECK(chmod(p, 0600) == 0);
	if (geteuid() == 0) {
		CHECK(chown(p, OTHER_UID, OTHER_UID) == 0);
		CHECK(numbers_of(d, &nums, why) == -1 && strstr(why, "'.vastcc-stats' is owned by uid 4242"));
	}
	/* Neither file is an entry: eviction leaves them be. */
	vrt_cache_usage left;
	dfd = vrt_cache_open_dir(d, 0, why, sizeof why);
	CHECK(dfd >= 0);
	vrt_cache_trim(dfd, 0, &left, NULL);
	close(dfd);
	CHECK(left.entries == 0 && exists(p));
}

/* Whether file p holds exactly s. */
static int file_holds(const char *p, const char *s)
{
	size_t n = 0;
	char *got = vrt_read_file(p, &n);
	int ok = got && n == strlen(s) && !memcmp(got, s, n);
	vrt_free(got);
	return ok;
}

/* A user's own files in the cache directory (VAST_CACHE_DIR=. in a
 * project that has a file named "stats" or "settings") survive a count,
 * a --cache-max and a trim; so does a file under the cache's own names
 * that is not the cache's (no magic line): left alone, its numbers not
 * counted, the setting refused. An empty one is the cache's to fill. */
static void test_users_files(void)
{
	static const char *const names[] = { "stats", "settings", ".vastcc-stats",
		                             ".vastcc-settings" };
	static const char mine[] = "the user's own, not the cache's\n";
	char d[512], why[256], p[4][600];
	vrt_cache_numbers nums;
	vrt_cache_usage left;
	snprintf(d, sizeof d, "%s/users", dir);
	int dfd = vrt_cache_open_dir(d, 1, why, sizeof why);
	CHECK(dfd >= 0);
	/* Files named as the cache's used to be: not the cache's. */
	for (int i = 0; i < 2; i++) {
		snprintf(p[i], sizeof p[i], "%s/%s", d, names[i]);
		write_file(p[i], mine, strlen(mine));
	}
	vrt_cache_count(d, 1);
	CHECK(vrt_cache_set_max(dfd, 4096, why, sizeof why) == 0);
	vrt_cache_trim(dfd, 0, &left, NULL);
	CHECK(file_holds(p[0], mine) && file_holds(p[1], mine));
	CHECK(numbers_of(d, &nums, why) == 0 && nums.hits == 1 && nums.max == 4096);
	/* Under the cache's names, without its magic line: left alone. */
	for (int i = 2; i < 4; i++) {
		snprintf(p[i], sizeof p[i], "%s/%s", d, names[i]);
		write_file(p[i], mine, strlen(mine));
	}
	vrt_cache_count(d, 1);
	CHECK(vrt_cache_set_max(dfd, 8192, why, sizeof why) == -1 &&
	      strstr(why, "'.vastcc-settings' is not the cache's"));
	vrt_cache_trim(dfd, 0, &left, NULL);
	for (int i = 0; i < 4; i++)
		CHECK(file_holds(p[i], mine));
	CHECK(numbers_of(d, &nums, why) == -1 && strstr(why, "is not the cache's"));
	/* Empty (made, then its writer killed): the cache's, and read
	 * although the setting's file is not. */
	write_file(p[2], "", 0);
	vrt_cache_count(d, 0);
	CHECK(numbers_of(d, &nums, why) == -1 && nums.misses == 1);
	close(dfd);
}

/* In the child: the counts' file locked by another holder (a stopped
 * vastcc --cache-max, a forked child that kept it). */
static char locked_dir[512];

static void locked_case(void)
{
	char why[256], p[600];
	vrt_cache_numbers nums;
	snprintf(p, sizeof p, "%s/.vastcc-stats", locked_dir);
	int fd = open(p, O_RDWR);
	CHECK(fd >= 0 && flock(fd, LOCK_EX) == 0);
	double start = vrt_now_ms();
	vrt_cache_count(locked_dir, 1); /* waits a little, then skips */
	CHECK(numbers_of(locked_dir, &nums, why) == -1 && strstr(why, "cannot lock"));
	CHECK(nums.max == 4096 && vrt_cache_max(locked_dir) == 4096);
	CHECK(vrt_now_ms() - start < 5000);
	close(fd);
	CHECK(numbers_of(locked_dir, &nums, why) == 0 && nums.hits == 1);
}

/* A lock held elsewhere does not block the program: counting gives up
 * after a short wait, a reader too (the setting read all the same). */
static void test_lock_held(void)
{
	char why[256], first[512];
	int warnings = 0;
	snprintf(locked_dir, sizeof locked_dir, "%s/locked", dir);
	vrt_cache_count(locked_dir, 1);
	int dfd = vrt_cache_open_dir(locked_dir, 0, why, sizeof why);
	CHECK(dfd >= 0 && vrt_cache_set_max(dfd, 4096, why, sizeof why) == 0);
	if (dfd >= 0)
		close(dfd);
	CHECK(in_child(locked_case, &warnings, first));
}

static void test_dir(void)
{
	setenv("VAST_CACHE_DIR", "/x/y", 1);
	char *d = vrt_cache_dir();
	CHECK(d && !strcmp(d, "/x/y"));
	vrt_free(d);
	unsetenv("VAST_CACHE_DIR");
	setenv("XDG_CACHE_HOME", "/xdg", 1);
	d = vrt_cache_dir();
	CHECK(d && !strcmp(d, "/xdg/vastcc"));
	vrt_free(d);
	unsetenv("XDG_CACHE_HOME");
	setenv("HOME", "/home/u", 1);
	d = vrt_cache_dir();
	CHECK(d && !strcmp(d, "/home/u/.cache/vastcc"));
	vrt_free(d);
	/* A put makes the directory, parents included. */
	char sub[512];
	snprintf(sub, sizeof sub, "%s/made/here", dir);
	vrt_cache_key a = key_of("kernel void m() {}", "");
	CHECK(vrt_cache_put(sub, &a, "p", 1, 1 << 20) == 0);
	size_t n;
	char *got = vrt_cache_get(sub, &a, &n);
	CHECK(got && n == 1 && *got == 'p');
	vrt_free(got);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s/made'", dir);
	CHECK(system(cmd) == 0);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/vast-cache-test-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_key();
	test_round_trip_and_collision();
	test_corrupt();
	test_eviction();
	test_temporaries();
	test_only_entries();
	test_concurrent();
	test_dir();
	test_trust();
	test_unwritable();
	test_numbers();
	test_users_files();
	test_lock_held();
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd))
		failures++;
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures != 0;
}
