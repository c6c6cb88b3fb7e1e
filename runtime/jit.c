/* SPDX-License-Identifier: MIT */
/*
 * jit.c - compiling a program at clBuildProgram, for a program that
 * vastcc never saw (its kernels are read at run time) or built with
 * other options than vastcc compiled it with.
 *
 * The runtime stays free of libclang: it runs the compiler as a child
 * process, exactly as a user would,
 *
 *   vastcc --emit-json=DIR/program.json --cl-options="OPTS"
 *          --device-extensions="..." --device-macro=NAME=VALUE ... DIR/program.cl
 *
 * with the build's options as given and the predefined macros of the
 * device being built for (devmacros.c reads them: OpenCL C 1.2 §6.10,
 * §9.1), and reads its output back with vrt_stub_from_json. The result
 * is registered (registry.c) and used like a stub that vastcc linked in.
 *
 * The compiler is $VAST_COMPILER, else bin/vastcc beside the lib/ that
 * holds libvastrt.so (when the runtime is a shared library), else the
 * install prefix's bin/vastcc, else the build tree's. Its output is
 * cached on disk (cache.c) under the source, the options, the device
 * flags and the compiler's version and identity (path, size, time).
 *
 * Outcomes: a program; the compiler's diagnostics when it rejects the
 * source (clBuildProgram then fails like a driver's, program.c); or a
 * reason it could not compile (no compiler, a crash, a timeout, output
 * it cannot read): the program then runs natively, with one warning.
 */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vrt.h"

extern char **environ;

/* libclang parses a large kernel file in a second or two; a compiler
 * still running after this long is stuck, and the program runs natively. */
#define JIT_TIMEOUT_MS (300 * 1000)

/* The predefined macros that vastcc takes from --device-macro (every one
 * devmacros.c can read from a device but the extensions). */
static const char *const device_macros[] = {
	"__OPENCL_VERSION__", "__OPENCL_C_VERSION__", "__IMAGE_SUPPORT__",
	"__ENDIAN_LITTLE__", "__EMBEDDED_PROFILE__",
};

/* The compiler's flags for device dev under options opts, one a line;
 * malloc'd, NULL when the device cannot say. */
static char *device_flags(cl_device_id dev, const char *opts)
{
	char *ext = vrt_device_info_str(dev, CL_DEVICE_EXTENSIONS);
	if (!ext)
		return NULL;
	size_t e = strlen(ext);
	while (e && (ext[e - 1] == ' ' || ext[e - 1] == '\0'))
		ext[--e] = '\0';
	size_t n = e + 64 + 96 * (sizeof device_macros / sizeof *device_macros);
	char *out = vrt_malloc(n);
	if (out) {
		size_t at = (size_t)snprintf(out, n, "--device-extensions=%s", ext);
		for (size_t i = 0; i < sizeof device_macros / sizeof *device_macros; i++) {
			char v[32];
			if (!vrt_device_macro_value(dev, device_macros[i], opts, v, sizeof v)) {
				vrt_free(out);
				out = NULL;
				break;
			}
			at += (size_t)snprintf(out + at, n - at, *v ? "\n--device-macro=%s=%s"
			                                            : "\n--device-macro=-%s%s",
			                       device_macros[i], v);
		}
	}
	vrt_free(ext);
	return out;
}

static int executable(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* Any object of libvastrt, to ask dladdr where it was loaded from. */
static const char where_am_i;

/* The compiler's path (malloc'd), or NULL with why. */
static char *find_compiler(char *why, size_t n)
{
	const char *env = vrt_getenv("VAST_COMPILER");
	if (env && *env) {
		if (executable(env))
			return vrt_strdup(env);
		snprintf(why, n, "VAST_COMPILER='%s' is not an executable file", env);
		return NULL;
	}
	/* A shared libvastrt in PREFIX/lib: its compiler is PREFIX/bin. A
	 * static one is inside the program, whose bin/ is not ours. */
	Dl_info info;
	if (dladdr(&where_am_i, &info) && info.dli_fname && strstr(info.dli_fname, ".so")) {
		const char *slash = strrchr(info.dli_fname, '/');
		int dir = slash ? (int)(slash - info.dli_fname) : 1;
		size_t len = (size_t)dir + 16;
		char *path = vrt_malloc(len);
		if (path) {
			snprintf(path, len, "%.*s/../bin/vastcc", dir, slash ? info.dli_fname : ".");
			if (executable(path))
				return path;
			vrt_free(path);
		}
	}
	static const char *const builtin[] = { VAST_INSTALL_COMPILER, VAST_BUILD_COMPILER };
	for (size_t i = 0; i < sizeof builtin / sizeof *builtin; i++)
		if (*builtin[i] && executable(builtin[i]))
			return vrt_strdup(builtin[i]);
	snprintf(why, n, "no vastcc found to compile it (set VAST_COMPILER)");
	return NULL;
}

/* What the cache key says of the compiler: its version and stub ABI, and
 * the file itself (a rebuilt vastcc of the same version is another). */
static char *compiler_identity(const char *path)
{
	struct stat st;
	size_t n = strlen(path) + 128;
	char *id = vrt_malloc(n);
	if (id && stat(path, &st) == 0)
		snprintf(id, n, "vastcc %s abi %d %s %lld %lld.%09ld", VAST_VERSION,
		         VAST_STUB_ABI_VERSION, path, (long long)st.st_size,
		         (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	else if (id)
		snprintf(id, n, "vastcc %s abi %d %s", VAST_VERSION, VAST_STUB_ABI_VERSION, path);
	return id;
}

/* Runs argv, stdout to /dev/null and stderr to errpath; its exit status,
 * or -1 with why when it could not run or did not finish. */
static int run_compiler(char *const argv[], const char *errpath, char *why, size_t n)
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int status = 0;
	if (posix_spawn_file_actions_init(&fa)) {
		snprintf(why, n, "out of memory");
		return -1;
	}
	int e = posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	if (!e)
		e = posix_spawn_file_actions_addopen(&fa, 2, errpath, O_WRONLY | O_CREAT | O_TRUNC,
		                                     0600);
	if (!e)
		e = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (e) {
		snprintf(why, n, "cannot run '%s': %s", argv[0], strerror(e));
		return -1;
	}
	double start = vrt_now_ms();
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			snprintf(why, n, "lost '%s' (waitpid: %s)", argv[0], strerror(errno));
			return -1;
		}
		if (vrt_now_ms() - start > JIT_TIMEOUT_MS) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			snprintf(why, n, "'%s' did not finish in %d s", argv[0], JIT_TIMEOUT_MS / 1000);
			return -1;
		}
		nanosleep(&(struct timespec){ 0, 2 * 1000 * 1000 }, NULL);
	}
	if (!WIFEXITED(status)) {
		snprintf(why, n, "'%s' was killed by signal %d", argv[0], WTERMSIG(status));
		return -1;
	}
	return WEXITSTATUS(status);
}

/* Removes every "prefix" from s, in place: diagnostics name the source
 * program.cl, not the private directory it was written to. */
static void strip(char *s, const char *prefix)
{
	size_t k = strlen(prefix);
	char *w = s;
	for (const char *r = s; *r;) {
		if (!strncmp(r, prefix, k))
			r += k;
		else
			*w++ = *r++;
	}
	*w = '\0';
}

static int write_file(const char *path, const char *s, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	int bad = fwrite(s, 1, n, f) != n;
	return fclose(f) || bad ? -1 : 0;
}

/* Runs the compiler on source in a private directory: VRT_JIT_OK with
 * its JSON in *text, VRT_JIT_SOURCE_ERROR with its diagnostics in *log,
 * or VRT_JIT_UNAVAILABLE with why. */
static int compile(const char *compiler, const char *source, size_t len, const char *opts,
                   const char *flags, char **text, size_t *tlen, char **log, char *why,
                   size_t n)
{
	const char *base = vrt_getenv("TMPDIR");
	if (!base || base[0] != '/')
		base = "/tmp";
	size_t dl = strlen(base) + 32;
	char *dir = vrt_malloc(dl), *src = vrt_malloc(dl + 32), *json = vrt_malloc(dl + 32);
	char *diag = vrt_malloc(dl + 32), *copt = vrt_malloc(strlen(opts) + 16);
	char *prefix = vrt_malloc(dl + 2);
	char *fl = vrt_strdup(flags), **argv = vrt_calloc(strlen(flags) + 8, sizeof *argv);
	char *d = NULL;
	int res = VRT_JIT_UNAVAILABLE, made = 0;
	if (!dir || !src || !json || !diag || !copt || !prefix || !fl || !argv) {
		snprintf(why, n, "out of memory");
		goto out;
	}
	snprintf(dir, dl, "%s/vastcc-jit-XXXXXX", base);
	if (!(made = mkdtemp(dir) != NULL)) {
		snprintf(why, n, "cannot make a directory in '%s': %s", base, strerror(errno));
		goto out;
	}
	sprintf(src, "%s/program.cl", dir);
	sprintf(json, "--emit-json=%s/program.json", dir);
	sprintf(diag, "%s/diag", dir);
	sprintf(copt, "--cl-options=%s", opts);
	if (write_file(src, source, len)) {
		snprintf(why, n, "cannot write '%s': %s", src, strerror(errno));
		goto out;
	}
	size_t ac = 0;
	argv[ac++] = (char *)compiler;
	argv[ac++] = json;
	argv[ac++] = copt;
	char *save = NULL;
	for (char *f = strtok_r(fl, "\n", &save); f; f = strtok_r(NULL, "\n", &save))
		argv[ac++] = f;
	argv[ac++] = src;
	/* The compiler runs in the program's directory: relative -I paths
	 * in the options mean what they mean to the driver. */
	int st = run_compiler(argv, diag, why, n);
	size_t dn = 0;
	sprintf(prefix, "%s/", dir);
	if ((d = vrt_read_file(diag, &dn)))
		strip(d, prefix);
	if (st == 0) {
		/* The program's name (its #line directives, the kernels'
		 * locations) is program.cl too: the same in every process, so
		 * cache entries do not depend on the directory. */
		if ((*text = vrt_read_file(json + strlen("--emit-json="), tlen)) &&
		    vrt_json_sealed(*text, *tlen)) {
			strip(*text, prefix);
			*tlen = strlen(*text);
			vrt_json_seal(*text, *tlen);
			res = VRT_JIT_OK;
		} else if (*text)
			snprintf(why, n, "'%s' wrote a damaged program", compiler);
		else
			snprintf(why, n, "'%s' succeeded but wrote no program", compiler);
		if (d && *d)
			vrt_log(VRT_LOG_INFO, "vastcc said:\n%s", d);
	} else if (st == 1 && d && strstr(d, "program.cl:") && strstr(d, "error:")) {
		/* Located in the program (or a header it includes): the source
		 * does not compile; any other failure is the compiler's. */
		*log = d;
		d = NULL;
		res = VRT_JIT_SOURCE_ERROR;
	} else if (st > 0) {
		char *nl = d ? strchr(d, '\n') : NULL;
		if (nl)
			*nl = '\0';
		snprintf(why, n, "'%s' failed (exit status %d)%s%s", compiler, st,
		         d && *d ? ": " : "", d ? d : "");
	}
out:
	if (made) {
		unlink(src);
		unlink(json + strlen("--emit-json="));
		unlink(diag);
		rmdir(dir);
	}
	vrt_free(d);
	vrt_free(dir), vrt_free(src), vrt_free(json), vrt_free(diag), vrt_free(copt);
	vrt_free(prefix);
	vrt_free(fl), vrt_free(argv);
	return res;
}

int vrt_jit_program(const char *source, size_t len, const char *opts, cl_device_id dev,
                    const vast_program_info **out, char **log, char *why, size_t n)
{
	int res = VRT_JIT_UNAVAILABLE, hit = 0;
	char *flags = NULL, *compiler = NULL, *ident = NULL, *cache = NULL, *text = NULL;
	char *error = NULL;
	size_t tlen = 0;
	vast_program_info *prog = NULL;
	*out = NULL;
	*log = NULL;
	opts = opts ? opts : "";
	unsigned long long h = vast_hash_bytes(VAST_HASH_SEED, source, len);
	if (!(flags = device_flags(dev, opts))) {
		snprintf(why, n, "cannot read the predefined macros of the device it is built for");
		goto out;
	}
	vrt_lock();
	*out = vrt_registry_find_compiled(opts, flags, h, len);
	vrt_unlock();
	if (*out) {
		res = VRT_JIT_OK;
		goto out;
	}
	if (!(compiler = find_compiler(why, n)))
		goto out;
	if (!(ident = compiler_identity(compiler))) {
		snprintf(why, n, "out of memory");
		goto out;
	}
	vrt_cache_key key = { source, len, opts, flags, ident };
	if (vrt_cfg.cache && (cache = vrt_cache_dir()) &&
	    (text = vrt_cache_get(cache, &key, &tlen))) {
		/* An entry this reader cannot take is as good as none. */
		if ((prog = vrt_stub_from_json(text, tlen, &error)))
			hit = 1;
		free(error);
		error = NULL;
	}
	if (!hit) {
		vrt_free(text);
		text = NULL;
		if ((res = compile(compiler, source, len, opts, flags, &text, &tlen, log, why, n)) !=
		    VRT_JIT_OK)
			goto out;
		res = VRT_JIT_UNAVAILABLE;
		prog = vrt_stub_from_json(text, tlen, &error);
	}
	if (!prog) {
		snprintf(why, n, "cannot read what '%s' compiled: %s", compiler,
		         error ? error : "out of memory");
		goto out;
	}
	if (prog->source_hash != h || prog->source_size != len) {
		/* Never a program of other bytes than the build's. */
		snprintf(why, n, "'%s' compiled other bytes than the program's source", compiler);
		goto out;
	}
	if (!hit && cache && vrt_cache_put(cache, &key, text, tlen, vrt_cfg.cache_max))
		vrt_log(VRT_LOG_INFO, "cache: cannot store in '%s'", cache);
	vrt_log(VRT_LOG_INFO, "program (%zu bytes, options '%s') compiled by vastcc%s", len, opts,
	        hit ? " (cache hit)" : "");
	vrt_lock();
	/* Another thread may have compiled the same meanwhile: one copy. */
	if ((*out = vrt_registry_find_compiled(opts, flags, h, len)) == NULL &&
	    vrt_registry_add_compiled(prog, opts, flags) == 0) {
		*out = prog;
		prog = NULL;
	}
	if (*out)
		vrt_stats_jit(hit);
	vrt_unlock();
	if (*out)
		res = VRT_JIT_OK;
	else
		snprintf(why, n, "out of memory");
out:
	if (prog)
		vrt_stub_json_free(prog);
	free(error); /* malloc'd by stubjson.c */
	vrt_free(flags), vrt_free(compiler), vrt_free(ident), vrt_free(cache), vrt_free(text);
	return res;
}
