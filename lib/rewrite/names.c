/* SPDX-License-Identifier: MIT */
/*
 * names.c - the prefix of every name the generated program adds.
 *
 * The generated program holds the user's code next to ours, in one
 * translation unit, so no name we add may be one of the user's, whatever
 * the user named things (a kernel `vast_paged_k` next to `k`, a local
 * `vast_gsize`, a macro `-DVAST_VA_SHIFT=3`). Every added name, in the
 * prelude and in the clones and variants, starts with one prefix chosen
 * per program: "vast_", else "vast1_", "vast2_", ..., the first such that
 * neither it nor its upper-case form ("VAST1_", for the prelude's macros)
 * begins any identifier of the preprocessed text or of the build options.
 * Below the prefix the names are ours alone, and docs/generated-kernels.md
 * keeps them distinct from each other. The stub records the prefix, and
 * the runtime finds the variants by it.
 *
 * Identifiers are the maximal runs of identifier characters outside
 * comments and string and character literals: a run that is no
 * identifier (a number's suffix) can only reject a prefix that was in
 * fact free, never accept one in use.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "rewrite.h"

static int is_id(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_' || ch == '$';
}

size_t rw_skip_non_code(const char *s, size_t n, size_t i)
{
	if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
		while (i < n && s[i] != '\n')
			i += s[i] == '\\' ? 2 : 1;
		return i < n ? i : n;
	}
	if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
		for (i += 2; i + 1 < n; i++)
			if (s[i] == '*' && s[i + 1] == '/')
				return i + 2;
		return n;
	}
	if (s[i] == '"' || s[i] == '\'') {
		char q = s[i];
		for (i++; i < n && s[i] != q && s[i] != '\n'; i++)
			i += s[i] == '\\';
		return i < n ? i + 1 : n;
	}
	return i;
}

/* Does some identifier of s begin with pfx or with its upper case? */
static int prefix_used(const char *s, size_t n, const char *pfx, const char *up)
{
	size_t k = strlen(pfx);
	for (size_t i = 0; i < n;) {
		size_t e = rw_skip_non_code(s, n, i);
		if (e != i) {
			i = e;
			continue;
		}
		if (is_id(s[i]) && (i == 0 || !is_id(s[i - 1])) && n - i >= k &&
		    (!memcmp(s + i, pfx, k) || !memcmp(s + i, up, k)))
			return 1;
		i++;
	}
	return 0;
}

void rw_prefix(const an_program *p, char pfx[RW_PREFIX_MAX])
{
	const char *opts = p->cl_options ? p->cl_options : "";
	char up[RW_PREFIX_MAX];
	for (unsigned k = 0;; k++) {
		if (k == 0)
			snprintf(pfx, RW_PREFIX_MAX, "vast_");
		else
			snprintf(pfx, RW_PREFIX_MAX, "vast%u_", k);
		for (size_t i = 0; i == 0 || pfx[i - 1]; i++) /* to the NUL */
			up[i] = (char)toupper((unsigned char)pfx[i]);
		/* In the options (`-DVAST_X=1`) any occurrence counts. */
		if (!prefix_used(p->text ? p->text : "", p->text ? p->len : 0, pfx, up) &&
		    !strstr(opts, pfx) && !strstr(opts, up))
			return;
	}
}

void rw_put_prefixed(rw_buf *out, const char *text, const char *pfx)
{
	char up[RW_PREFIX_MAX];
	size_t k = strlen(pfx);
	for (size_t i = 0; i == 0 || pfx[i - 1]; i++) /* to the NUL */
		up[i] = (char)toupper((unsigned char)pfx[i]);
	const char *s = text;
	while (*s) {
		int start = is_id(*s) && (s == text || !is_id(s[-1]));
		if (start && (!strncmp(s, "vast_", 5) || !strncmp(s, "VAST_", 5))) {
			rw_buf_put(out, *s == 'v' ? pfx : up, k);
			s += 5;
			continue;
		}
		rw_buf_put(out, s, 1);
		s++;
	}
}
