/* SPDX-License-Identifier: MIT */
/*
 * buf.c - growable strings for the emitters, and the internal-error path.
 *
 * An allocation failure does not stop the writer: the buffer remembers it
 * (oom) and rw_buf_take() reports it once, so emitters need no error check
 * after every append.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rewrite.h"

static int grow(rw_buf *b, size_t need)
{
	if (b->oom)
		return 0;
	if (b->len + need + 1 <= b->cap)
		return 1;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->len + need + 1)
		cap *= 2;
	char *s = realloc(b->s, cap);
	if (!s) {
		b->oom = 1;
		return 0;
	}
	b->s = s;
	b->cap = cap;
	return 1;
}

void rw_buf_put(rw_buf *b, const char *s, size_t n)
{
	if (!grow(b, n))
		return;
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void rw_buf_puts(rw_buf *b, const char *s)
{
	rw_buf_put(b, s, strlen(s));
}

void rw_buf_printf(rw_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !grow(b, (size_t)n)) {
		b->oom = 1;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

char *rw_buf_take(rw_buf *b)
{
	if (b->oom) {
		RW_INTERNAL("out of memory");
		rw_buf_free(b);
		return NULL;
	}
	char *s = b->s ? b->s : calloc(1, 1);
	if (!s)
		RW_INTERNAL("out of memory");
	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

void rw_buf_free(rw_buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
	b->oom = 0;
}

void rw_internal_error(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	const char *base = strrchr(file, '/');
	fprintf(stderr, "vastcc: internal error at %s:%d: ",
	        base ? base + 1 : file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
