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

/* The generated program as vastcc assembles it: the calling convention's
 * constants, then the prelude, the source, the variants. Never freed:
 * stub data lives as long as the program. */
static inline char *rt_generated_source(const char *prelude, const char *line,
                                        const char *source, const char *variants)
{
	const char *part[] = { VAST_ABI_OPENCL_DEFINES, prelude, line, source, variants };
	size_t n = 1;
	for (size_t i = 0; i < sizeof part / sizeof *part; i++)
		n += strlen(part[i]);
	char *s = malloc(n);
	if (!s)
		abort();
	*s = 0;
	for (size_t i = 0; i < sizeof part / sizeof *part; i++)
		strcat(s, part[i]);
	return s;
}
#endif
