/* SPDX-License-Identifier: MIT */
/*
 * json.c - rw_emit_json: the program's vast_program_info (info.c, the one
 * the stub holds) as a JSON document, what `vastcc --emit-json=FILE`
 * writes and libvastrt's vrt_stub_from_json (runtime/program/stubjson.c) reads
 * back when it compiles a program at clBuildProgram. docs/json.md is the
 * format, field by field.
 *
 * The document mirrors the structs of vast/stub.h: one object per struct,
 * one member per field under the field's name, arrays for the tables; a
 * kernel's footprint tables sit in the kernel's object ("footprints")
 * rather than in a parallel array. cJSON numbers are doubles, exact only
 * up to 2^53, so every 64-bit field (source_hash, source_size, a term's
 * coef, a loop's step) is a string: the hash in hex ("0x..." with 16
 * digits), the others in decimal; 32-bit fields are plain numbers. The
 * last member is a checksum of all the text before it (vast/stub.h,
 * VAST_JSON_SEAL_HEAD), so that a damaged cache file is refused even
 * where it is still valid JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "rewrite.h"

/* Out of memory building a document of a few tables is an internal
 * error, as in info.c. */
static cJSON *must(cJSON *item)
{
	if (!item) {
		RW_INTERNAL("out of memory");
		abort();
	}
	return item;
}

static void put(cJSON *obj, const char *key, cJSON *item)
{
	if (!cJSON_AddItemToObject(obj, key, must(item))) {
		RW_INTERNAL("out of memory");
		abort();
	}
}

static void push(cJSON *arr, cJSON *item)
{
	if (!cJSON_AddItemToArray(arr, must(item))) {
		RW_INTERNAL("out of memory");
		abort();
	}
}

static cJSON *str(const char *s)
{
	return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

static cJSON *u32(unsigned v)
{
	return cJSON_CreateNumber(v);
}

static cJSON *i64(long long v)
{
	char s[24];
	snprintf(s, sizeof s, "%lld", v);
	return cJSON_CreateString(s);
}

/* [first, n] */
static cJSON *form(vast_fp_form f)
{
	cJSON *a = must(cJSON_CreateArray());
	push(a, u32(f.first));
	push(a, u32(f.n));
	return a;
}

static cJSON *param(const vast_param_info *pa)
{
	cJSON *o = must(cJSON_CreateObject());
	put(o, "name", str(pa->name));
	put(o, "kind", u32(pa->kind));
	put(o, "mode", u32(pa->mode));
	put(o, "pattern", u32(pa->pattern));
	put(o, "elem_size", u32(pa->elem_size));
	put(o, "inspect_reads", u32(pa->inspect_reads));
	return o;
}

static cJSON *footprint(const vast_footprint *fp)
{
	cJSON *o = must(cJSON_CreateObject());
	put(o, "params", u32(fp->params));
	put(o, "mode", u32(fp->mode));
	put(o, "size", u32(fp->size));
	put(o, "affine", u32(fp->affine));
	put(o, "reason", str(fp->reason));
	put(o, "offset", form(fp->offset));
	put(o, "first_loop", u32(fp->first_loop));
	put(o, "nloops", u32(fp->nloops));
	put(o, "first_guard", u32(fp->first_guard));
	put(o, "nguards", u32(fp->nguards));
	put(o, "first_check", u32(fp->first_check));
	put(o, "nchecks", u32(fp->nchecks));
	put(o, "noffset_checks", u32(fp->noffset_checks));
	put(o, "exact", u32(fp->exact));
	put(o, "must_write", u32(fp->must_write));
	return o;
}

static cJSON *footprints(const rw_info *info, unsigned k)
{
	const vast_kernel_footprints *f = &info->prog.footprints[k];
	unsigned n[RW_FP_NTAB];
	rw_info_sizes(info, k, n);
	cJSON *o = must(cJSON_CreateObject());
	cJSON *fps = must(cJSON_CreateArray()), *terms = must(cJSON_CreateArray());
	cJSON *loops = must(cJSON_CreateArray()), *guards = must(cJSON_CreateArray());
	cJSON *checks = must(cJSON_CreateArray());
	for (unsigned i = 0; i < n[RW_FP_FPS]; i++)
		push(fps, footprint(&f->footprints[i]));
	for (unsigned i = 0; i < n[RW_FP_TERMS]; i++) {
		cJSON *t = must(cJSON_CreateObject()), *sym = must(cJSON_CreateArray());
		put(t, "coef", i64(f->terms[i].coef));
		put(t, "var", u32(f->terms[i].var));
		for (int m = 0; m < VAST_FP_MAX_SYMS; m++)
			push(sym, u32(f->terms[i].sym[m]));
		put(t, "sym", sym);
		push(terms, t);
	}
	for (unsigned i = 0; i < n[RW_FP_LOOPS]; i++) {
		cJSON *l = must(cJSON_CreateObject());
		put(l, "lo", form(f->loops[i].lo));
		put(l, "hi", form(f->loops[i].hi));
		put(l, "step", i64(f->loops[i].step));
		push(loops, l);
	}
	for (unsigned i = 0; i < n[RW_FP_GUARDS]; i++)
		push(guards, form(f->guards[i]));
	for (unsigned i = 0; i < n[RW_FP_CHECKS]; i++) {
		cJSON *c = must(cJSON_CreateObject());
		put(c, "form", form(f->checks[i].form));
		put(c, "bits", cJSON_CreateNumber(f->checks[i].bits));
		push(checks, c);
	}
	put(o, "footprints", fps);
	put(o, "terms", terms);
	put(o, "loops", loops);
	put(o, "guards", guards);
	put(o, "checks", checks);
	return o;
}

static cJSON *kernel(const rw_info *info, unsigned k)
{
	const vast_kernel_info *ki = &info->prog.kernels[k];
	cJSON *o = must(cJSON_CreateObject()), *params = must(cJSON_CreateArray());
	put(o, "name", str(ki->name));
	for (unsigned i = 0; i < ki->nparams; i++)
		push(params, param(&ki->params[i]));
	put(o, "params", params);
	put(o, "variants", u32(ki->variants));
	put(o, "virtualizable", u32(ki->virtualizable));
	put(o, "reason", str(ki->reason));
	put(o, "location", str(ki->location));
	put(o, "merge_exact", u32(ki->merge_exact));
	put(o, "items_independent", u32(ki->items_independent));
	put(o, "footprints", footprints(info, k));
	return o;
}

char *rw_emit_json(const an_program *p, const char *program_text)
{
	rw_info *info = rw_info_create(p, program_text);
	if (!info)
		return NULL;
	const vast_program_info *pi = &info->prog;
	cJSON *doc = must(cJSON_CreateObject());
	put(doc, "vastcc_json", u32(VAST_JSON_VERSION));
	put(doc, "abi_version", u32(pi->abi_version));
	put(doc, "file", str(pi->file));
	char hash[24];
	snprintf(hash, sizeof hash, "0x%016llx", pi->source_hash);
	put(doc, "source_hash", str(hash));
	char size[24];
	snprintf(size, sizeof size, "%llu", pi->source_size);
	put(doc, "source_size", str(size));
	put(doc, "cl_options", str(pi->cl_options));
	put(doc, "prefix", str(pi->prefix));
	cJSON *macros = must(cJSON_CreateArray());
	for (unsigned i = 0; i < pi->ndevice_macros; i++) {
		cJSON *m = must(cJSON_CreateObject());
		put(m, "name", str(pi->device_macros[i].name));
		put(m, "value", str(pi->device_macros[i].value));
		push(macros, m);
	}
	put(doc, "device_macros", macros);
	cJSON *kernels = must(cJSON_CreateArray());
	for (unsigned k = 0; k < pi->nkernels; k++)
		push(kernels, kernel(info, k));
	put(doc, "kernels", kernels);
	put(doc, "generated_source", str(pi->generated_source));
	char *text = cJSON_Print(doc);
	cJSON_Delete(doc);
	rw_info_destroy(info);
	size_t n = text ? strlen(text) : 0;
	if (n < 2 || strcmp(text + n - 2, "\n}")) {
		RW_INTERNAL("cJSON printed no object");
		free(text);
		return NULL;
	}
	/* the object without its closing brace, then the seal closing it */
	rw_buf out = {0};
	rw_buf_put(&out, text, n - 2);
	rw_buf_printf(&out, VAST_JSON_SEAL_HEAD "%016llx" VAST_JSON_SEAL_TAIL,
	              vast_hash_bytes(VAST_HASH_SEED, text, n - 2));
	free(text);
	return rw_buf_take(&out);
}
