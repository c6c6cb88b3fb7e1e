/* SPDX-License-Identifier: MIT */
/*
 * depfile.c - the dependency file of a .cl input, as cc writes one for C
 * under -MD or -MMD, so make, ninja and CMake's DEPFILE rebuild the
 * kernel's object when a header it includes changes.
 *
 * Where and what, as gcc does: the file is -MF's, else the -o output's
 * name (or the input's base name) with its suffix replaced by .d; the
 * targets are -MT's (as given) and -MQ's (quoted for make), else the
 * object; the prerequisites the kernel file, then every file the
 * preprocessor read for it in the order first read (-MMD leaves out
 * system headers); -MP adds an empty rule per header, so a deleted
 * header does not stop make. Lines fold at 75 columns as clang folds them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"
#include "driver.h"

typedef struct text {
	char *s;
	size_t n, cap;
	unsigned col; /* the current line's length, for folding */
} text;

static void put(text *t, const char *s, size_t n)
{
	if (t->n + n + 1 > t->cap) {
		t->cap = (t->n + n + 1) * 2;
		t->s = realloc(t->s, t->cap);
		if (!t->s) {
			fprintf(stderr, "vastcc: error: out of memory\n");
			exit(1);
		}
	}
	memcpy(t->s + t->n, s, n);
	t->n += n;
	t->s[t->n] = '\0';
	const char *nl = NULL; /* the last newline */
	for (const char *c = s; c < s + n; c++)
		if (*c == '\n')
			nl = c;
	t->col = nl ? (unsigned)(s + n - nl - 1) : t->col + (unsigned)n;
}

static void puts_(text *t, const char *s)
{
	put(t, s, strlen(s));
}

/* A name as make reads it (gcc's and clang's quoting): a space or tab
 * after its backslashes, doubled, escaped; '#' escaped; '$' doubled. */
static void put_quoted(text *t, const char *name)
{
	for (const char *c = name; *c; c++) {
		if (*c == ' ' || *c == '\t') {
			for (const char *b = c - 1; b >= name && *b == '\\'; b--)
				put(t, "\\", 1);
			put(t, "\\", 1);
		} else if (*c == '#') {
			put(t, "\\", 1);
		} else if (*c == '$') {
			put(t, "$", 1);
		}
		put(t, c, 1);
	}
}

/* A file without the "./" the preprocessor puts before a header found
 * beside the includer, as clang writes it ("inc/a.h"). */
static const char *file_name(const char *name)
{
	while (name[0] == '.' && name[1] == '/') {
		name += 2;
		while (*name == '/')
			name++;
	}
	return name;
}

/* One prerequisite, on a new line when this one would pass 75 columns
 * (leaving room for the " \" that may end it). */
static void put_prerequisite(text *t, const char *path)
{
	const char *name = file_name(path);
	if (t->col + strlen(name) + 1 + 2 > 75)
		puts_(t, " \\\n ");
	put(t, " ", 1);
	put_quoted(t, name);
}

static void put_target(text *t, const char *name, bool quoted, bool first)
{
	if (!first) {
		if (t->col + strlen(name) + 2 > 75)
			puts_(t, " \\\n  ");
		else
			put(t, " ", 1);
	}
	if (quoted)
		put_quoted(t, name);
	else
		puts_(t, name);
}

/* "out/app" -> "out/app.d", "k.o" -> "k.d": the last suffix replaced. */
static char *with_d_suffix(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *dot = strrchr(slash ? slash + 1 : path, '.');
	size_t n = dot ? (size_t)(dot - path) : strlen(path);
	char *d = malloc(n + 3);
	if (!d) {
		fprintf(stderr, "vastcc: error: out of memory\n");
		exit(1);
	}
	memcpy(d, path, n);
	memcpy(d + n, ".d", 3);
	return d;
}

static bool listed(const an_include *inc, const options *opt)
{
	return opt->deps == DEP_MD || !inc->system;
}

bool write_depfile(const input *in, const an_program *p, const options *opt)
{
	if (opt->deps == DEP_NONE)
		return true;
	text t = {0};
	char *object = opt->output ? NULL : object_name(in->path);
	if (opt->dep_targets.n) {
		for (size_t i = 0; i < opt->dep_targets.n; i++) {
			const char *tg = opt->dep_targets.v[i];
			put_target(&t, tg + 1, tg[0] == 'Q', i == 0);
		}
	} else {
		put_target(&t, opt->output ? opt->output : object, true, true);
	}
	put(&t, ":", 1);
	put_prerequisite(&t, in->path);
	for (unsigned i = 0; i < p->nincludes; i++)
		if (listed(&p->includes[i], opt))
			put_prerequisite(&t, p->includes[i].path);
	put(&t, "\n", 1);
	for (unsigned i = 0; opt->dep_phony && i < p->nincludes; i++) {
		if (!listed(&p->includes[i], opt))
			continue;
		put(&t, "\n", 1);
		put_quoted(&t, file_name(p->includes[i].path));
		puts_(&t, ":\n");
	}
	char *path = opt->dep_file ? NULL
	             : with_d_suffix(opt->output ? opt->output : object);
	bool ok = write_file_atomic(opt->dep_file ? opt->dep_file : path, t.s, t.n);
	free(path);
	free(object);
	free(t.s);
	return ok;
}
