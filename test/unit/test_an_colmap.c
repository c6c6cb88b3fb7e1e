/* SPDX-License-Identifier: MIT */
/*
 * test_an_colmap.c - user columns (and lines) of accesses and reasons on
 * lines that macro expansions, comments and multi-line invocations
 * changed in the preprocessed text (colmap.c, lit bug 1). The expected
 * locations are clang's expansion locations in the original file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"

static int failures;

#define CHECK(cond) do { if (!(cond)) { \
	fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
	failures++; } } while (0)

/* Is there an access at file:line:col with mode? */
static int has(const an_program *p, const char *file, unsigned line, unsigned col,
               unsigned mode)
{
	for (unsigned i = 0; i < p->naccesses; i++) {
		const an_access *a = &p->accesses[i];
		if (a->loc.line == line && a->loc.col == col && a->mode == mode &&
		    a->loc.file && strstr(a->loc.file, file))
			return 1;
	}
	fprintf(stderr, "no access at %s:%u:%u\n", file, line, col);
	for (unsigned i = 0; i < p->naccesses; i++)
		fprintf(stderr, "  have %s:%u:%u\n", p->accesses[i].loc.file,
		        p->accesses[i].loc.line, p->accesses[i].loc.col);
	return 0;
}

int main(void)
{
	an_options o = { 0 };
	an_program *p = an_program_create("inputs/an_colmap.cl", &o);
	if (!p) {
		fprintf(stderr, "cannot analyse inputs/an_colmap.cl\n");
		return 1;
	}
	const char *f = "an_colmap.cl", *h = "an_colmap.h";
	/* after a comment that clang -E folds into the line before */
	CHECK(has(p, f, 9, 11, VAST_MODE_W));  /* out[IDX(x, y)] */
	CHECK(has(p, f, 9, 28, VAST_MODE_R));  /* in[x] */
	/* an object-like macro inside, a function-like one over two lines */
	CHECK(has(p, f, 10, 2, VAST_MODE_W));  /* out[N] */
	CHECK(has(p, f, 10, 11, VAST_MODE_R)); /* LOAD(in, y) */
	CHECK(has(p, f, 11, 21, VAST_MODE_R)); /* in[N + __LINE__] */
	/* after a header macro */
	CHECK(has(p, f, 12, 33, VAST_MODE_W)); /* out[y] */
	/* in a user header */
	CHECK(has(p, h, 3, 71, VAST_MODE_R));  /* p[TWICE(i)] */
	CHECK(has(p, h, 3, 85, VAST_MODE_R));  /* p[i] */
	/* the reason of a kernel that is not virtualizable */
	const an_func *bad = NULL;
	for (unsigned i = 0; i < p->nfuncs; i++)
		if (!strcmp(p->funcs[i].name, "bad"))
			bad = &p->funcs[i];
	CHECK(bad && !bad->virtualizable);
	CHECK(bad && bad->reason_loc.line == 16 && bad->reason_loc.col == 21);
	CHECK(has(p, f, 16, 2, VAST_MODE_W));
	an_program_destroy(p);
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures != 0;
}
