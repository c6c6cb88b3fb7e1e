/* SPDX-License-Identifier: MIT */
/*
 * diag.c - clang-style diagnostics: "file:line:col: error: msg" on stderr.
 * A location without a file prints as "vastcc: error: msg", the driver's
 * own prefix, for errors that have no place in a source file. Columns
 * count from 1, so a column says there is a place; the line may be 0
 * after `#line 0`.
 *
 * Under an_options.caret_diagnostics a diagnostic in the user's file is
 * followed by its source line and a caret under the column, as clang 19
 * prints them: the line number right-aligned in a margin of at least four
 * digits, tabs expanded to 8 columns. The line comes from the file as
 * read for the program, or for a header from the disk; a file with #line
 * directives gets no caret, since the location then names a line other
 * than the one at that place in the file.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static void emit(an_loc loc, const char *kind, const char *fmt, va_list ap)
{
	if (loc.file && loc.col)
		fprintf(stderr, "%s:%u:%u: %s: ", loc.file, loc.line, loc.col, kind);
	else if (loc.file)
		fprintf(stderr, "%s: %s: ", loc.file, kind);
	else
		fprintf(stderr, "vastcc: %s: ", kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void an_diag_error(an_loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emit(loc, "error", fmt, ap);
	va_end(ap);
}

void an_diag_warning(an_loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emit(loc, "warning", fmt, ap);
	va_end(ap);
}

void an_diag_note(an_loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emit(loc, "note", fmt, ap);
	va_end(ap);
}

void an_diag_internal(const char *file, int line, const char *fmt, ...)
{
	const char *base = strrchr(file, '/');
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "vastcc: internal error at %s:%d: ", base ? base + 1 : file, line);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* A line of `text` that is a #line directive, or a GNU linemarker. */
static int has_line_directive(const char *text, size_t n)
{
	int start = 1;
	for (size_t i = 0; i < n; i++) {
		if (text[i] == '\n') {
			start = 1;
			continue;
		}
		if (!start || text[i] == ' ' || text[i] == '\t')
			continue;
		start = 0;
		if (text[i] != '#')
			continue;
		size_t j = i + 1;
		while (j < n && (text[j] == ' ' || text[j] == '\t'))
			j++;
		if ((j < n && isdigit((unsigned char)text[j])) ||
		    (n - j >= 4 && !memcmp(text + j, "line", 4)))
			return 1;
	}
	return 0;
}

static char *read_text(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t len = 0, cap = 0;
	char *s = NULL;
	for (;;) {
		if (len + 4096 > cap) {
			cap = (len + 4096) * 2;
			s = realloc(s, cap);
			if (!s) {
				fclose(f);
				return NULL;
			}
		}
		size_t r = fread(s + len, 1, cap - len, f);
		len += r;
		if (r == 0)
			break;
	}
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		free(s);
		return NULL;
	}
	*n = len;
	return s;
}

/* Line `line` (from 1) of text, without its end: start and length. */
static int find_line(const char *text, size_t n, unsigned line, size_t *at,
                     size_t *len)
{
	size_t i = 0;
	for (unsigned l = 1; l < line; l++) {
		const char *nl = memchr(text + i, '\n', n - i);
		if (!nl)
			return 0;
		i = (size_t)(nl - text) + 1;
	}
	const char *nl = memchr(text + i, '\n', n - i);
	size_t e = nl ? (size_t)(nl - text) : n;
	if (e > i && text[e - 1] == '\r')
		e--;
	*at = i;
	*len = e - i;
	return 1;
}

/* "   12 | text" then "      |    ^", clang's snippet. */
static void print_snippet(const char *line, size_t len, unsigned lineno, unsigned col)
{
	unsigned digits = 1;
	for (unsigned v = lineno; v >= 10; v /= 10)
		digits++;
	int margin = (int)(digits > 4 ? digits : 4);
	fprintf(stderr, "%*u | ", margin + 1, lineno);
	unsigned shown = 0, caret = 0;
	int placed = 0;
	for (size_t i = 0; i < len; i++) {
		if (i + 1 == col) {
			caret = shown;
			placed = 1;
		}
		if (line[i] == '\t') {
			unsigned n = 8 - shown % 8;
			fprintf(stderr, "%*s", (int)n, "");
			shown += n;
		} else {
			fputc(line[i], stderr);
			/* a UTF-8 character is one column, its first byte */
			shown += ((unsigned char)line[i] & 0xc0) != 0x80;
		}
	}
	if (!placed) /* past the line's end: "expected ';'" */
		caret = shown + (unsigned)(col - 1 - len);
	fprintf(stderr, "\n%*s| %*s^\n", margin + 2, "", (int)caret, "");
}

static void show_source(const an_ctx *c, an_loc loc)
{
	if (!c->caret || !loc.file || !loc.line || !loc.col)
		return;
	const an_program *p = c->p;
	char *text = NULL;
	const char *src;
	size_t n, at, len;
	if (!strcmp(loc.file, c->path) && p->source) {
		src = (const char *)p->source;
		n = p->source_size;
	} else {
		src = text = read_text(loc.file, &n);
		if (!text)
			return;
	}
	if (!has_line_directive(src, n) && find_line(src, n, loc.line, &at, &len))
		print_snippet(src + at, len, loc.line, loc.col);
	free(text);
}

void an_error_at(const an_ctx *c, an_loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emit(loc, "error", fmt, ap);
	va_end(ap);
	show_source(c, loc);
}

void an_warning_at(const an_ctx *c, an_loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emit(loc, "warning", fmt, ap);
	va_end(ap);
	show_source(c, loc);
}
