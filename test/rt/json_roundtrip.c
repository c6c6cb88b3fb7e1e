/* SPDX-License-Identifier: MIT */
/*
 * json_roundtrip.c - `vastcc --emit-json` and the stub of `vastcc -c`
 * describe the same program (docs/json.md).
 *
 * Linked with the stub objects of several kernel files (their
 * constructors register them with libvastrt), it is given each file and
 * the JSON vastcc wrote for it: it finds the registered program by the
 * file's hash, reads the JSON back with vrt_stub_from_json, and compares
 * the two vast_program_info field by field, every string and every table
 * entry, printing each difference. Exit 1 on any difference or a file it
 * cannot pair.
 *
 * usage: rt_json_roundtrip K1.cl K1.json [K2.cl K2.json ...]
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vrt.h"

static int ndiff;
static const char *where;

static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	rewind(f);
	char *s = malloc((size_t)len + 1);
	if (!s || fread(s, 1, (size_t)len, f) != (size_t)len) {
		fprintf(stderr, "%s: cannot read\n", path);
		exit(1);
	}
	fclose(f);
	s[len] = '\0';
	*n = (size_t)len;
	return s;
}

__attribute__((format(printf, 1, 2)))
static void differ(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", where);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	ndiff++;
}

static void str(const char *what, const char *a, const char *b)
{
	if (!a != !b || (a && strcmp(a, b)))
		differ("%s: stub '%s', json '%s'", what, a ? a : "(null)", b ? b : "(null)");
}

static void num(const char *what, unsigned long long a, unsigned long long b)
{
	if (a != b)
		differ("%s: stub %llu, json %llu", what, a, b);
}

static void form(const char *what, unsigned i, vast_fp_form a, vast_fp_form b)
{
	char w[64];
	snprintf(w, sizeof w, "%s[%u].first", what, i);
	num(w, a.first, b.first);
	snprintf(w, sizeof w, "%s[%u].n", what, i);
	num(w, a.n, b.n);
}

/* The end of the term table that the forms reach: the ABI leaves the
 * table's length implicit. */
static unsigned form_end(unsigned end, vast_fp_form f)
{
	return f.first + f.n > end ? f.first + f.n : end;
}

static void footprints(unsigned k, const vast_kernel_footprints *a,
                       const vast_kernel_footprints *b)
{
	char w[96];
	int before = ndiff;
	snprintf(w, sizeof w, "kernel %u nfootprints", k);
	num(w, a->nfootprints, b->nfootprints);
	if (a->nfootprints != b->nfootprints)
		return;
	unsigned nloops = 0, nguards = 0, nchecks = 0, nterms = 0;
	for (unsigned i = 0; i < a->nfootprints; i++) {
		const vast_footprint *x = &a->footprints[i], *y = &b->footprints[i];
#define FIELD(f) (snprintf(w, sizeof w, "kernel %u footprint %u ." #f, k, i), num(w, x->f, y->f))
		FIELD(params); FIELD(mode); FIELD(size); FIELD(affine);
		FIELD(first_loop); FIELD(nloops); FIELD(first_guard); FIELD(nguards);
		FIELD(first_check); FIELD(nchecks); FIELD(noffset_checks); FIELD(exact);
		FIELD(must_write);
#undef FIELD
		snprintf(w, sizeof w, "kernel %u footprint %u .reason", k, i);
		str(w, x->reason, y->reason);
		snprintf(w, sizeof w, "kernel %u footprint %u .offset", k, i);
		form(w, 0, x->offset, y->offset);
		nterms = form_end(nterms, x->offset);
		nloops = form_end(nloops, (vast_fp_form){ x->first_loop, x->nloops });
		nguards = form_end(nguards, (vast_fp_form){ x->first_guard, x->nguards });
		nchecks = form_end(nchecks, (vast_fp_form){ x->first_check, x->nchecks });
	}
	if (ndiff != before)
		return; /* the tables' extents differ: do not read past them */
	for (unsigned i = 0; i < nloops; i++) {
		snprintf(w, sizeof w, "kernel %u loops .lo", k);
		form(w, i, a->loops[i].lo, b->loops[i].lo);
		snprintf(w, sizeof w, "kernel %u loops .hi", k);
		form(w, i, a->loops[i].hi, b->loops[i].hi);
		snprintf(w, sizeof w, "kernel %u loops[%u] .step", k, i);
		num(w, (unsigned long long)a->loops[i].step, (unsigned long long)b->loops[i].step);
		nterms = form_end(form_end(nterms, a->loops[i].lo), a->loops[i].hi);
	}
	for (unsigned i = 0; i < nguards; i++) {
		snprintf(w, sizeof w, "kernel %u guards", k);
		form(w, i, a->guards[i], b->guards[i]);
		nterms = form_end(nterms, a->guards[i]);
	}
	for (unsigned i = 0; i < nchecks; i++) {
		snprintf(w, sizeof w, "kernel %u checks .form", k);
		form(w, i, a->checks[i].form, b->checks[i].form);
		snprintf(w, sizeof w, "kernel %u checks[%u] .bits", k, i);
		num(w, (unsigned long long)a->checks[i].bits, (unsigned long long)b->checks[i].bits);
		nterms = form_end(nterms, a->checks[i].form);
	}
	if (ndiff != before)
		return;
	for (unsigned i = 0; i < nterms; i++) {
		const vast_fp_term *x = &a->terms[i], *y = &b->terms[i];
		snprintf(w, sizeof w, "kernel %u terms[%u] .coef", k, i);
		num(w, (unsigned long long)x->coef, (unsigned long long)y->coef);
		snprintf(w, sizeof w, "kernel %u terms[%u] .var", k, i);
		num(w, x->var, y->var);
		for (int m = 0; m < VAST_FP_MAX_SYMS; m++) {
			snprintf(w, sizeof w, "kernel %u terms[%u] .sym[%d]", k, i, m);
			num(w, x->sym[m], y->sym[m]);
		}
	}
}

static void compare(const vast_program_info *a, const vast_program_info *b)
{
	num("abi_version", a->abi_version, b->abi_version);
	str("file", a->file, b->file);
	num("source_hash", a->source_hash, b->source_hash);
	num("source_size", a->source_size, b->source_size);
	str("cl_options", a->cl_options, b->cl_options);
	str("generated_source", a->generated_source, b->generated_source);
	str("prefix", a->prefix, b->prefix);
	num("ndevice_macros", a->ndevice_macros, b->ndevice_macros);
	for (unsigned i = 0; i < a->ndevice_macros && i < b->ndevice_macros; i++) {
		str("device_macros .name", a->device_macros[i].name, b->device_macros[i].name);
		str("device_macros .value", a->device_macros[i].value, b->device_macros[i].value);
	}
	num("nkernels", a->nkernels, b->nkernels);
	for (unsigned k = 0; k < a->nkernels && k < b->nkernels; k++) {
		const vast_kernel_info *x = &a->kernels[k], *y = &b->kernels[k];
		char w[96];
#define FIELD(f) (snprintf(w, sizeof w, "kernel %u ." #f, k), num(w, x->f, y->f))
		FIELD(nparams); FIELD(variants); FIELD(virtualizable); FIELD(merge_exact);
		FIELD(items_independent);
#undef FIELD
#define STR(f) (snprintf(w, sizeof w, "kernel %u ." #f, k), str(w, x->f, y->f))
		STR(name); STR(reason); STR(location);
#undef STR
		for (unsigned i = 0; i < x->nparams && i < y->nparams; i++) {
			const vast_param_info *p = &x->params[i], *q = &y->params[i];
#define FIELD(f) (snprintf(w, sizeof w, "kernel %u param %u ." #f, k, i), num(w, p->f, q->f))
			FIELD(kind); FIELD(mode); FIELD(pattern); FIELD(elem_size);
			FIELD(inspect_reads);
#undef FIELD
			snprintf(w, sizeof w, "kernel %u param %u .name", k, i);
			str(w, p->name, q->name);
		}
		footprints(k, &a->footprints[k], &b->footprints[k]);
	}
}

int main(int argc, char **argv)
{
	if (argc < 3 || argc % 2 == 0) {
		fprintf(stderr, "usage: %s K.cl K.json ...\n", argv[0]);
		return 2;
	}
	unsigned nfootprints = 0;
	for (int i = 1; i + 1 < argc; i += 2) {
		where = argv[i + 1];
		size_t n, m;
		char *src = slurp(argv[i], &n);
		char *json = slurp(argv[i + 1], &m);
		const vast_program_info *stub =
			vrt_registry_find(vast_hash_bytes(VAST_HASH_SEED, src, n), n);
		char *error = NULL;
		vast_program_info *back = vrt_stub_from_json(json, m, &error);
		if (!stub)
			differ("no stub linked in for '%s'", argv[i]);
		if (!back)
			differ("not read back: %s", error ? error : "?");
		if (stub && back) {
			compare(stub, back);
			for (unsigned k = 0; k < stub->nkernels; k++)
				nfootprints += stub->footprints[k].nfootprints;
		}
		vrt_stub_json_free(back);
		free(error);
		free(src);
		free(json);
	}
	printf("%d programs, %u footprints compared, %d differences\n", (argc - 1) / 2,
	       nfootprints, ndiff);
	return ndiff ? 1 : 0;
}
