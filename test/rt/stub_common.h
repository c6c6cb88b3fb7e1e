/* SPDX-License-Identifier: MIT */
/*
 * stub_common.h - what a hand-written host stub needs: the files a real
 * stub would hold as strings, pulled in with .incbin, and the generated
 * program assembled as vastcc emits it (prelude, original source, the
 * variants). Stands in for lib/rewrite's output until it exists.
 */
#ifndef RT_STUB_COMMON_H
#define RT_STUB_COMMON_H
#include <stdlib.h>
#include <string.h>

#include "vast/stub.h"

#define RT_INCBIN(sym, path)                                              \
	__asm__(".section .rodata\n.global " #sym "\n.type " #sym ", @object\n" \
	        #sym ":\n.incbin \"" path "\"\n.byte 0\n.previous\n");        \
	extern const char sym[]

/* Never freed: stub data lives as long as the program. */
static inline char *rt_concat4(const char *a, const char *b, const char *c, const char *d)
{
	size_t n = strlen(a) + strlen(b) + strlen(c) + strlen(d) + 1;
	char *s = malloc(n);
	if (!s)
		abort();
	strcpy(s, a);
	strcat(s, b);
	strcat(s, c);
	strcat(s, d);
	return s;
}
#endif
