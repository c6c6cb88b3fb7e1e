/* SPDX-License-Identifier: MIT */
/*
 * report.c - the analysis as JSON (vastcc --report), docs/report.md.
 * Keys come out in a fixed order; files are named as given on the command
 * line, never made absolute.
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include "internal.h"

static const char *kind_name(unsigned k)
{
	static const char *const n[] = { "global", "constant", "local", "scalar",
	                                 "image", "sampler", "other" };
	return k < sizeof n / sizeof *n ? n[k] : "other";
}

static const char *mode_name(unsigned m)
{
	switch (m & VAST_MODE_RW) {
	case VAST_MODE_R: return "R";
	case VAST_MODE_W: return "W";
	case VAST_MODE_RW: return "RW";
	default: return "none";
	}
}

static const char *pattern_name(unsigned p)
{
	static const char *const n[] = { "none", "affine", "direct", "indirect" };
	return p < 4 ? n[p] : "none";
}

static const char *form_name(unsigned f)
{
	static const char *const n[] = { "subscript", "deref", "arrow", "vload",
	                                 "vstore", "atomic" };
	return f < 6 ? n[f] : "?";
}

static const char *role_name(unsigned r)
{
	static const char *const n[] = { "drop", "touch", "load", "copy", "effect" };
	return r < 5 ? n[r] : "?";
}

static cJSON *kernel_json(const an_program *p, unsigned f)
{
	const an_func *fn = &p->funcs[f];
	cJSON *k = cJSON_CreateObject();
	cJSON_AddStringToObject(k, "name", fn->name);
	cJSON_AddNumberToObject(k, "line", fn->loc.line);
	cJSON_AddNumberToObject(k, "col", fn->loc.col);
	cJSON_AddBoolToObject(k, "virtualizable", fn->virtualizable);
	if (!fn->virtualizable) {
		cJSON_AddStringToObject(k, "reason", fn->reason ? fn->reason : "");
		cJSON_AddNumberToObject(k, "reason_line", fn->reason_loc.line);
		cJSON_AddNumberToObject(k, "reason_col", fn->reason_loc.col);
	}
	cJSON_AddBoolToObject(k, "merge_exact", fn->merge_exact);
	cJSON *params = cJSON_AddArrayToObject(k, "params");
	for (unsigned i = 0; i < fn->nparams; i++) {
		const an_param *pa = &fn->params[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "index", i);
		cJSON_AddStringToObject(o, "name", pa->name);
		cJSON_AddStringToObject(o, "kind", kind_name(pa->kind));
		cJSON_AddStringToObject(o, "type", pa->type);
		cJSON_AddStringToObject(o, "elem_type", pa->elem_type ? pa->elem_type : "");
		cJSON_AddNumberToObject(o, "elem_size", pa->elem_size);
		cJSON_AddStringToObject(o, "mode", mode_name(pa->mode));
		cJSON_AddBoolToObject(o, "atomic", (pa->mode & VAST_MODE_ATOMIC) != 0);
		cJSON_AddStringToObject(o, "pattern", pattern_name(pa->pattern));
		cJSON_AddBoolToObject(o, "inspect_reads", pa->inspect_reads);
		cJSON_AddItemToArray(params, o);
	}
	const an_program_impl *im = (const an_program_impl *)p;
	/* accesses reachable from the kernel: its own and its helpers' */
	cJSON *accs = cJSON_AddArrayToObject(k, "accesses");
	char *reach = calloc(p->nfuncs + 1, 1);
	if (!reach)
		return k;
	reach[f] = 1;
	for (int changed = 1; changed;) {
		changed = 0;
		for (unsigned c = 0; c < p->ncalls; c++)
			if (p->calls[c].target >= 0 && reach[p->calls[c].func] &&
			    !reach[p->calls[c].target])
				reach[p->calls[c].target] = changed = 1;
	}
	for (unsigned ai = 0; ai < p->naccesses; ai++) {
		const an_access *a = &p->accesses[ai];
		if (!reach[a->func])
			continue;
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "line", a->loc.line);
		cJSON_AddNumberToObject(o, "col", a->loc.col);
		cJSON_AddStringToObject(o, "form", form_name(a->form));
		cJSON_AddStringToObject(o, "mode", mode_name(a->mode));
		if (a->mode & VAST_MODE_ATOMIC)
			cJSON_AddBoolToObject(o, "atomic", 1);
		/* the bytes written: a component store's alone */
		cJSON_AddNumberToObject(o, "size", a->part_size ? a->part_size : a->size);
		cJSON *ps = cJSON_AddArrayToObject(o, "params");
		for (unsigned i = 0; i < fn->nparams && i < 32; i++)
			if ((im->kacc ? im->kacc[(size_t)f * p->naccesses + ai] : a->params) & (1u << i) &&
			    (fn->params[i].kind == VAST_PARAM_GLOBAL ||
			     fn->params[i].kind == VAST_PARAM_CONSTANT))
				cJSON_AddItemToArray(ps, cJSON_CreateString(fn->params[i].name));
		cJSON_AddStringToObject(o, "pattern", pattern_name(a->pattern));
		cJSON_AddStringToObject(o, "function", p->funcs[a->func].name);
		cJSON_AddStringToObject(o, "inspect", role_name(a->role[AN_V_INSPECT]));
		cJSON_AddStringToObject(o, "merge", role_name(a->role[AN_V_MERGE]));
		if (a->part_size) /* where in the element the bytes written lie */
			cJSON_AddNumberToObject(o, "offset", a->part_off);
		cJSON_AddItemToArray(accs, o);
	}
	free(reach);
	return k;
}

char *an_report_json(const an_program *p)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "file", p->path);
	cJSON_AddStringToObject(root, "cl_options", p->cl_options ? p->cl_options : "");
	cJSON *ks = cJSON_AddArrayToObject(root, "kernels");
	for (unsigned f = 0; f < p->nfuncs; f++)
		if (p->funcs[f].is_kernel)
			cJSON_AddItemToArray(ks, kernel_json(p, f));
	cJSON *hs = cJSON_AddArrayToObject(root, "helpers");
	for (unsigned f = 0; f < p->nfuncs; f++) {
		if (p->funcs[f].is_kernel)
			continue;
		cJSON *h = cJSON_CreateObject();
		cJSON_AddStringToObject(h, "name", p->funcs[f].name);
		cJSON_AddBoolToObject(h, "cloned", p->funcs[f].cloned);
		cJSON_AddItemToArray(hs, h);
	}
	char *s = cJSON_Print(root);
	cJSON_Delete(root);
	return s;
}
