/* SPDX-License-Identifier: MIT */
/*
 * test_rt_cache.c - the on-disk cache of compiled programs (cache.c):
 * key stability and sensitivity, a collision is a miss, corrupt entries
 * are misses and removed, eviction takes the least recently used first,
 * and processes writing at once leave whole entries.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
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
	/* Unreadable: a miss, no error. */
	CHECK(mkdir(path_of(&a), 0700) == 0);
	CHECK(!holds(&a, payload));
	rmdir(path_of(&a));
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
	test_concurrent();
	test_dir();
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd))
		failures++;
	if (failures)
		fprintf(stderr, "%d check(s) failed\n", failures);
	return failures != 0;
}
