/* SPDX-License-Identifier: MIT */
/*
 * lines.c - user line numbers for offsets into an_program.text.
 *
 * The preprocessed text carries clang's line markers, `# N "file" flags`,
 * or `#line N "file"`; either says the next line is line N of file. We
 * index every line start once, note on which line each marker takes
 * effect, and answer a lookup with two binary searches. Generated code is
 * preceded by `#line N "file"` from here so a device compiler's error
 * points at the user's source (OpenCL C 1.2 §6.10 keeps C99 #line).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "rewrite.h"

typedef struct marker {
	unsigned first_line; /* index of the line it applies to */
	unsigned n;          /* that line's number */
	const char *file;    /* spelled as in the marker, escapes kept */
	size_t file_len;
} marker;

struct rw_lines {
	const an_program *p;
	unsigned *starts;    /* offset of each line's first byte */
	unsigned nlines;
	marker *m;
	unsigned nm;
};

/* A marker at s (a line start): `#line N "f"` or `# N "f" ...`. */
static int parse_marker(const char *s, const char *end, unsigned *n,
                        const char **file, size_t *file_len)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	if (s == end || *s != '#')
		return 0;
	s++;
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	if (end - s >= 4 && !memcmp(s, "line", 4)) {
		s += 4;
		if (s == end || (*s != ' ' && *s != '\t'))
			return 0;
		while (s < end && (*s == ' ' || *s == '\t'))
			s++;
	}
	if (s == end || !isdigit((unsigned char)*s))
		return 0;
	unsigned v = 0;
	while (s < end && isdigit((unsigned char)*s))
		v = v * 10 + (unsigned)(*s++ - '0');
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	*n = v;
	*file = NULL;
	*file_len = 0;
	if (s < end && *s == '"') {
		const char *f = ++s;
		while (s < end && *s != '"' && *s != '\n') {
			if (*s == '\\' && s + 1 < end)
				s++;
			s++;
		}
		*file = f;
		*file_len = (size_t)(s - f);
	}
	return 1;
}

rw_lines *rw_lines_create(const an_program *p)
{
	rw_lines *l = calloc(1, sizeof *l);
	if (!l)
		goto oom;
	l->p = p;
	unsigned n = 1;
	for (size_t i = 0; i < p->len; i++)
		n += p->text[i] == '\n';
	l->starts = malloc(n * sizeof *l->starts);
	l->m = malloc(n * sizeof *l->m);
	if (!l->starts || !l->m)
		goto oom;
	l->starts[l->nlines++] = 0;
	for (size_t i = 0; i < p->len; i++)
		if (p->text[i] == '\n')
			l->starts[l->nlines++] = (unsigned)i + 1;
	const char *cur_file = NULL;
	size_t cur_len = 0;
	for (unsigned k = 0; k < l->nlines; k++) {
		const char *s = p->text + l->starts[k];
		const char *end = k + 1 < l->nlines ? p->text + l->starts[k + 1]
		                                   : p->text + p->len;
		unsigned ln;
		const char *f;
		size_t fl;
		if (!parse_marker(s, end, &ln, &f, &fl))
			continue;
		if (f) {
			cur_file = f;
			cur_len = fl;
		}
		l->m[l->nm++] = (marker){k + 1, ln, cur_file, cur_len};
	}
	return l;
oom:
	RW_INTERNAL("out of memory");
	rw_lines_destroy(l);
	return NULL;
}

void rw_lines_destroy(rw_lines *l)
{
	if (!l)
		return;
	free(l->starts);
	free(l->m);
	free(l);
}

unsigned rw_lines_at(const rw_lines *l, unsigned off, const char **file,
                     size_t *file_len)
{
	unsigned lo = 0, hi = l->nlines; /* last start <= off */
	while (hi - lo > 1) {
		unsigned mid = (lo + hi) / 2;
		if (l->starts[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	unsigned line = lo;
	unsigned mlo = 0, mhi = l->nm; /* markers with first_line <= line */
	while (mlo < mhi) {
		unsigned mid = (mlo + mhi) / 2;
		if (l->m[mid].first_line <= line)
			mlo = mid + 1;
		else
			mhi = mid;
	}
	if (mlo == 0 || !l->m[mlo - 1].file) {
		*file = NULL;
		*file_len = 0;
		if (mlo == 0)
			return line + 1;
	}
	const marker *m = &l->m[mlo - 1];
	*file = m->file;
	*file_len = m->file_len;
	return m->n + (line - m->first_line);
}

void rw_lines_directive(const rw_lines *l, unsigned off, rw_buf *out)
{
	const char *f;
	size_t fl;
	unsigned n = rw_lines_at(l, off, &f, &fl);
	rw_buf_printf(out, "#line %u \"", n);
	if (f) {
		rw_buf_put(out, f, fl);
	} else {
		for (const char *s = l->p->path ? l->p->path : ""; *s; s++) {
			if (*s == '"' || *s == '\\')
				rw_buf_put(out, "\\", 1);
			rw_buf_put(out, s, 1);
		}
	}
	rw_buf_puts(out, "\"\n");
}
