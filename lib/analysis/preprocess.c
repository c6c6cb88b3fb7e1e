/* SPDX-License-Identifier: MIT */
/*
 * preprocess.c - run the real clang's preprocessor over the user's file.
 *
 * Accesses spelled inside macros have no source range of their own, so the
 * analysis and the rewrite work on the macro-expanded text. We run
 * `clang -E -x cl -cl-std=.. -D.. -U.. -I.. FILE` (fork/exec, no shell) and
 * read its stdout. clang 19 implicitly includes opencl-c-base.h; every
 * region that comes from a system header, <built-in> or <command line> is
 * dropped, found through the GNU linemarkers `# N "name" flags` (flag 3:
 * system header). The other linemarkers become `#line N "name"`, which
 * every OpenCL compiler accepts and which keep diagnostics and reports on
 * the user's lines.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "internal.h"

#ifndef VAST_DEFAULT_CLANG
#define VAST_DEFAULT_CLANG "clang"
#endif

/* Collapse whitespace runs to one space, trim; "" for NULL. */
char *an_normalize_options(const char *s)
{
	size_t n = s ? strlen(s) : 0, j = 0;
	char *out = an_xmalloc(n + 1);
	int space = 0;
	for (size_t i = 0; i < n; i++) {
		if (isspace((unsigned char)s[i])) {
			space = j > 0;
			continue;
		}
		if (space)
			out[j++] = ' ';
		space = 0;
		out[j++] = s[i];
	}
	out[j] = 0;
	return out;
}

/* Split build options into words; quotes group, backslash escapes. */
static char **split_words(const char *s, unsigned *nw)
{
	char **w = NULL;
	unsigned n = 0, cap = 0;
	size_t len = s ? strlen(s) : 0;
	char *buf = an_xmalloc(len + 1);
	size_t i = 0;
	while (i < len) {
		while (i < len && isspace((unsigned char)s[i]))
			i++;
		if (i >= len)
			break;
		size_t j = 0;
		char q = 0;
		while (i < len && (q || !isspace((unsigned char)s[i]))) {
			char ch = s[i++];
			if (q && ch == q)
				q = 0;
			else if (!q && (ch == '"' || ch == '\''))
				q = ch;
			else if (ch == '\\' && i < len && q != '\'')
				buf[j++] = s[i++];
			else
				buf[j++] = ch;
		}
		*AN_PUSH(w, n, cap) = an_strndup(buf, j);
	}
	free(buf);
	*nw = n;
	return w;
}

/* "CL1.2" -> 120, "CL3.0" -> 300 (OpenCL C 1.2 §6.10); "CLC++" and the
 * like: 0. */
unsigned an_cl_std_version(const char *std)
{
	unsigned major, minor;
	if (sscanf(std, "CL%u.%u", &major, &minor) != 2 &&
	    sscanf(std, "cl%u.%u", &major, &minor) != 2)
		return 0;
	return major * 100 + minor * 10;
}

static int is_system_region(const char *name, int sys)
{
	return sys || !strcmp(name, "<built-in>") || !strcmp(name, "<command line>");
}

/* Append to a growable char buffer. */
typedef struct sbuf { char *s; size_t n, cap; } sbuf;

static void sb_put(sbuf *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->s = realloc(b->s, b->cap);
		if (!b->s) {
			fputs("vastcc: error: out of memory\n", stderr);
			exit(1);
		}
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = 0;
}

/* A `#define NAME...` or `#undef NAME` line of -dD output: records the
 * macro for colmap.c, and outside the user's files (predefined) the value
 * of a device-dependent one (devmacros.c). */
static int macro_line(an_ctx *c, const char *l, size_t ln, int user)
{
	size_t k;
	int def = ln > 8 && !memcmp(l, "#define ", 8);
	if (def)
		k = 8;
	else if (ln > 7 && !memcmp(l, "#undef ", 7))
		k = 7;
	else
		return 0;
	size_t e = k;
	while (e < ln && (isalnum((unsigned char)l[e]) || l[e] == '_' || l[e] == '$'))
		e++;
	if (def && e > k)
		an_colmap_define(c, l + k, e - k, e < ln && l[e] == '(');
	if (!user && e > k) {
		size_t v = e < ln && l[e] == ' ' ? e + 1 : e;
		an_devmacro_predef(c, l + k, e - k, def ? l + v : NULL, ln - v);
	}
	return 1;
}

/* The user's files other than the main one, as linemarkers name them:
 * read again to find the device macros they test. */
static void scan_included(an_ctx *c, const char *name)
{
	if (!strcmp(name, c->path))
		return;
	an_program_impl *im = (an_program_impl *)c->p;
	for (unsigned i = 0; i < im->nnames; i++)
		if (!strcmp(im->names[i], name))
			return; /* seen */
	an_intern_name(c->p, name);
	FILE *f = fopen(name, "rb");
	if (!f)
		return;
	sbuf b = {0};
	char chunk[65536];
	size_t r;
	while ((r = fread(chunk, 1, sizeof chunk, f)) > 0)
		sb_put(&b, chunk, r);
	fclose(f);
	an_devmacro_scan(c, b.s, b.n);
	free(b.s);
}

/* A linemarker's flags, after the file name (GNU cpp's `# N "name" 1 3`):
 * whether `flag` is among them. */
static int has_flag(const char *flags, const char *end, char flag)
{
	for (const char *f = flags; f < end; f++)
		if (*f == flag && f[-1] == ' ' && (f + 1 == end || f[1] == ' '))
			return 1;
	return 0;
}

/* A file entered (flag 1) other than the program's own and clang's
 * pseudo-files: an include, recorded once. */
static void record_include(an_ctx *c, const char *name, int sys)
{
	if (!strcmp(name, c->path) || !strcmp(name, "<built-in>") ||
	    !strcmp(name, "<command line>"))
		return;
	an_program *p = c->p;
	for (unsigned i = 0; i < p->nincludes; i++)
		if (!strcmp(p->includes[i].path, name))
			return;
	an_program_impl *im = (an_program_impl *)p;
	an_include *inc = AN_PUSH(p->includes, p->nincludes, im->capincludes);
	inc->path = an_xstrdup(name);
	inc->system = sys;
}

/* Keep the user's regions of clang -E output; linemarkers -> #line;
 * -dD's #define and #undef lines recorded and blanked. */
static char *filter(an_ctx *c, const char *in, size_t len, size_t *outlen)
{
	sbuf b = {0};
	int keep = 1;
	sb_put(&b, "", 0);
	for (size_t i = 0; i < len;) {
		size_t e = i;
		while (e < len && in[e] != '\n')
			e++;
		const char *l = in + i;
		size_t ln = e - i;
		if (ln > 2 && l[0] == '#' && l[1] == ' ' && isdigit((unsigned char)l[2])) {
			char *end;
			unsigned long line = strtoul(l + 2, &end, 10);
			const char *q = memchr(end, '"', ln - (size_t)(end - l));
			const char *q2 = q ? q + 1 : NULL;
			while (q2 && q2 < l + ln && *q2 != '"')
				q2 += (*q2 == '\\') ? 2 : 1;
			if (q && q2 && q2 < l + ln) {
				char *name = an_strndup(q + 1, (size_t)(q2 - q - 1));
				int sys = has_flag(q2 + 1, l + ln, '3');
				if (has_flag(q2 + 1, l + ln, '1'))
					record_include(c, name, sys);
				keep = !is_system_region(name, sys);
				if (keep)
					scan_included(c, name);
				if (keep) {
					char hdr[64];
					snprintf(hdr, sizeof hdr, "#line %lu ", line);
					sb_put(&b, hdr, strlen(hdr));
					sb_put(&b, q, (size_t)(q2 - q + 1));
					sb_put(&b, "\n", 1);
				}
				free(name);
				i = e + 1;
				continue;
			}
		}
		if (ln > 6 && l[0] == '#' && macro_line(c, l, ln, keep)) {
			if (keep)
				sb_put(&b, "\n", e < len);
		} else if (keep)
			sb_put(&b, l, ln + (e < len));
		i = e + 1;
	}
	*outlen = b.n;
	return b.s;
}

/* A file with no preprocessor directive but #pragma, built without -D/-U/
 * -I, has no user macros to expand: its text is its own preprocessed form,
 * and skipping the clang process halves vastcc's time on it. */
static int needs_preprocessor(const unsigned char *src, size_t n, char **w,
                              unsigned nw)
{
	for (unsigned i = 0; i < nw; i++)
		if (!strncmp(w[i], "-D", 2) || !strncmp(w[i], "-U", 2) ||
		    !strncmp(w[i], "-I", 2))
			return 1;
	int line_start = 1;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = src[i];
		if (ch == '\\' && i + 1 < n && src[i + 1] == '\n') {
			i++; /* a continued line does not start a new one */
			continue;
		}
		if (ch == '\n') {
			line_start = 1;
			continue;
		}
		if (!line_start || ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f')
			continue;
		line_start = 0;
		if (ch == '#') {
			size_t j = i + 1;
			while (j < n && (src[j] == ' ' || src[j] == '\t'))
				j++;
			if (n - j < 6 || memcmp(src + j, "pragma", 6))
				return 1;
		}
	}
	return 0;
}

/* Runs argv (fork/exec, no shell) and reads its stdout into *out (malloc'd,
 * *n bytes); 1 when it exited with status 0. */
static int capture(const char *clang, char **argv, char **out, size_t *np)
{
	int fd[2];
	size_t n = 0, cap = 0;
	if (pipe(fd) != 0) {
		an_diag_error((an_loc){0}, "cannot create a pipe: %s", strerror(errno));
		return 0;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		an_diag_error((an_loc){0}, "cannot fork: %s", strerror(errno));
		close(fd[0]);
		close(fd[1]);
		return 0;
	}
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execvp(clang, argv);
		fprintf(stderr, "vastcc: error: cannot run '%s': %s\n", clang,
		        strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	for (;;) {
		if (n + 65536 > cap) {
			cap = (n + 65536) * 2;
			*out = realloc(*out, cap);
			if (!*out) {
				fputs("vastcc: error: out of memory\n", stderr);
				exit(1);
			}
		}
		ssize_t r = read(fd[0], *out + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd[0]);
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	*np = n;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* The words of opt's device options (devmacros.c) appended to *w; the
 * extension macros to drop are those clang predefines for this -cl-std
 * and target, asked with -dM of an empty file. 0 when that fails. */
static int device_args(const char *clang, const an_options *opt, const char *std,
                       char ***w, unsigned *nw, unsigned *cap)
{
	char *predefs = NULL;
	size_t n = 0;
	if (opt->device_extensions) {
		char *probe[] = { (char *)clang, "-E", "-dM", "-x", "cl", (char *)std,
		                  "-target", "spir64", "/dev/null", NULL };
		if (!capture(clang, probe, &predefs, &n)) {
			free(predefs);
			return 0;
		}
	}
	an_devmacro_args(opt, predefs, n, w, nw, cap);
	free(predefs);
	return 1;
}

/* Runs clang -E; returns the filtered text or NULL (diagnostics printed).
 * *std_out receives the -cl-std= value given, or NULL. */
int an_preprocess(an_ctx *c, const char *path, const an_options *opt,
                  char **std_out)
{
	const char *clang = opt && opt->clang ? opt->clang : getenv("VAST_CLANG");
	if (!clang || !*clang)
		clang = VAST_DEFAULT_CLANG;
	unsigned nw = 0;
	char **w = split_words(opt ? opt->cl_options : NULL, &nw);
	char **argv = NULL;
	unsigned na = 0;
	int ok = 0;
	char *out = NULL;
	const char *std = NULL;
	char **dev = NULL; /* the device options' words */
	unsigned ndev = 0, capdev = 0;
	for (unsigned i = 0; i < nw; i++)
		if (!strncmp(w[i], "-cl-std=", 8))
			std = w[i];
	*std_out = an_xstrdup(std ? std + 8 : "CL1.2");
	if (!std)
		std = "-cl-std=CL1.2";

	/* A device macro's value is the preprocessor's to say. */
	an_devmacro_scan(c, (const char *)c->p->source, c->p->source_size);
	if (!c->p->ndevmacros &&
	    !needs_preprocessor(c->p->source, c->p->source_size, w, nw)) {
		sbuf b = {0};
		char hdr[32];
		snprintf(hdr, sizeof hdr, "#line 1 \"");
		sb_put(&b, hdr, strlen(hdr));
		sb_put(&b, path, strlen(path));
		sb_put(&b, "\"\n", 2);
		/* A UTF-8 byte-order mark is only skipped at the very start of
		 * a file, and the #line above moved it: drop it here, as clang
		 * -E and the device compilers do. */
		size_t bom = c->p->source_size >= 3 &&
		             !memcmp(c->p->source, "\xef\xbb\xbf", 3) ? 3 : 0;
		sb_put(&b, (const char *)c->p->source + bom, c->p->source_size - bom);
		c->p->text = b.s;
		c->p->len = b.n;
		c->p->cpp = an_strndup((const char *)c->p->source, c->p->source_size);
		c->p->cpp_len = c->p->source_size;
		ok = 1;
		goto done;
	}
	if (opt && !device_args(clang, opt, std, &dev, &ndev, &capdev))
		goto done;

	argv = an_xcalloc(nw + ndev + 16, sizeof *argv);
	argv[na++] = (char *)clang;
	argv[na++] = "-E";
	argv[na++] = "-x";
	argv[na++] = "cl";
	argv[na++] = (char *)std;
	/* For a generic OpenCL device, not the host: clang's spir64 target
	 * predefines __IMAGE_SUPPORT__ and the extension macros a full
	 * profile device has, and __OPENCL_VERSION__ (which clang leaves to
	 * the device) is the -cl-std version. devmacros.c records what the
	 * program tests of them. */
	argv[na++] = "-target";
	argv[na++] = "spir64";
	char version[48];
	unsigned v = an_cl_std_version(std + 8);
	snprintf(version, sizeof version, "-D__OPENCL_VERSION__=%u", v);
	if (v)
		argv[na++] = version;
	/* Then the device's own macros in place of those (devmacros.c), then
	 * the program's options: a device compiler applies -D and -U after
	 * its predefined macros, and clang applies all of them in order. */
	for (unsigned i = 0; i < ndev; i++)
		argv[na++] = dev[i];
	/* Searched before the options' -I directories, as a device compiler
	 * searches the program's working directory first. */
	if (opt && opt->include_dir) {
		argv[na++] = "-I";
		argv[na++] = (char *)opt->include_dir;
	}
	for (unsigned i = 0; i < nw; i++) {
		if (!strcmp(w[i], "-D") || !strcmp(w[i], "-U") || !strcmp(w[i], "-I")) {
			if (i + 1 < nw) {
				argv[na++] = w[i];
				argv[na++] = w[++i];
			}
		} else if (!strncmp(w[i], "-D", 2) || !strncmp(w[i], "-U", 2) ||
		           !strncmp(w[i], "-I", 2))
			argv[na++] = w[i];
		/* every other option (-cl-mad-enable, -w, -Werror...) only
		 * matters to the device compiler */
	}
	argv[na++] = (char *)path;
	argv[na++] = "-dD"; /* macro names, for the user's columns (colmap.c) */
	/* clang stops after 20 errors with "fatal error: too many errors
	 * emitted", which has no location: print every error, each located
	 * (the analysis relocates that message itself, parse.c). */
	argv[na++] = "-ferror-limit=0";
	argv[na] = NULL;

	if (opt && opt->verbose) {
		for (unsigned i = 0; i < na; i++)
			fprintf(stderr, "%s%s", i ? " " : "", argv[i]);
		fputc('\n', stderr);
	}

	size_t n = 0;
	if (capture(clang, argv, &out, &n)) {
		size_t tl;
		an_colmap_start(c);
		c->p->text = filter(c, out, n, &tl);
		c->p->len = tl;
		an_devmacro_finish(c);
		c->p->cpp = out;
		c->p->cpp_len = n;
		out = NULL;
		ok = 1;
	}
done:
	free(out);
	for (unsigned i = 0; i < nw; i++)
		free(w[i]);
	free(w);
	for (unsigned i = 0; i < ndev; i++)
		free(dev[i]);
	free(dev);
	free(argv);
	return ok;
}
