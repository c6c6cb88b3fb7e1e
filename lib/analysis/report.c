/* SPDX-License-Identifier: MIT */
/*
 * report.c - the analysis as JSON (vastcc --report), docs/report.md.
 * Keys come out in a fixed order; files are named as given on the command
 * line, never made absolute.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* A footprint form as text: "4*ny*lid0 + 4*grp0*lsz0 - 8". */
static void put_name(char *buf, size_t cap, size_t *len, const an_func *fn,
                     const an_footprint *fp, unsigned name)
{
	static const char *const pfx[] = { "", "grp", "lid", "", "", "lsz", "gsz",
	                                   "ngrp", "goff" };
	unsigned k = VAST_FP_KIND(name), d = VAST_FP_INDEX(name);
	const char *s = k == VAST_FP_LOOP && d < fp->nloops ? fp->loop_names[d]
	              : k == VAST_FP_ARG && d < fn->nparams ? fn->params[d].name : NULL;
	if (*len < cap)
		*len += (size_t)(s ? snprintf(buf + *len, cap - *len, "*%s", s)
		                   : snprintf(buf + *len, cap - *len, "*%s%u",
		                              k < 9 ? pfx[k] : "?", d));
}

static cJSON *form_json(const an_func *fn, const an_footprint *fp, vast_fp_form f)
{
	char buf[1024];
	size_t len = 0;
	for (unsigned i = 0; i < f.n && len < sizeof buf; i++) {
		const vast_fp_term *t = &fp->terms[f.first + i];
		long long m = t->coef < 0 ? -t->coef : t->coef;
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%lld",
		                        i ? (t->coef < 0 ? " - " : " + ") : t->coef < 0 ? "-" : "", m);
		size_t mark = len;
		for (int k = 0; k < VAST_FP_MAX_SYMS; k++)
			if (t->sym[k] != VAST_FP_ONE)
				put_name(buf, sizeof buf, &len, fn, fp, t->sym[k]);
		if (t->var != VAST_FP_ONE)
			put_name(buf, sizeof buf, &len, fn, fp, t->var);
		if (m == 1 && len > mark && len < sizeof buf) /* 1*x is x */
			memmove(buf + mark - 1, buf + mark + 1, len - mark), len -= 2;
	}
	if (!f.n)
		snprintf(buf, sizeof buf, "0");
	return cJSON_CreateString(buf);
}

static cJSON *footprint_json(const an_func *fn, const an_footprint *fp)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddBoolToObject(o, "affine", fp->affine);
	if (!fp->affine) {
		cJSON_AddStringToObject(o, "reason", fp->reason);
		return o;
	}
	cJSON_AddItemToObject(o, "offset", form_json(fn, fp, fp->offset));
	cJSON *ls = cJSON_AddArrayToObject(o, "loops");
	for (unsigned k = 0; k < fp->nloops; k++) {
		cJSON *l = cJSON_CreateObject();
		cJSON_AddStringToObject(l, "var", fp->loop_names[k]);
		cJSON_AddItemToObject(l, "from", form_json(fn, fp, fp->loops[k].lo));
		cJSON_AddItemToObject(l, "to", form_json(fn, fp, fp->loops[k].hi));
		cJSON_AddNumberToObject(l, "step", (double)fp->loops[k].step);
		cJSON_AddItemToArray(ls, l);
	}
	cJSON *gs = cJSON_AddArrayToObject(o, "guards"); /* each >= 0 */
	for (unsigned i = 0; i < fp->nguards; i++)
		cJSON_AddItemToArray(gs, form_json(fn, fp, fp->guards[i]));
	/* forms that must stay in their C type's range: "form:u32" */
	cJSON *cs = cJSON_AddArrayToObject(o, "checks");
	for (unsigned i = 0; i < fp->nchecks; i++) {
		cJSON *f = form_json(fn, fp, fp->checks[i].form);
		char buf[1100];
		int bits = fp->checks[i].bits;
		snprintf(buf, sizeof buf, "%s:%c%d", cJSON_GetStringValue(f), bits > 0 ? 'u' : 'i',
		         bits > 0 ? bits : -bits);
		cJSON_Delete(f);
		cJSON_AddItemToArray(cs, cJSON_CreateString(buf));
	}
	cJSON_AddBoolToObject(o, "exact", fp->exact);
	cJSON_AddBoolToObject(o, "must_write", fp->must_write);
	return o;
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
	cJSON_AddBoolToObject(k, "items_independent", fn->items_independent);
	if (!fn->items_independent)
		cJSON_AddStringToObject(k, "items_reason", fn->items_reason);
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
		cJSON_AddBoolToObject(o, "inspect_superset", pa->inspect_superset);
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
	/* each access's footprint in this kernel (one per access node,
	 * an_footprints), found once: looking through all of them for each
	 * access was quadratic in the kernel's accesses */
	unsigned *fp_at = calloc(p->naccesses + 1, sizeof *fp_at);
	if (!fp_at) {
		free(reach);
		return k;
	}
	for (unsigned i = fn->nfps; i-- > 0;)
		if (fn->fps[i].access < p->naccesses)
			fp_at[fn->fps[i].access] = i + 1;
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
		if (a->unguarded) /* marked whether or not it runs */
			cJSON_AddBoolToObject(o, "unguarded", 1);
		if (a->part_size) /* where in the element the bytes written lie */
			cJSON_AddNumberToObject(o, "offset", a->part_off);
		if (fp_at[ai])
			cJSON_AddItemToObject(o, "footprint", footprint_json(fn, &fn->fps[fp_at[ai] - 1]));
		cJSON_AddItemToArray(accs, o);
	}
	free(fp_at);
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
