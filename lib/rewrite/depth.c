/* SPDX-License-Identifier: MIT */
/*
 * depth.c - generated code that a device compiler would refuse for its
 * nesting.
 *
 * Clang, inside PoCL and other device compilers, refuses more than 256
 * nested parentheses (and, separately, brackets or braces: its
 * -fbracket-depth). A translated access wraps the original expression in
 * three more, `(*(T)vast_tr(vast_c, (ulong)&(E)))`, so a valid program
 * near the limit would give a generated program that does not build, and
 * clBuildProgram would fail where the original builds. We render every
 * clone and kernel variant body, measure its deepest nesting of each kind,
 * and leave out the clones and variants of a function that passes the
 * limit, or that calls a clone left out (to a fixed point over calls). Its
 * kernels are then not virtualizable (the stub says why) and run natively.
 */
#include <stdlib.h>
#include "rewrite.h"

/* The deepest nesting of any one kind of bracket in s[0, n). */
static unsigned max_nesting(const char *s, size_t n)
{
	int depth[3] = {0, 0, 0}, most = 0;
	static const char open[] = "([{", close[] = ")]}";
	for (size_t i = 0; i < n;) {
		size_t e = rw_skip_non_code(s, n, i);
		if (e != i) {
			i = e;
			continue;
		}
		for (int k = 0; k < 3; k++) {
			if (s[i] == open[k] && ++depth[k] > most)
				most = depth[k];
			if (s[i] == close[k])
				depth[k]--;
		}
		i++;
	}
	return (unsigned)most;
}

unsigned char *rw_too_deep(const an_program *p, const char *pfx)
{
	unsigned char *bad = calloc(p->nfuncs + 1, 1);
	if (!bad) {
		RW_INTERNAL("out of memory");
		return NULL;
	}
	for (unsigned f = 0; f < p->nfuncs; f++) {
		const an_func *fn = &p->funcs[f];
		if (!fn->is_kernel && !fn->cloned)
			continue;
		for (int v = 0; v < RW_NVARIANTS && !bad[f]; v++) {
			rw_buf b = {0};
			if (rw_render_body(p, pfx, (int)f, (enum rw_variant)v, 1, &b) < 0) {
				rw_buf_free(&b);
				free(bad);
				return NULL;
			}
			bad[f] = max_nesting(b.s ? b.s : "", b.len) > RW_MAX_NESTING;
			rw_buf_free(&b);
		}
	}
	for (int changed = 1; changed;) {
		changed = 0;
		for (unsigned i = 0; i < p->ncalls; i++) {
			const an_call *c = &p->calls[i];
			if (c->func >= 0 && c->target >= 0 && bad[c->target] && !bad[c->func] &&
			    p->funcs[c->target].cloned)
				bad[c->func] = changed = 1;
		}
	}
	return bad;
}
