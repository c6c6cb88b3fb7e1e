/* SPDX-License-Identifier: MIT */
/*
 * diag.c - clang-style diagnostics: "file:line:col: error: msg" on stderr.
 * A location without a file prints as "vastcc: error: msg", the driver's
 * own prefix, for errors that have no place in a source file. Columns
 * count from 1, so a column says there is a place; the line may be 0
 * after `#line 0`.
 */
#include <stdarg.h>
#include <stdio.h>
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
