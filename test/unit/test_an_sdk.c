/* SPDX-License-Identifier: MIT */
/*
 * test_an_sdk.c - lib/analysis on kernels written like the AMD/NVIDIA SDK
 * samples (inputs/an_sdk.cl): none may be refused, every access is found,
 * and the patterns come out as a reader of the kernel would say.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis.h"

static int failures;
#define CHECK(cond) do { if (!(cond)) { \
	fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
	failures++; } } while (0)

static const an_func *kernel(const an_program *p, const char *name)
{
	for (unsigned i = 0; i < p->nfuncs; i++)
		if (!strcmp(p->funcs[i].name, name))
			return &p->funcs[i];
	return NULL;
}

static unsigned accesses_in(const an_program *p, const char *name)
{
	unsigned n = 0;
	for (unsigned i = 0; i < p->naccesses; i++)
		n += !strcmp(p->funcs[p->accesses[i].func].name, name);
	return n;
}

static unsigned pat(const an_program *p, const char *k, unsigned i)
{
	return kernel(p, k)->params[i].pattern;
}

int main(void)
{
	an_options o = { 0 };
	an_program *p = an_program_create("inputs/an_sdk.cl", &o);
	if (!p)
		return 1;
	static const struct { const char *k; unsigned n; } want[] = {
		{ "matrixMul", 3 }, { "histogram256", 5 }, { "nbody", 5 },
		{ "sobel", 2 }, { "bitonicSort", 4 }, { "prefixSum", 4 },
	};
	for (unsigned i = 0; i < sizeof want / sizeof *want; i++) {
		const an_func *f = kernel(p, want[i].k);
		CHECK(f && f->is_kernel && f->virtualizable);
		CHECK(accesses_in(p, want[i].k) == want[i].n);
	}
	CHECK(pat(p, "matrixMul", 1) == VAST_PAT_AFFINE);
	CHECK(pat(p, "histogram256", 1) == VAST_PAT_INDIRECT);
	CHECK(kernel(p, "histogram256")->params[0].inspect_reads);
	CHECK(!kernel(p, "histogram256")->merge_exact);
	CHECK(kernel(p, "histogram256")->params[1].mode == (VAST_MODE_W | VAST_MODE_ATOMIC));
	CHECK(kernel(p, "nbody")->params[1].mode == VAST_MODE_RW);
	CHECK(pat(p, "sobel", 0) == VAST_PAT_AFFINE);
	CHECK(pat(p, "bitonicSort", 0) == VAST_PAT_DIRECT);
	CHECK(kernel(p, "prefixSum")->params[2].kind == VAST_PARAM_LOCAL);
	char *json = an_report_json(p);
	CHECK(json && strstr(json, "\"name\":\t\"histogram256\""));
	CHECK(json && !strstr(json, "/work/"));
	free(json);
	an_program_destroy(p);
	return failures != 0;
}
