/* SPDX-License-Identifier: MIT */
/*
 * test_an_model.c - lib/analysis on small kernels in inputs/: access
 * forms, modes, sizes, patterns, points-to, macros, the slice (keep flags
 * and roles) and the reasons kernels cannot be virtualized.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"

static int failures;

#define CHECK(cond) do { if (!(cond)) { \
	fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
	failures++; } } while (0)

static an_program *load(const char *file, const char *opts)
{
	an_options o = { .cl_options = opts };
	an_program *p = an_program_create(file, &o);
	if (!p) {
		fprintf(stderr, "cannot analyse %s\n", file);
		exit(1);
	}
	return p;
}

static int func(const an_program *p, const char *name)
{
	for (unsigned i = 0; i < p->nfuncs; i++)
		if (!strcmp(p->funcs[i].name, name))
			return (int)i;
	fprintf(stderr, "no function %s\n", name);
	exit(1);
}

static const an_param *param(const an_program *p, const char *k, const char *name)
{
	const an_func *f = &p->funcs[func(p, k)];
	for (unsigned i = 0; i < f->nparams; i++)
		if (!strcmp(f->params[i].name, name))
			return &f->params[i];
	fprintf(stderr, "no param %s\n", name);
	exit(1);
}

/* The n-th access (0-based) on a line. */
static const an_access *acc(const an_program *p, unsigned line, unsigned nth)
{
	for (unsigned i = 0; i < p->naccesses; i++)
		if (p->accesses[i].loc.line == line && nth-- == 0)
			return &p->accesses[i];
	fprintf(stderr, "no access %u on line %u\n", nth, line);
	exit(1);
}

static unsigned count_line(const an_program *p, unsigned line)
{
	unsigned n = 0;
	for (unsigned i = 0; i < p->naccesses; i++)
		n += p->accesses[i].loc.line == line;
	return n;
}

/* The statement whose text starts with s. */
static const an_stmt *stmt(const an_program *p, const char *s)
{
	for (unsigned i = 0; i < p->nstmts; i++)
		if (!strncmp(p->text + p->stmts[i].range.begin, s, strlen(s)))
			return &p->stmts[i];
	fprintf(stderr, "no statement '%s'\n", s);
	exit(1);
}

static void test_forms(void)
{
	an_program *p = load("inputs/an_forms.cl", NULL);
	CHECK(p->funcs[func(p, "forms")].is_kernel);
	CHECK(!p->funcs[func(p, "get")].is_kernel);
	CHECK(p->funcs[func(p, "get")].cloned && p->funcs[func(p, "put")].cloned);
	CHECK(count_line(p, 10) == 6);     /* *d d[i] s->x s[i].y c[i] v4[i].y */
	CHECK(acc(p, 10, 0)->form == AN_FORM_DEREF);
	CHECK(acc(p, 10, 0)->params == 1); /* d = a + 16 -> a */
	CHECK(acc(p, 10, 2)->form == AN_FORM_ARROW && acc(p, 10, 2)->size == 4);
	CHECK(acc(p, 10, 3)->size == 4);   /* s[i].y: the field */
	CHECK(acc(p, 10, 4)->params == 4 && !strcmp(acc(p, 10, 4)->ptr_type, "__global const float *"));
	CHECK(acc(p, 10, 5)->size == 16);  /* v4[i].y: the whole element */
	CHECK(acc(p, 11, 0)->mode == VAST_MODE_W && !strcmp(acc(p, 11, 0)->ptr_type, "__global int *"));
	CHECK(acc(p, 12, 0)->form == AN_FORM_VLOAD && acc(p, 12, 0)->vec == 4 && acc(p, 12, 0)->size == 16);
	CHECK(acc(p, 12, 1)->size == 2 && acc(p, 12, 1)->vec == 1);
	CHECK(acc(p, 13, 0)->form == AN_FORM_VSTORE && acc(p, 13, 0)->mode == VAST_MODE_W);
	CHECK(acc(p, 14, 0)->form == AN_FORM_ATOMIC &&
	      acc(p, 14, 0)->mode == (VAST_MODE_W | VAST_MODE_ATOMIC));
	CHECK(count_line(p, 15) == 1);     /* &cnt[1] is no access, atom_add is */
	CHECK(acc(p, 16, 0)->mode == VAST_MODE_RW);
	CHECK(acc(p, 17, 0)->mode == VAST_MODE_W && acc(p, 17, 0)->size == 4);
	CHECK(count_line(p, 19) == 0);     /* __global float *e = &a[i] */
	CHECK(acc(p, 20, 0)->params == 1); /* *e -> a */
	CHECK(count_line(p, 21) == 0);     /* sizeof(a[0]) */
	CHECK(acc(p, 3, 0)->params == 1 && acc(p, 4, 0)->params == 32); /* helpers */
	const an_param *cnt = param(p, "forms", "cnt");
	CHECK(cnt->mode == (VAST_MODE_W | VAST_MODE_ATOMIC));
	CHECK(!p->funcs[func(p, "forms")].merge_exact);
	CHECK(param(p, "forms", "a")->mode == VAST_MODE_RW);
	CHECK(param(p, "forms", "c")->kind == VAST_PARAM_CONSTANT);
	CHECK(param(p, "forms", "s")->elem_size == 12);
	CHECK(p->funcs[func(p, "forms")].virtualizable);
	an_program_destroy(p);
}

static void test_macros(void)
{
	an_program *p = load("inputs/an_macros.cl", "-DLOADB(i)=b[i]  -DSCALE=2 -cl-mad-enable ");
	CHECK(!strcmp(p->cl_options, "-DLOADB(i)=b[i] -DSCALE=2 -cl-mad-enable"));
	CHECK(count_line(p, 6) == 2);
	CHECK(acc(p, 6, 0)->params == 1 && acc(p, 6, 0)->mode == VAST_MODE_W);
	CHECK(acc(p, 6, 1)->params == 2 && acc(p, 6, 1)->mode == VAST_MODE_R);
	CHECK(strstr(p->text, "#line") != NULL);
	CHECK(strstr(p->text, "opencl-c-base") == NULL);
	an_program_destroy(p);
}

static void test_vadd_early(void)
{
	an_program *p = load("inputs/an_early.cl", NULL);
	CHECK(param(p, "early", "in")->pattern == VAST_PAT_AFFINE);
	CHECK(param(p, "early", "out")->mode == VAST_MODE_W);
	CHECK(stmt(p, "if (i >= n)")->keep[AN_V_INSPECT] && stmt(p, "return")->keep[AN_V_MERGE]);
	CHECK(!stmt(p, "float v")->keep[AN_V_INSPECT]);
	CHECK(stmt(p, "if (i % 2")->keep[AN_V_MERGE]);
	CHECK(!stmt(p, "out[i] = v")->keep[AN_V_MERGE]);
	CHECK(acc(p, 7, 0)->role[AN_V_INSPECT] == AN_ROLE_TOUCH);
	CHECK(acc(p, 7, 0)->role[AN_V_MERGE] == AN_ROLE_DROP);
	CHECK(acc(p, 9, 0)->role[AN_V_MERGE] == AN_ROLE_COPY);
	CHECK(stmt(p, "if (i >= n)")->range.end > stmt(p, "return")->range.begin);
	an_program_destroy(p);
}

static void test_matmul(void)
{
	an_program *p = load("inputs/an_matmul.cl", NULL);
	CHECK(param(p, "matmul", "A")->pattern == VAST_PAT_AFFINE);
	CHECK(param(p, "matmul", "B")->pattern == VAST_PAT_AFFINE);
	CHECK(acc(p, 9, 0)->params == 1); /* row = A + y * n */
	CHECK(stmt(p, "for (int k")->keep[AN_V_INSPECT]);
	CHECK(!stmt(p, "for (int k")->keep[AN_V_MERGE]);
	CHECK(stmt(p, "__global const float *row")->keep[AN_V_INSPECT]);
	CHECK(!stmt(p, "float acc")->keep[AN_V_INSPECT]);
	CHECK(acc(p, 10, 0)->role[AN_V_MERGE] == AN_ROLE_COPY);
	an_program_destroy(p);
}

static void test_spmv(void)
{
	an_program *p = load("inputs/an_spmv.cl", NULL);
	CHECK(param(p, "spmv", "x")->pattern == VAST_PAT_INDIRECT);
	CHECK(param(p, "spmv", "col")->inspect_reads);
	CHECK(param(p, "spmv", "rowptr")->inspect_reads);
	CHECK(!param(p, "spmv", "val")->inspect_reads);
	CHECK(!param(p, "spmv", "x")->inspect_reads);
	CHECK(param(p, "spmv", "y")->pattern == VAST_PAT_AFFINE);
	CHECK(acc(p, 11, 2)->role[AN_V_INSPECT] == AN_ROLE_LOAD); /* col[j] */
	CHECK(acc(p, 11, 1)->role[AN_V_INSPECT] == AN_ROLE_TOUCH); /* x[..] */
	CHECK(acc(p, 11, 2)->role[AN_V_MERGE] == AN_ROLE_DROP);
	CHECK(p->funcs[func(p, "spmv")].virtualizable);
	an_program_destroy(p);
}

static void test_reduce(void)
{
	an_program *p = load("inputs/an_reduce.cl", NULL);
	CHECK(param(p, "reduce", "tmp")->kind == VAST_PARAM_LOCAL);
	CHECK(param(p, "reduce", "out")->pattern == VAST_PAT_AFFINE);
	CHECK(!stmt(p, "barrier")->keep[AN_V_INSPECT]); /* no __local data in R */
	CHECK(!stmt(p, "for (int s")->keep[AN_V_INSPECT]);
	CHECK(stmt(p, "if (lid == 0)")->keep[AN_V_MERGE]);
	CHECK(p->funcs[func(p, "reduce")].virtualizable);
	an_program_destroy(p);
}

static const char *reason(const an_program *p, const char *k)
{
	const an_func *f = &p->funcs[func(p, k)];
	return f->virtualizable ? "" : f->reason;
}

static void test_bad(void)
{
	an_program *p = load("inputs/an_bad.cl", NULL);
	CHECK(strstr(reason(p, "ptr_from_int"), "cannot trace"));
	CHECK(strstr(reason(p, "store_feeds_address"), "store feeds"));
	CHECK(strstr(reason(p, "self_indirect"), "the kernel writes"));
	CHECK(strstr(reason(p, "async"), "async"));
	CHECK(strstr(reason(p, "stores_ptr"), "stored into memory"));
	CHECK(p->funcs[func(p, "self_indirect")].reason_loc.line == 16);
	an_program_destroy(p);
}

static void test_veclit(void)
{
	an_program *p = load("inputs/an_veclit.cl", NULL);
	const an_stmt *s = stmt(p, "a[i] = i < n");
	CHECK(p->text[s->range.end - 1] == ';');
	CHECK(acc(p, 5, 1)->role[AN_V_INSPECT] == AN_ROLE_TOUCH);
	an_program_destroy(p);
}

static void test_errors(void)
{
	an_options o = { 0 };
	CHECK(an_program_create("inputs/does-not-exist.cl", &o) == NULL);
	CHECK(an_program_create("inputs/an_syntax_error.cl", &o) == NULL);
}

int main(void)
{
	test_forms();
	test_macros();
	test_vadd_early();
	test_matmul();
	test_spmv();
	test_reduce();
	test_bad();
	test_veclit();
	test_errors();
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures != 0;
}
