/* SPDX-License-Identifier: MIT */
/*
 * test_an_realworld.c - lib/analysis on constructs found in real-world
 * kernels (Rodinia, PolyBench, vendor SDK samples) that once broke it; one
 * small input per bug class in inputs/an_rw_*.cl, written for the test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
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

static const an_func *func(const an_program *p, const char *name)
{
	for (unsigned i = 0; i < p->nfuncs; i++)
		if (!strcmp(p->funcs[i].name, name))
			return &p->funcs[i];
	fprintf(stderr, "no function %s\n", name);
	exit(1);
}

static const an_param *param(const an_program *p, const char *k, const char *name)
{
	const an_func *f = func(p, k);
	for (unsigned i = 0; i < f->nparams; i++)
		if (!strcmp(f->params[i].name, name))
			return &f->params[i];
	fprintf(stderr, "no param %s\n", name);
	exit(1);
}

/* The statement whose text starts with s. */
/* The first access on a line. */
static const an_access *acc_at(const an_program *p, unsigned line)
{
	for (unsigned i = 0; i < p->naccesses; i++)
		if (p->accesses[i].loc.line == line)
			return &p->accesses[i];
	fprintf(stderr, "no access on line %u\n", line);
	exit(1);
}

/* Parameters declared as arrays or through a pointer typedef, and an
 * array field of a struct buffer (lit bugs 5-7). */
static void test_param_forms(void)
{
	an_program *p = load("inputs/an_rw_param_forms.cl", NULL);
	const an_param *b = param(p, "arr", "b");
	CHECK(b->kind == VAST_PARAM_GLOBAL && !strcmp(b->elem_type, "const float") &&
	      b->elem_size == 4 && b->mode == VAST_MODE_R);
	CHECK(!strcmp(b->type, "const __global float *"));
	const an_param *cb = param(p, "arr", "c");
	CHECK(cb->kind == VAST_PARAM_CONSTANT && cb->elem_size == 8);
	CHECK(func(p, "arr")->virtualizable);
	unsigned nb = 0;
	for (unsigned i = 0; i < p->naccesses; i++)
		if (p->accesses[i].loc.line == 5 && p->accesses[i].params == 1u)
			nb++;
	CHECK(nb == 2); /* b[i] and vload2(0, b + i) */
	const an_param *a = param(p, "tdef", "a");
	CHECK(a->kind == VAST_PARAM_GLOBAL && !strcmp(a->elem_type, "float") && a->elem_size == 4);
	CHECK(func(p, "tdef")->virtualizable);
	CHECK(func(p, "field")->virtualizable);
	const an_access *f = acc_at(p, 18) + 1; /* s[i].arr[2] */
	CHECK(f->params == 1u && f->size == 4 && f->mode == VAST_MODE_R);
	CHECK(acc_at(p, 19)->params == 1u && acc_at(p, 19)->mode == VAST_MODE_W);
	/* an array field of a private struct is no buffer access */
	CHECK(func(p, "priv")->virtualizable);
	an_program_destroy(p);
}

static const an_stmt *stmt(const an_program *p, const char *s)
{
	for (unsigned i = 0; i < p->nstmts; i++)
		if (!strncmp(p->text + p->stmts[i].range.begin, s, strlen(s)))
			return &p->stmts[i];
	fprintf(stderr, "no statement '%s'\n", s);
	exit(1);
}

static int has_stmt(const an_program *p, const char *s)
{
	for (unsigned i = 0; i < p->nstmts; i++)
		if (!strncmp(p->text + p->stmts[i].range.begin, s, strlen(s)))
			return 1;
	return 0;
}

/* #pragma unroll wraps the loop in an AttributedStmt. */
static void test_pragma_unroll(void)
{
	an_program *p = load("inputs/an_rw_pragma.cl", NULL);
	CHECK(func(p, "unrolled")->virtualizable);
	CHECK(param(p, "unrolled", "in")->pattern == VAST_PAT_AFFINE);
	CHECK(param(p, "unrolled", "out")->pattern == VAST_PAT_AFFINE);
	/* one statement from the pragma to the end of the loop, a for */
	const an_stmt *s = stmt(p, "#pragma unroll\n");
	CHECK(s->kind == AN_STMT_FOR);
	CHECK(!has_stmt(p, "for (j = 0"));
	/* the second loop feeds no address: dropped with its pragma */
	const an_stmt *s2 = stmt(p, "#pragma unroll 2");
	CHECK(s2->kind == AN_STMT_FOR && !s2->keep[AN_V_INSPECT]);
	an_program_destroy(p);
}

/* Parameters reassigned in the kernel (NVIDIA's bitonic sort offsets its
 * buffer pointers by the work-item's position). */
static void test_param_reassign(void)
{
	an_program *p = load("inputs/an_rw_param_reassign.cl", NULL);
	CHECK(param(p, "shifted", "src")->pattern == VAST_PAT_AFFINE);
	CHECK(param(p, "shifted", "dst")->pattern == VAST_PAT_AFFINE);
	CHECK(param(p, "squared", "src")->pattern == VAST_PAT_DIRECT);
	CHECK(param(p, "squared", "dst")->pattern == VAST_PAT_AFFINE);
	CHECK(param(p, "scaled", "src")->pattern == VAST_PAT_DIRECT);
	CHECK(param(p, "stepped", "src")->pattern == VAST_PAT_DIRECT);
	CHECK(param(p, "stepped", "dst")->pattern == VAST_PAT_AFFINE);
	an_program_destroy(p);
}

static const char *reason(const an_program *p, const char *k)
{
	const an_func *f = func(p, k);
	return f->virtualizable ? "" : f->reason;
}

/* Loads of data the kernel writes, on the work-item's own element. */
static void test_own_element(void)
{
	an_program *p = load("inputs/an_rw_own_element.cl", NULL);
	CHECK(func(p, "frontier")->virtualizable);
	/* the merge kernel would read mask after the kernel cleared it */
	CHECK(!func(p, "frontier")->merge_exact);
	CHECK(param(p, "frontier", "mask")->inspect_reads);
	CHECK(!param(p, "frontier", "cost")->inspect_superset);
	/* the inspector cannot read what these read: it drops the `if` and
	 * marks what it guards, a superset of the pages */
	static const char *const superset[] = { "store_first", "in_loop", "neighbour", "two_d" };
	for (unsigned i = 0; i < sizeof superset / sizeof *superset; i++) {
		CHECK(func(p, superset[i])->virtualizable);
		CHECK(!param(p, superset[i], "mask")->inspect_reads);
		CHECK(param(p, superset[i], "cost")->inspect_superset);
	}
	an_program_destroy(p);
}

/* Pointer-to-integer conversions of buffer pointers (lit bug 3). */
static void test_ptr_int(void)
{
	an_program *p = load("inputs/an_rw_ptr_int.cl", NULL);
	CHECK(strstr(reason(p, "addr"), "converted to an integer"));
	CHECK(func(p, "addr")->reason_loc.line == 4);
	CHECK(strstr(reason(p, "aligned"), "converted to an integer"));
	CHECK(func(p, "data")->virtualizable);
	an_program_destroy(p);
}

/* A component store writes one run of the element's bytes, which the
 * merge kernel copies alone; other component stores make the merge
 * inexact (lit bug 4). */
static void test_vec_component(void)
{
	an_program *p = load("inputs/an_rw_vec_component.cl", NULL);
	CHECK(func(p, "comp")->virtualizable && func(p, "comp")->merge_exact);
	const an_access *a = acc_at(p, 4);
	CHECK(a->size == 16 && a->part_off == 4 && a->part_size == 4);
	CHECK(func(p, "swizzle")->merge_exact);
	a = acc_at(p, 9);
	CHECK(a->size == 16 && a->part_off == 8 && a->part_size == 8);
	CHECK(func(p, "bump")->merge_exact);
	a = acc_at(p, 14);
	CHECK(a->size == 8 && a->part_off == 0 && a->part_size == 4 && a->mode == VAST_MODE_RW);
	CHECK(func(p, "whole")->merge_exact);
	CHECK(acc_at(p, 20)->part_size == 0 && acc_at(p, 21)->part_size == 0);
	CHECK(!func(p, "gaps")->merge_exact && acc_at(p, 28)->part_size == 0);
	CHECK(!func(p, "odd")->merge_exact && acc_at(p, 33)->part_size == 0);
	CHECK(func(p, "index")->merge_exact);
	a = acc_at(p, 38);
	CHECK(a->part_off == 12 && a->part_size == 4);
	a = acc_at(p, 39);
	CHECK(a->part_off == 8 && a->part_size == 8);
	an_program_destroy(p);
}

/* The JSON report names each kernel's own parameters for an access in a
 * shared helper (lit bug 2). */
static void test_helper_params(void)
{
	an_program *p = load("inputs/an_rw_helper_params.cl", NULL);
	char *json = an_report_json(p);
	cJSON *r = cJSON_Parse(json);
	CHECK(r != NULL);
	const cJSON *k;
	int seen = 0;
	cJSON_ArrayForEach(k, cJSON_GetObjectItem(r, "kernels")) {
		const char *name = cJSON_GetObjectItem(k, "name")->valuestring;
		const cJSON *a;
		cJSON_ArrayForEach(a, cJSON_GetObjectItem(k, "accesses")) {
			if (cJSON_GetObjectItem(a, "line")->valueint != 3)
				continue;
			const cJSON *ps = cJSON_GetObjectItem(a, "params");
			CHECK(cJSON_GetArraySize(ps) == 1);
			const char *want = !strcmp(name, "first") ? "x" : "b";
			CHECK(!strcmp(cJSON_GetArrayItem(ps, 0)->valuestring, want));
			seen++;
		}
	}
	CHECK(seen == 2);
	cJSON_Delete(r);
	free(json);
	an_program_destroy(p);
}

int main(void)
{
	test_helper_params();
	test_param_forms();
	test_vec_component();
	test_ptr_int();
	test_own_element();
	test_pragma_unroll();
	test_param_reassign();
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures != 0;
}
