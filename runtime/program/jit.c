/* SPDX-License-Identifier: MIT */
/*
 * jit.c - compiling a program at clBuildProgram, for a program that
 * vastcc never saw (its kernels are read at run time) or built with
 * other options than vastcc compiled it with.
 *
 * The runtime stays free of libclang: it runs the compiler as a child
 * process, exactly as a user would,
 *
 *   vastcc --emit-json=DIR/program.json --include-dir=. --cl-options="OPTS"
 *          --device-extensions="..." --device-macro=NAME=VALUE ... DIR/src/program.cl
 *
 * with the build's options as given and the predefined macros of the
 * device being built for (devmacros.c reads them: OpenCL C 1.2 §6.10,
 * §9.1), and reads its output back with vrt_stub_from_json. The result
 * is registered (registry.c) and used like a stub that vastcc linked in.
 * The compiler runs in the program's working directory, which device
 * compilers search for #include files before the -I options; so does
 * vastcc, told --include-dir=. (the private copy of the source is alone
 * in DIR/src, where a quoted #include looks first and finds nothing).
 *
 * A compile has two halves (analysis.c runs the second on its pool):
 * vrt_jit_prepare, at clBuildProgram on the program's thread, reads
 * everything the compile depends on of the program's state, as the
 * driver's build reads it: the environment (the compiler's, PATH,
 * VAST_COMPILER, TMPDIR, the cache's directory), the working directory
 * (held open: the compiler runs there, wherever the program is by then),
 * and, for a source that may include files, the headers themselves: the
 * preprocessor runs then (vastcc --emit-preprocessed). vrt_jit_run, later,
 * compiles; a compile that read other headers than that output (a header
 * edited since) serves nothing: the program runs natively.
 *
 * The compiler is $VAST_COMPILER, else the one beside the runtime that
 * is loaded (bin/vastcc beside the lib/ that holds libvastrt.so; for
 * libvastrt.a, the vastcc that linked it into the program, which the link
 * records), else the install prefix's bin/vastcc, else vastcc on PATH
 * (its absolute entries). One found so is run only if no other user
 * could have put it there (trust.c), else the program runs natively.
 * Its output is cached on disk (cache.c; each lookup counted, and the
 * cache bounded, by cachestats.c) under the source, the options, the
 * device flags, the compiler's version and identity (its resolved path,
 * size, time: vastrun's and a linked program's are one), and,
 * for a source that may include files, the preprocessor's whole output
 * (vastcc --emit-preprocessed): every header as it was read, so an
 * edited header, or another found first, makes another entry.
 *
 * A compile never outlives the program: the compiler gets SIGKILL when
 * the thread that started it dies (PR_SET_PDEATHSIG; that thread waits
 * for it), and the private directory of a program killed mid-compile is
 * removed by the next compile (each holds a lock on its own: below).
 *
 * Outcomes: a program; the compiler's diagnostics when it rejects the
 * source (clBuildProgram then fails like a driver's, program.c); or a
 * reason it could not compile (no compiler, a crash, a timeout, output
 * it cannot read): the program then runs natively, with one warning.
 */
#define _GNU_SOURCE /* dladdr, pipe2, O_PATH */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "program/program.h"

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

/* The vastcc that linked the program with libvastrt.a, which it took
 * from its own prefix: vastcc adds an object defining it to the link
 * (tools/vastcc/paths.c). NULL in a program linked otherwise (pkg-config,
 * CMake) and in libvastrt.so. */
extern const char vast_linked_compiler[] __attribute__((weak));

/* path, when an executable file, with symbolic links and "..", "."
 * resolved (malloc'd): one compiler is one name in the cache key,
 * whichever way it was found. */
static char *usable(const char *path)
{
	char *real = executable(path) ? realpath(path, NULL) : NULL;
	char *out = real ? vrt_strdup(real) : NULL;
	free(real); /* malloc'd by realpath */
	return out;
}

/* Whether path, when an executable file, is the compiler to run: 1 with
 * its resolved path in *found; 0 when it is none; -1 when it is one that
 * another user could have put there (trust.c: the file or a directory
 * above it not root's or ours, or writable by others), with why. Such a
 * compiler is not run: a record naming a prefix in /tmp that was cleaned
 * since, or a shared bin/ on PATH, must not run a stranger's program. */
static int take(const char *path, char **found, char *why, size_t n)
{
	char whynot[512];
	char *real = usable(path);
	if (!real)
		return 0;
	/* The name as found first: a link in a directory another user may
	 * write would let him choose which trusted file runs. */
	if (!vrt_trusted_dirs(path, whynot, sizeof whynot)) {
		snprintf(why, n, "not running '%s', which another user could have put there: %s "
		         "(VAST_COMPILER names the one to run)", path, whynot);
		vrt_free(real);
		return -1;
	}
	if (!vrt_trusted_path(real, whynot, sizeof whynot)) {
		snprintf(why, n, "not running '%s', which another user could have put there: %s "
		         "(VAST_COMPILER names the one to run)", real, whynot);
		vrt_free(real);
		return -1;
	}
	*found = real;
	return 1;
}

/* vastcc in a directory of $PATH, as a shell would find it (take's
 * answer). Only absolute entries: an empty or relative one names the
 * working directory, whatever it is when the program builds. */
static int on_path(char **found, char *why, size_t n)
{
	const char *p = vrt_getenv("PATH");
	int r = 0;
	while (p && !r) {
		const char *colon = strchr(p, ':');
		int len = colon ? (int)(colon - p) : (int)strlen(p);
		char *path = p[0] == '/' ? vrt_malloc((size_t)len + 16) : NULL;
		if (path) {
			snprintf(path, (size_t)len + 16, "%.*s/vastcc", len, p);
			r = take(path, found, why, n);
			vrt_free(path);
		}
		p = colon ? colon + 1 : NULL;
	}
	return r;
}

/* Whether the file dladdr names is the shared runtime (libvastrt.so, or
 * a versioned name of it): a static runtime is inside the program, which
 * dladdr names by its argv[0] (./x.solver), or inside a shared object of
 * the user's (a Python extension _m.cpython-311-x86_64-linux-gnu.so). */
static int shared_runtime(const char *file)
{
	const char *slash = strrchr(file, '/');
	return !strncmp(slash ? slash + 1 : file, "libvastrt.so", strlen("libvastrt.so"));
}

/* The compiler's path (malloc'd), or NULL with why. Beside the runtime
 * that is loaded, then in the install prefix, then on PATH: a program
 * linked from an installed prefix finds that prefix's compiler when the
 * build tree it came from is gone. Each but VAST_COMPILER, which the
 * user named, is run only if trusted (take); the first found that is
 * not stops the search, as a shell would run it. */
static char *find_compiler(char *why, size_t n)
{
	const char *env = vrt_getenv("VAST_COMPILER");
	char *found = NULL;
	int r = 0;
	if (env && *env) {
		if (executable(env))
			return vrt_strdup(env);
		snprintf(why, n, "VAST_COMPILER='%s' is not an executable file", env);
		return NULL;
	}
	/* A shared libvastrt in PREFIX/lib: its compiler is PREFIX/bin. A
	 * static one is inside the program, whose bin/ is not ours: the link
	 * says which vastcc took it from its PREFIX/lib. */
	Dl_info info;
	if (dladdr(&where_am_i, &info) && info.dli_fname && shared_runtime(info.dli_fname)) {
		const char *slash = strrchr(info.dli_fname, '/');
		int dir = slash ? (int)(slash - info.dli_fname) : 1;
		size_t len = (size_t)dir + 16;
		char *path = vrt_malloc(len);
		if (path) {
			snprintf(path, len, "%.*s/../bin/vastcc", dir, slash ? info.dli_fname : ".");
			r = take(path, &found, why, n);
			vrt_free(path);
		}
	}
	if (!r && vast_linked_compiler && *vast_linked_compiler)
		r = take(vast_linked_compiler, &found, why, n);
	if (!r)
		r = take(VAST_INSTALL_COMPILER, &found, why, n);
	if (!r)
		r = on_path(&found, why, n);
	if (!r)
		snprintf(why, n, "no vastcc found to compile it beside the runtime, as '%s' or on "
		         "PATH (set VAST_COMPILER)", VAST_INSTALL_COMPILER);
	return found;
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

/* fd moved to a descriptor >= 3 (close-on-exec), or -1. A program that
 * closed its stdio (a daemon) gets 0-2 from open: the child's dup2 onto
 * 0-2 would then do nothing (and keep close-on-exec) or overwrite one
 * of ours with the other, and the compiler's diagnostics would be lost. */
static int above_stdio(int fd)
{
	if (fd < 0 || fd > 2)
		return fd;
	int moved = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	int e = errno;
	close(fd);
	errno = e;
	return moved;
}

/* Set at exit (analysis.c): a compile running then is killed, and none
 * starts. */
static volatile sig_atomic_t cancelled;

void vrt_jit_cancel(void)
{
	__atomic_store_n(&cancelled, 1, __ATOMIC_SEQ_CST);
}

static int is_cancelled(void)
{
	return __atomic_load_n(&cancelled, __ATOMIC_SEQ_CST);
}

/* What a compile runs under, as the program was at its clBuildProgram
 * (vrt_jit_prepare): the pool's threads read neither the environment nor
 * the working directory, which the program may have changed since. */
typedef struct jit_context {
	char **env;  /* the compiler's environment */
	int cwd_fd;  /* its working directory; -1: the process's */
	char *cwd;   /* that directory's name (users_file); NULL: unknown */
} jit_context;

/* Starts argv in cx's working directory and environment, stdin and
 * stdout on /dev/null and stderr to errpath; its pid, or -1 with why
 * (killed and reaped when it has not reached its exec by `deadline`
 * (vrt_now_ms) or the compiles are cancelled meanwhile).
 *
 * fork, not posix_spawn: posix_spawn (glibc: clone with CLONE_VM and
 * CLONE_VFORK) can set the working directory (addfchdir_np), the
 * descriptors, the signal mask and default handlers, but not the one
 * thing more the child needs: to ask for SIGKILL when its parent dies
 * (PR_SET_PDEATHSIG, kept across exec), without which a program killed
 * mid-compile leaves the compiler running (rt/jit_kill). That needs code
 * of ours between the clone and the exec, which only fork (or vfork)
 * runs; and a vfork from a pool thread (analysis.c) while the driver
 * compiled on another made LeakSanitizer's tracer crash at exit. Until
 * exec the child makes only async-signal-safe calls: signals blocked
 * meanwhile, handlers reset to the default, an exec failure's errno sent
 * back through a close-on-exec pipe. The death signal fires when the
 * thread that forks dies: run_compiler waits in that thread. */
static pid_t spawn(char *const argv[], const jit_context *cx, const char *errpath,
                   double deadline, char *why, size_t n)
{
	int null = above_stdio(open("/dev/null", O_RDWR | O_CLOEXEC));
	int err = null < 0 ? -1
	                   : above_stdio(open(errpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
	int report[2] = { -1, -1 };
	if (err >= 0 && pipe2(report, O_CLOEXEC) == 0) {
		report[0] = above_stdio(report[0]);
		report[1] = above_stdio(report[1]);
	}
	if (null < 0 || err < 0 || report[0] < 0 || report[1] < 0) {
		snprintf(why, n, "cannot open '%s': %s",
		         null < 0 ? "/dev/null" : err < 0 ? errpath : "a pipe", strerror(errno));
		int fds[] = { null, err, report[0], report[1] };
		for (size_t i = 0; i < sizeof fds / sizeof *fds; i++)
			if (fds[i] >= 0)
				close(fds[i]);
		return -1;
	}
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		int e = 0;
		for (int s = 1; s < NSIG; s++) {
			struct sigaction sa;
			if (sigaction(s, NULL, &sa) == 0 && sa.sa_handler != SIG_IGN &&
			    sa.sa_handler != SIG_DFL) {
				sa.sa_handler = SIG_DFL;
				sa.sa_flags = 0;
				sigaction(s, &sa, NULL);
			}
		}
		/* A parent that died before the prctl: the child was
		 * reparented already, and must not run. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
			_exit(127);
		sigprocmask(SIG_SETMASK, &old, NULL);
		/* stdin too: not the program's, which may be closed (then the
		 * compiler's first open would be its stdin) or a terminal. */
		if ((cx->cwd_fd < 0 || fchdir(cx->cwd_fd) == 0) && dup2(null, 0) >= 0 &&
		    dup2(null, 1) >= 0 && dup2(err, 2) >= 0)
			execve(argv[0], argv, cx->env);
		e = errno;
		if (write(report[1], &e, sizeof e) < 0)
			_exit(127);
		_exit(127);
	}
	int e = pid < 0 ? errno : 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	close(null);
	close(err);
	close(report[1]);
	/* Closed at the exec (nothing read), or the exec's errno. An exec
	 * that does not return (a compiler on a file system that hangs) is
	 * given the compile's time, and no more than the program's life. */
	int killed = 0;
	while (pid > 0 && !killed) {
		struct pollfd pf = { .fd = report[0], .events = POLLIN };
		int r = poll(&pf, 1, 50);
		if (r > 0) {
			ssize_t got = read(report[0], &e, sizeof e);
			if (got < 0 && errno == EINTR)
				continue;
			if (got != (ssize_t)sizeof e)
				e = 0;
			break;
		}
		if (r < 0 && errno != EINTR) {
			e = errno;
			killed = 1;
		} else if (is_cancelled()) {
			snprintf(why, n, "cancelled at exit");
			killed = 1;
		} else if (vrt_now_ms() > deadline) {
			snprintf(why, n, "'%s' did not start in %d s", argv[0], JIT_TIMEOUT_MS / 1000);
			killed = 1;
		}
		if (killed)
			kill(pid, SIGKILL);
	}
	close(report[0]);
	if (pid > 0 && (e || killed)) {
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		pid = -1;
	}
	if (pid < 0 && e)
		snprintf(why, n, "cannot run '%s': %s", argv[0], strerror(e));
	return pid;
}

/* Runs argv as spawn does; its exit status, or -1 with why when it could
 * not run, did not finish, or was cancelled. */
static int run_compiler(char *const argv[], const jit_context *cx, const char *errpath,
                        char *why, size_t n)
{
	int status = 0;
	double start = vrt_now_ms();
	pid_t pid = spawn(argv, cx, errpath, start + JIT_TIMEOUT_MS, why, n);
	if (pid < 0)
		return -1;
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			snprintf(why, n, "lost '%s' (waitpid: %s)", argv[0], strerror(errno));
			return -1;
		}
		if (is_cancelled()) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			snprintf(why, n, "cancelled at exit");
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

/* Removes every "prefix" from s[0..*len), in place, and NUL-terminates
 * it: diagnostics and outputs name the source program.cl, not the
 * private directory it was written to. */
static void strip(char *s, size_t *len, const char *prefix)
{
	size_t k = strlen(prefix), w = 0;
	for (size_t r = 0; r < *len;) {
		if (*len - r >= k && !memcmp(s + r, prefix, k))
			r += k;
		else
			s[w++] = s[r++];
	}
	s[w] = '\0';
	*len = w;
}

static int write_file(const char *path, const char *s, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	int bad = fwrite(s, 1, n, f) != n;
	return fclose(f) || bad ? -1 : 0;
}

/* Whether the source may read a file when preprocessed (#include,
 * #include_next, #import, #embed, __has_include): any of their words,
 * lines spliced first, as translation phase 2 does (a backslash-newline
 * may split one). A source without them means the same whatever the
 * files around it hold. */
static int may_read_files(const char *source, size_t len)
{
	static const char *const words[] = { "include", "import", "embed" };
	char *s = vrt_malloc(len + 1);
	size_t n = 0;
	if (!s)
		return 1; /* when in doubt, it does */
	for (size_t i = 0; i < len; i++) {
		if (source[i] == '\\' && i + 1 < len && source[i + 1] == '\n') {
			i++;
			continue;
		}
		if (source[i] == '\\' && i + 2 < len && source[i + 1] == '\r' && source[i + 2] == '\n') {
			i += 2;
			continue;
		}
		s[n++] = source[i] ? source[i] : ' ';
	}
	s[n] = '\0';
	int found = 0;
	for (size_t i = 0; i < sizeof words / sizeof *words && !found; i++)
		found = strstr(s, words[i]) != NULL;
	vrt_free(s);
	return found;
}

/* Removes what directory fd holds, a level of subdirectories deep (a
 * workspace is DIR/src/program.cl and the compiler's outputs). */
static void empty_dir(int fd, int depth)
{
	int dup = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	DIR *d = dup >= 0 ? fdopendir(dup) : NULL;
	if (!d) {
		if (dup >= 0)
			close(dup);
		return;
	}
	for (struct dirent *e; (e = readdir(d));) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (unlinkat(fd, e->d_name, 0) == 0 || depth == 0)
			continue;
		int sub = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0) {
			empty_dir(sub, depth - 1);
			close(sub);
			unlinkat(fd, e->d_name, AT_REMOVEDIR);
		}
	}
	closedir(d);
}

#define WORKSPACE_PREFIX "vastcc-jit-"

/* Removes the workspaces in base that no process holds: those of
 * programs killed mid-compile. A workspace's owner holds an exclusive
 * flock on it until it removes it, and the kernel drops the lock when the
 * owner dies however it dies, so a lock we can take is a dead owner's
 * (whatever its pid namespace, however its pid was reused). Only our own
 * directories (effective user), never through a symbolic link. */
static void remove_stale(const char *base)
{
	DIR *d = opendir(base);
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));) {
		if (strncmp(e->d_name, WORKSPACE_PREFIX, strlen(WORKSPACE_PREFIX)))
			continue;
		int fd = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		struct stat st;
		if (fd < 0)
			continue;
		if (fstat(fd, &st) == 0 && st.st_uid == geteuid() &&
		    flock(fd, LOCK_EX | LOCK_NB) == 0) {
			vrt_log(VRT_LOG_INFO, "removing '%s/%s', left by a program that died compiling",
			        base, e->d_name);
			empty_dir(fd, 1);
			unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR);
		}
		close(fd); /* and the lock with it */
	}
	closedir(d);
}

/* A compile's private directory: DIR (mode 0700, locked while it
 * exists) and the source in DIR/src/program.cl. */
typedef struct workspace {
	char *dir, *src, *prefix; /* prefix: "DIR/src/", stripped from outputs */
	int fd;                   /* DIR, holding its lock */
} workspace;

static void workspace_close(workspace *w)
{
	if (w->fd >= 0) {
		empty_dir(w->fd, 1);
		rmdir(w->dir);
		close(w->fd);
	}
	vrt_free(w->dir), vrt_free(w->src), vrt_free(w->prefix);
	*w = (workspace){ .fd = -1 };
}

/* Makes w in directory base and writes source there; 0, or -1 with
 * why. */
static int workspace_open(workspace *w, const char *base, const char *source, size_t len,
                          char *why, size_t n)
{
	size_t dl = strlen(base) + 64;
	*w = (workspace){ .fd = -1 };
	w->dir = vrt_malloc(dl), w->src = vrt_malloc(dl), w->prefix = vrt_malloc(dl);
	if (!w->dir || !w->src || !w->prefix) {
		snprintf(why, n, "out of memory");
		goto fail;
	}
	remove_stale(base);
	/* Another program's remove_stale may take a directory between its
	 * mkdtemp and our lock: then it is gone, and we make another. Each
	 * round needs another program to remove ours in those microseconds. */
	for (int round = 0; w->fd < 0; round++) {
		snprintf(w->dir, dl, "%s/" WORKSPACE_PREFIX "XXXXXX", base);
		if (!mkdtemp(w->dir)) {
			snprintf(why, n, "cannot make a directory in '%s': %s", base, strerror(errno));
			goto fail;
		}
		struct stat a, b;
		int fd = open(w->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int locked = fd >= 0 && flock(fd, LOCK_EX) == 0;
		if (locked && fstat(fd, &a) == 0 && stat(w->dir, &b) == 0 && a.st_dev == b.st_dev &&
		    a.st_ino == b.st_ino) {
			w->fd = fd;
		} else if (!locked) {
			/* Not opened (EMFILE) or not locked (ENOLCK): remove what
			 * mkdtemp made, or each round leaves an empty directory.
			 * Locked and gone, another program's remove_stale took it
			 * (and its name may be another's by now): nothing to do. */
			if (fd < 0 || (fstat(fd, &a) == 0 && stat(w->dir, &b) == 0 &&
			               a.st_dev == b.st_dev && a.st_ino == b.st_ino))
				rmdir(w->dir);
		}
		if (w->fd < 0 && fd >= 0)
			close(fd);
		if (w->fd < 0 && round == 100) {
			snprintf(why, n, "cannot keep a directory in '%s'", base);
			goto fail;
		}
	}
	snprintf(w->prefix, dl, "%s/src/", w->dir);
	snprintf(w->src, dl, "%s/src", w->dir);
	int made = mkdir(w->src, 0700);
	strcat(w->src, "/program.cl");
	if (made || write_file(w->src, source, len)) {
		snprintf(why, n, "cannot write '%s': %s", w->src, strerror(errno));
		goto fail;
	}
	return 0;
fail:
	workspace_close(w);
	return -1;
}

/* Whether path names a file in directory dir or below it (textually, as
 * the compiler joins a directory and an #include's name). */
static int under(const char *path, const char *dir)
{
	size_t dl = strlen(dir);
	while (dl && dir[dl - 1] == '/')
		dl--; /* "/" becomes "", above every absolute path */
	return !strncmp(path, dir, dl) && path[dl] == '/';
}

/* Whether file (len bytes) is one of the user's: the program, or a header
 * the compiler found through the working directory it runs in or an -I
 * directory of opts (quoted and escaped as vastcc splits them,
 * lib/analysis/preprocess.c). Relative names are the working
 * directory's: cwd, the one the compiler ran in (NULL: unknown). Not
 * "<command line>", "<built-in>" (the device macros the runtime passes),
 * nor an absolute path elsewhere (clang's headers, vastcc's): errors
 * there are the compiler's, not the source's. */
static int users_file(const char *file, size_t len, const char *opts, const char *cwd)
{
	char *f = vrt_malloc(len + 1), *word = vrt_malloc(strlen(opts) + 1);
	int yes = 0;
	if (!f || !word)
		goto out;
	memcpy(f, file, len);
	f[len] = '\0';
	if (f[0] != '/') {
		yes = f[0] != '<';
		goto out;
	}
	if (cwd && under(f, cwd)) {
		yes = 1;
		goto out;
	}
	int take = 0; /* the previous word was a lone -I */
	for (const char *s = opts; *s && !yes;) {
		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (!*s)
			break;
		size_t w = 0;
		for (char q = 0; *s && (q || (*s != ' ' && *s != '\t' && *s != '\n'));) {
			char ch = *s++;
			if (q && ch == q)
				q = 0;
			else if (!q && (ch == '"' || ch == '\''))
				q = ch;
			else if (ch == '\\' && *s && q != '\'')
				word[w++] = *s++;
			else
				word[w++] = ch;
		}
		word[w] = '\0';
		const char *dir = take ? word : !strncmp(word, "-I", 2) && word[2] ? word + 2 : NULL;
		take = !strcmp(word, "-I");
		/* A relative -I's headers have relative names: taken above. */
		if (dir && dir[0] == '/' && under(f, dir))
			yes = 1;
	}
out:
	vrt_free(f), vrt_free(word);
	return yes;
}

/* Whether the compiler's stderr d locates an error in the user's files
 * ("FILE:LINE:COL: error: ..." or "fatal error:", the program or a
 * header it includes, users_file): the source does not compile. vastcc's
 * own failures ("vastcc: error: ...", "vastcc: internal error at ...")
 * are located in no file, and an error in the command line's macros or a
 * system header is the compiler's too: the program runs natively. */
static int located_error(const char *d, const char *opts, const char *cwd)
{
	for (const char *l = d; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *c = l;
		while (*c && *c != ':' && *c != '\n')
			c++;
		unsigned line, col;
		int at = 0;
		if (*c != ':' || c == l ||
		    sscanf(c, ":%u:%u: %n", &line, &col, &at) != 2 || !at)
			continue;
		if ((!strncmp(c + at, "error: ", 7) || !strncmp(c + at, "fatal error: ", 13)) &&
		    users_file(l, (size_t)(c - l), opts, cwd))
			return 1;
	}
	return 0;
}

/* The compiler's command line: the outputs (one a line), --include-dir,
 * the build's options, the device flags (one a line), the source. The
 * words point into *own (malloc'd) and flags, which it cuts. */
static char **compiler_argv(const char *compiler, const char *outputs, const char *copt,
                            char *flags, const char *src, char **own)
{
	size_t k = 6;
	for (const char *f = flags; *f; f++)
		k += *f == '\n';
	for (const char *f = outputs; *f; f++)
		k += *f == '\n';
	char **argv = vrt_calloc(k + 2, sizeof *argv);
	char *o = vrt_strdup(outputs);
	if (!argv || !o) {
		vrt_free(argv), vrt_free(o);
		return NULL;
	}
	size_t ac = 0;
	argv[ac++] = (char *)compiler;
	char *save = NULL;
	for (char *f = strtok_r(o, "\n", &save); f; f = strtok_r(NULL, "\n", &save))
		argv[ac++] = f;
	argv[ac++] = "--include-dir=.";
	argv[ac++] = (char *)copt;
	save = NULL;
	for (char *f = strtok_r(flags, "\n", &save); f; f = strtok_r(NULL, "\n", &save))
		argv[ac++] = f;
	argv[ac++] = (char *)src;
	*own = o;
	return argv;
}

/* What a compile is of, and everything it reads of the program's state,
 * taken at clBuildProgram (vrt_jit_prepare) on the program's thread. */
struct vrt_jit_job {
	char *source, *opts; /* the build's */
	size_t len;
	unsigned long long hash;
	int includes;        /* may_read_files */
	cl_device_id dev;
	char *flags;         /* the device's, device_flags; NULL: not read yet */
	char *compiler;      /* NULL: none found, why in why */
	char *ident;         /* compiler_identity */
	char *cache;         /* the cache's directory; NULL: none */
	char *tmpdir;        /* where workspaces are made */
	jit_context cx;
	/* The preprocessor's output at clBuildProgram, for a source that
	 * includes files: what the driver built against; in w. */
	char *pre;
	size_t plen;
	workspace w;
	/* An outcome known at clBuildProgram, VRT_JIT_*; -1: none yet. */
	int res;
	char *log;
	char why[1024];
};

/* Runs the compiler of j on w's source: with json, the program as JSON
 * into *text; with cpp, the preprocessor's output into *cpp. VRT_JIT_OK,
 * VRT_JIT_SOURCE_ERROR with its diagnostics in *log, or
 * VRT_JIT_UNAVAILABLE with why. */
static int compile(const vrt_jit_job *j, const workspace *w, int json, char **text,
                   size_t *tlen, int cpp, char **pre, size_t *plen, char **log, char *why,
                   size_t n)
{
	size_t dl = strlen(w->dir) + 64;
	char *jpath = vrt_malloc(dl), *ppath = vrt_malloc(dl), *diag = vrt_malloc(dl);
	char *outputs = vrt_malloc(2 * dl + 64), *copt = vrt_malloc(strlen(j->opts) + 16);
	char *fl = vrt_strdup(j->flags), **argv = NULL, *words = NULL;
	char *d = NULL;
	int res = VRT_JIT_UNAVAILABLE;
	if (!jpath || !ppath || !diag || !outputs || !copt || !fl) {
		snprintf(why, n, "out of memory");
		goto out;
	}
	snprintf(jpath, dl, "%s/program.json", w->dir);
	snprintf(ppath, dl, "%s/program.i", w->dir);
	snprintf(diag, dl, "%s/diag", w->dir);
	snprintf(outputs, 2 * dl + 64, "%s%s%s%s%s", json ? "--emit-json=" : "", json ? jpath : "",
	         json && cpp ? "\n" : "", cpp ? "--emit-preprocessed=" : "", cpp ? ppath : "");
	sprintf(copt, "--cl-options=%s", j->opts);
	if (!(argv = compiler_argv(j->compiler, outputs, copt, fl, w->src, &words))) {
		snprintf(why, n, "out of memory");
		goto out;
	}
	int st = run_compiler(argv, &j->cx, diag, why, n);
	size_t dn = 0;
	if ((d = vrt_read_file(diag, &dn)))
		strip(d, &dn, w->prefix);
	if (st == 0) {
		/* The program's name (its #line directives, the kernels'
		 * locations) is program.cl too: the same in every process, so
		 * cache entries do not depend on the directory. */
		if (json && (!(*text = vrt_read_file(jpath, tlen)) || !vrt_json_sealed(*text, *tlen))) {
			snprintf(why, n, *text ? "'%s' wrote a damaged program"
			                       : "'%s' succeeded but wrote no program", j->compiler);
			goto out;
		}
		if (cpp && !(*pre = vrt_read_file(ppath, plen))) {
			snprintf(why, n, "'%s' succeeded but wrote no preprocessed program", j->compiler);
			goto out;
		}
		if (json) {
			strip(*text, tlen, w->prefix);
			vrt_json_seal(*text, *tlen);
		}
		if (cpp)
			strip(*pre, plen, w->prefix);
		res = VRT_JIT_OK;
		if (d && *d)
			vrt_log(VRT_LOG_INFO, "vastcc said:\n%s", d);
	} else if (st == 1 && d && located_error(d, j->opts, j->cx.cwd)) {
		/* Located in the program (or a header it includes): the source
		 * does not compile; any other failure is the compiler's. */
		*log = d;
		d = NULL;
		res = VRT_JIT_SOURCE_ERROR;
	} else if (st > 0) {
		char *nl = d ? strchr(d, '\n') : NULL;
		if (nl)
			*nl = '\0';
		snprintf(why, n, "'%s' failed (exit status %d)%s%s", j->compiler, st,
		         d && *d ? ": " : "", d ? d : "");
	}
out:
	vrt_free(d);
	vrt_free(jpath), vrt_free(ppath), vrt_free(diag), vrt_free(outputs), vrt_free(copt);
	vrt_free(fl), vrt_free(words), vrt_free(argv);
	return res;
}

/* What the registry tells compiled programs apart by beyond the source
 * and options: the device flags, and a hash of what the preprocessor
 * read (as the registry compares sources by hash). malloc'd. */
static char *registry_device(const char *flags, const char *pre, size_t plen)
{
	size_t n = strlen(flags) + 64;
	char *s = vrt_malloc(n);
	if (s && pre)
		snprintf(s, n, "%s\npreprocessed %016llx %zu", flags,
		         vast_hash_bytes(VAST_HASH_SEED, pre, plen), plen);
	else if (s)
		snprintf(s, n, "%s", flags);
	return s;
}

/* The environment as one block the job owns: the compiler's, as it was
 * at clBuildProgram (a setenv since is the program's own business).
 * NULL when out of memory. */
static char **copy_environ(void)
{
	size_t count = 0, bytes = 0;
	for (char **e = environ; e && *e; e++, count++)
		bytes += strlen(*e) + 1;
	char **out = vrt_malloc((count + 1) * sizeof *out + bytes);
	if (!out)
		return NULL;
	char *at = (char *)(out + count + 1);
	for (size_t i = 0; i < count; i++) {
		size_t l = strlen(environ[i]) + 1;
		memcpy(at, environ[i], l);
		out[i] = at;
		at += l;
	}
	out[count] = NULL;
	return out;
}

void vrt_jit_job_free(vrt_jit_job *j)
{
	if (!j)
		return;
	workspace_close(&j->w);
	if (j->cx.cwd_fd >= 0)
		close(j->cx.cwd_fd);
	vrt_free(j->source), vrt_free(j->opts), vrt_free(j->flags), vrt_free(j->compiler);
	vrt_free(j->ident), vrt_free(j->cache), vrt_free(j->tmpdir), vrt_free(j->cx.env);
	vrt_free(j->cx.cwd), vrt_free(j->pre), vrt_free(j->log);
	vrt_free(j);
}

/* j's outcome decided now: res, why. */
static vrt_jit_job *decided(vrt_jit_job *j, int res, const char *why)
{
	j->res = res;
	if (why)
		snprintf(j->why, sizeof j->why, "%s", why);
	return j;
}

vrt_jit_job *vrt_jit_prepare(const char *source, size_t len, const char *opts, cl_device_id dev)
{
	vrt_jit_job *j = vrt_calloc(1, sizeof *j);
	if (!j)
		return NULL;
	j->res = -1;
	j->cx.cwd_fd = -1;
	j->w.fd = -1;
	opts = opts ? opts : "";
	const char *tmp = vrt_getenv("TMPDIR");
	char cwd[4096];
	j->source = vrt_malloc(len + 1);
	j->opts = vrt_strdup(opts);
	j->tmpdir = vrt_strdup(tmp && tmp[0] == '/' ? tmp : "/tmp");
	j->cx.env = copy_environ();
	/* Unknown (deleted, too long a name): no header is the user's by
	 * being there (users_file). */
	int have_cwd = getcwd(cwd, sizeof cwd) != NULL;
	if (have_cwd)
		j->cx.cwd = vrt_strdup(cwd);
	if (!j->source || !j->opts || !j->tmpdir || !j->cx.env || (have_cwd && !j->cx.cwd)) {
		vrt_jit_job_free(j);
		return NULL;
	}
	memcpy(j->source, source, len);
	j->source[len] = '\0';
	j->len = len;
	j->hash = vast_hash_bytes(VAST_HASH_SEED, source, len);
	j->includes = may_read_files(source, len);
	/* The compiler runs where the program was: a relative -I, and the
	 * working directory device compilers search first, mean what they
	 * meant to the driver. Held open, so a rename does not matter. */
	j->cx.cwd_fd = above_stdio(open(".", O_PATH | O_DIRECTORY | O_CLOEXEC));
	j->dev = dev;
	/* None found is no answer yet: a program compiled in this process
	 * may serve (vrt_jit_run). */
	if ((j->compiler = find_compiler(j->why, sizeof j->why)) &&
	    !(j->ident = compiler_identity(j->compiler)))
		return decided(j, VRT_JIT_UNAVAILABLE, "out of memory");
	if (vrt_cfg.cache)
		j->cache = vrt_cache_dir();
	if (!j->includes)
		return j;
	/* What the headers say now, which the driver is about to build
	 * against: read here, at clBuildProgram, not on the pool's thread
	 * later, when the program may have edited them or moved elsewhere
	 * (vrt_jit_run compiles that text or nothing). */
	if (!j->compiler)
		return decided(j, VRT_JIT_UNAVAILABLE, NULL);
	/* The device's flags, which the preprocessor takes, are read here
	 * only for it: elsewhere on the pool's thread (vrt_jit_run). PoCL's
	 * answers to them on the program's main thread before its first
	 * build left a dynamic TLS record there that LeakSanitizer's scan at
	 * exit crashed on (rt/cache_home under VAST_SANITIZE). */
	if (!(j->flags = device_flags(dev, opts)))
		return decided(j, VRT_JIT_UNAVAILABLE,
		               "cannot read the predefined macros of the device it is built for");
	if (workspace_open(&j->w, j->tmpdir, source, len, j->why, sizeof j->why))
		return decided(j, VRT_JIT_UNAVAILABLE, NULL);
	double t0 = vrt_now_ms();
	int res = compile(j, &j->w, 0, NULL, NULL, 1, &j->pre, &j->plen, &j->log, j->why,
	                  sizeof j->why);
	vrt_log(VRT_LOG_DEBUG, "program (%zu bytes): preprocessed in %.0f ms at its build", len,
	        vrt_now_ms() - t0);
	return res == VRT_JIT_OK ? j : decided(j, res, NULL);
}

int vrt_jit_run(vrt_jit_job *j, const vast_program_info **out, char **log, char *why, size_t n)
{
	int res = VRT_JIT_UNAVAILABLE, hit = 0;
	char *text = NULL, *error = NULL, *built_pre = NULL, *regdev = NULL;
	size_t tlen = 0, built_plen = 0;
	vast_program_info *prog = NULL;
	*out = NULL;
	*log = NULL;
	if (j->res >= 0) {
		*log = j->log;
		j->log = NULL;
		snprintf(why, n, "%s", j->why);
		return j->res;
	}
	/* A device's flags are its own, whenever read. */
	if (!j->flags && !(j->flags = device_flags(j->dev, j->opts))) {
		snprintf(why, n, "cannot read the predefined macros of the device it is built for");
		goto out;
	}
	/* A program compiled in this process under the same source, options,
	 * device and (for one that includes files) preprocessed text holds
	 * without a compiler. */
	if (!(regdev = registry_device(j->flags, j->pre, j->plen))) {
		snprintf(why, n, "out of memory");
		goto out;
	}
	vrt_lock();
	*out = vrt_registry_find_compiled(j->opts, regdev, j->hash, j->len);
	vrt_unlock();
	if (*out) {
		res = VRT_JIT_OK;
		goto out;
	}
	if (!j->compiler) {
		snprintf(why, n, "%s", j->why);
		goto out;
	}
	if (is_cancelled()) {
		snprintf(why, n, "cancelled at exit");
		goto out;
	}
	vrt_cache_key key = { j->source, j->len, j->opts, j->flags, j->ident, j->pre, j->plen };
	if (j->cache) {
		/* An entry this reader cannot take is as good as none. */
		if ((text = vrt_cache_get(j->cache, &key, &tlen)) &&
		    (prog = vrt_stub_from_json(text, tlen, &error)))
			hit = 1;
		free(error);
		error = NULL;
		vrt_cache_count(j->cache, hit);
	}
	if (!hit) {
		vrt_free(text);
		text = NULL;
		/* The private directory only where the compiler runs: a cache
		 * hit of a program that includes nothing reads one file. */
		if (j->w.fd < 0 && workspace_open(&j->w, j->tmpdir, j->source, j->len, why, n))
			goto out;
		if ((res = compile(j, &j->w, 1, &text, &tlen, j->includes, &built_pre, &built_plen,
		                   log, why, n)) != VRT_JIT_OK)
			goto out;
		res = VRT_JIT_UNAVAILABLE;
		/* Compiled against the headers as they are now: they must say
		 * what they said at clBuildProgram, which the driver built. */
		if (j->includes && (built_plen != j->plen || memcmp(built_pre, j->pre, j->plen))) {
			snprintf(why, n, "a file it includes changed after clBuildProgram, which built "
			         "the kernels with its earlier text");
			goto out;
		}
		prog = vrt_stub_from_json(text, tlen, &error);
	}
	if (!prog) {
		snprintf(why, n, "cannot read what '%s' compiled: %s", j->compiler,
		         error ? error : "out of memory");
		goto out;
	}
	if (prog->source_hash != j->hash || prog->source_size != j->len) {
		/* Never a program of other bytes than the build's. */
		snprintf(why, n, "'%s' compiled other bytes than the program's source", j->compiler);
		goto out;
	}
	if (!hit && j->cache && vrt_cache_put(j->cache, &key, text, tlen, vrt_cache_max(j->cache)))
		vrt_log(VRT_LOG_INFO, "cache: cannot store in '%s'", j->cache);
	vrt_log(VRT_LOG_INFO, "program (%zu bytes, options '%s') compiled by '%s'%s", j->len,
	        j->opts, j->compiler, hit ? " (cache hit)" : "");
	vrt_lock();
	/* Another thread may have compiled the same meanwhile: one copy. */
	if ((*out = vrt_registry_find_compiled(j->opts, regdev, j->hash, j->len)) == NULL &&
	    vrt_registry_add_compiled(prog, j->opts, regdev) == 0) {
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
	/* Nothing of it is needed again: the directory goes now, not when
	 * the program does. */
	workspace_close(&j->w);
	if (prog)
		vrt_stub_json_free(prog);
	free(error); /* malloc'd by stubjson.c */
	vrt_free(text), vrt_free(built_pre), vrt_free(regdev);
	return res;
}
