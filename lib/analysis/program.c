/* SPDX-License-Identifier: MIT */
/*
 * program.c - an_program_create(): the pipeline of lib/analysis, and the
 * per-kernel summary (parameter modes, patterns, the warning for kernels
 * that cannot be virtualized).
 *
 * Memory: the public model is freed by an_program_destroy(); the analysis
 * context, the libclang index and translation unit are disposed before
 * an_program_create() returns. Out of memory prints a message and exits:
 * this is compiler code, not the runtime.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

void *an_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		fputs("vastcc: error: out of memory\n", stderr);
		exit(1);
	}
	return p;
}

void *an_xcalloc(size_t n, size_t m)
{
	void *p = calloc(n ? n : 1, m ? m : 1);
	if (!p) {
		fputs("vastcc: error: out of memory\n", stderr);
		exit(1);
	}
	return p;
}

char *an_strndup(const char *s, size_t n)
{
	char *r = an_xmalloc(n + 1);
	memcpy(r, s, n);
	r[n] = 0;
	return r;
}

char *an_xstrdup(const char *s)
{
	return an_strndup(s, strlen(s));
}

char *an_cxstr(CXString s)
{
	const char *t = clang_getCString(s);
	char *r = an_xstrdup(t ? t : "");
	clang_disposeString(s);
	return r;
}

void *an_grow_(void *a, unsigned n, unsigned *cap, size_t elem)
{
	if (n < *cap)
		return a;
	*cap = *cap ? *cap * 2 : 16;
	a = realloc(a, *cap * elem);
	if (!a) {
		fputs("vastcc: error: out of memory\n", stderr);
		exit(1);
	}
	return a;
}

const char *an_intern_name(an_program *p, const char *name)
{
	an_program_impl *im = (an_program_impl *)p;
	for (unsigned i = 0; i < im->nnames; i++)
		if (!strcmp(im->names[i], name))
			return im->names[i];
	char *s = an_xstrdup(name);
	*AN_PUSH(im->names, im->nnames, im->capnames) = s;
	return s;
}

static unsigned char *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 65536, n = 0;
	unsigned char *buf = an_xmalloc(cap);
	for (;;) {
		size_t r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (n < cap)
			break;
		cap *= 2;
		buf = realloc(buf, cap);
		if (!buf) {
			fputs("vastcc: error: out of memory\n", stderr);
			exit(1);
		}
	}
	int err = ferror(f);
	fclose(f);
	if (err) {
		free(buf);
		return NULL;
	}
	*size = n;
	return buf;
}

/* ---- loads of data the kernel writes -------------------------------- */

/* The node of access ai in its function. */
static int access_node(an_ctx *c, unsigned ai)
{
	if (!c->acc_node) {
		c->acc_node = an_xmalloc((c->p->naccesses + 1) * sizeof *c->acc_node);
		for (unsigned a = 0; a <= c->p->naccesses; a++)
			c->acc_node[a] = -1;
		for (unsigned n = 0; n < c->nnodes; n++)
			if (c->nodes[n].access >= 0 && c->acc_node[c->nodes[n].access] < 0)
				c->acc_node[c->nodes[n].access] = (int)n;
	}
	return ai < c->p->naccesses ? c->acc_node[ai] : -1;
}

/* The literal 0, as the dimension argument of a work-item function. */
static int is_zero(an_ctx *c, int n)
{
	n = an_strip(c, n);
	if (n < 0 || c->nodes[n].kind != CXCursor_IntegerLiteral)
		return 0;
	const char *t = c->p->text + c->nodes[n].begin;
	return c->nodes[n].end == c->nodes[n].begin + 1 && t[0] == '0';
}

/* get_global_id(0), directly or through a variable initialized with it
 * and never assigned again. */
static int is_gid0(an_ctx *c, int n, int depth)
{
	n = an_strip(c, n);
	if (n < 0 || depth > 4)
		return 0;
	an_node *x = &c->nodes[n];
	if (x->kind == CXCursor_CallExpr)
		return x->call >= 0 && c->p->calls[x->call].builtin == AN_BI_GLOBAL_ID &&
		       x->nkids == 2 && is_zero(c, x->kids[1]);
	if (x->kind != CXCursor_DeclRefExpr || x->var < 0)
		return 0;
	an_var *v = &c->vars[x->var];
	if (v->func < 0 || v->param >= 0 || v->ndefs || !v->has_init || v->addr_taken ||
	    v->is_array || v->node < 0)
		return 0;
	an_node *d = &c->nodes[v->node];
	for (unsigned i = 0; i < d->nkids; i++)
		if (clang_isExpression(c->nodes[d->kids[i]].kind))
			return is_gid0(c, d->kids[i], depth + 1);
	return 0;
}

/* Access ai is p[get_global_id(0)] in kernel f, p being f's own
 * parameter, never reassigned: the work-item's own element. */
static int own_element(an_ctx *c, int f, unsigned ai)
{
	an_access *a = &c->p->accesses[ai];
	if (a->form != AN_FORM_SUBSCRIPT || a->func != f)
		return 0;
	int n = access_node(c, ai);
	if (n < 0 || c->nodes[n].kind != CXCursor_ArraySubscriptExpr || c->nodes[n].nkids != 2)
		return 0;
	int b = an_strip(c, c->nodes[n].kids[0]);
	if (b < 0 || c->nodes[b].kind != CXCursor_DeclRefExpr || c->nodes[b].var < 0)
		return 0;
	an_var *v = &c->vars[c->nodes[b].var];
	return v->func == f && v->param >= 0 && !v->ndefs && !v->addr_taken &&
	       is_gid0(c, c->nodes[n].kids[1], 0);
}

/* Every work-item function the kernel reaches asks for dimension 0 only:
 * written for a 1-D launch, where get_global_id(0) is unique. */
static int one_dimensional(an_ctx *c, an_kfacts *k)
{
	for (unsigned n = 0; n < c->nnodes; n++) {
		an_node *x = &c->nodes[n];
		if (x->call < 0 || x->func < 0 || !k->reach[x->func])
			continue;
		enum an_builtin bi = c->p->calls[x->call].builtin;
		if (bi == AN_BI_NONE || bi == AN_BI_WORK_DIM || bi == AN_BI_GLOBAL_LINEAR_ID ||
		    bi == AN_BI_LOCAL_LINEAR_ID)
			continue;
		if (x->nkids != 2 || !is_zero(c, x->kids[1]))
			return 0;
	}
	return 1;
}

/* The inspector may load p[gid] although the kernel writes p (Rodinia
 * BFS: `if (mask[tid]) { mask[tid] = false; ... }`) when the value it
 * reads is the value the work-item reads: the load is the work-item's own
 * element, runs at most once (in no loop), and every store to p is to the
 * own element of the same work-item, after the load in the kernel's text.
 * No other work-item stores there in a 1-D launch. */
int an_load_sees_original(an_ctx *c, int f, unsigned ai, unsigned written)
{
	an_program *p = c->p;
	an_kfacts *k = &c->kf[f];
	an_access *a = &p->accesses[ai];
	unsigned bits = k->acc_bits[ai] & written;
	int n = access_node(c, ai);
	if (!own_element(c, f, ai) || n < 0 || an_in_loop(c, n) || !one_dimensional(c, k))
		return 0;
	for (unsigned aj = 0; aj < p->naccesses; aj++) {
		an_access *b = &p->accesses[aj];
		if (!k->reach[b->func] || !(k->acc_bits[aj] & bits) || !(b->mode & VAST_MODE_W))
			continue;
		if (!own_element(c, f, aj) || b->expr.begin < a->expr.end ||
		    (k->acc_bits[aj] & ~bits))
			return 0;
	}
	return 1;
}

/* Parameter summaries and the reasons found while slicing. */
void an_finish_kernels(an_ctx *c)
{
	an_program *p = c->p;
	for (unsigned f = 0; f < p->nfuncs; f++) {
		an_func *fn = &p->funcs[f];
		if (!fn->is_kernel)
			continue;
		an_kfacts *k = &c->kf[f];
		unsigned written = 0;
		/* the slices need a loaded value for an address, or, when no
		 * address depends on loaded data, for a condition or loop
		 * bound that decides which accesses run */
		int addr_dep = 0;
		for (unsigned ai = 0; ai < p->naccesses; ai++)
			if (k->reach[p->accesses[ai].func] && c->addr_taint[ai])
				addr_dep = 1;
		for (unsigned b = 0; b < c->nbad; b++)
			if (c->bad[b].func >= 0 && k->reach[c->bad[b].func])
				an_not_virtualizable(c, (int)f, an_node_loc(c, c->bad[b].node), "%s",
				                     c->bad[b].reason);
		for (unsigned ai = 0; ai < p->naccesses; ai++) {
			an_access *a = &p->accesses[ai];
			if (!k->reach[a->func])
				continue;
			if (a->mode & VAST_MODE_W)
				written |= k->acc_bits[ai];
			for (unsigned i = 0; i < fn->nparams && i < 32; i++) {
				if (!(k->acc_bits[ai] & (1u << i)))
					continue;
				an_param *pa = &fn->params[i];
				pa->mode |= a->mode;
				if (a->pattern > pa->pattern)
					pa->pattern = a->pattern;
				if (a->role[AN_V_INSPECT] == AN_ROLE_LOAD)
					pa->inspect_reads = 1;
				if (a->unguarded)
					pa->inspect_superset = 1;
			}
			if ((a->mode & VAST_MODE_W) && (a->role[AN_V_INSPECT] == AN_ROLE_LOAD ||
			                                a->role[AN_V_MERGE] == AN_ROLE_LOAD))
				an_not_virtualizable(c, (int)f, a->loc, "%s",
				                     addr_dep ? "a global store feeds an address computation"
				                              : "a global store's value decides which "
				                                "accesses run");
			/* An inspector's load outside its buffers reads the
			 * scratch at the end of pasinfo instead (prelude.cl,
			 * vast_load): it must hold the whole value. */
			if (a->role[AN_V_INSPECT] == AN_ROLE_LOAD && a->size > VAST_INSPECT_SCRATCH)
				an_not_virtualizable(c, (int)f, a->loc,
				                     "addresses depend on a global access of %u bytes, "
				                     "more than the inspector checks (%d)",
				                     a->size, VAST_INSPECT_SCRATCH);
		}
		for (unsigned ai = 0; ai < p->naccesses; ai++) {
			an_access *a = &p->accesses[ai];
			if (k->reach[a->func] && a->role[AN_V_INSPECT] == AN_ROLE_LOAD &&
			    (k->acc_bits[ai] & written) && !an_load_sees_original(c, (int)f, ai, written))
				an_not_virtualizable(c, (int)f, a->loc, "%s",
				                     addr_dep ? "addresses depend on data the kernel writes"
				                              : "which accesses run depends on data the "
				                                "kernel writes");
		}
		/* The merge kernel runs after the kernel, on its output: a value
		 * it loads from a buffer the kernel writes may have changed, so
		 * it cannot be trusted to recompute the addresses written. */
		for (unsigned ai = 0; ai < p->naccesses; ai++) {
			an_access *a = &p->accesses[ai];
			if (k->reach[a->func] && a->role[AN_V_MERGE] == AN_ROLE_LOAD &&
			    (k->acc_bits[ai] & written))
				fn->merge_exact = 0;
		}
		if (!fn->virtualizable)
			an_warning_at(c, fn->reason_loc,
			                "kernel '%s' cannot be virtualized: %s; it runs natively "
			                "when its data fits", fn->name, fn->reason);
	}
}

static void free_ctx(an_ctx *c)
{
	for (unsigned i = 0; i < c->nnodes; i++) {
		free(c->nodes[i].kids);
		free(c->nodes[i].callee);
	}
	free(c->nodes);
	for (unsigned i = 0; i < c->nvars; i++)
		free(c->vars[i].name);
	free(c->vars);
	free(c->func_node);
	free(c->stmt_node);
	free(c->defs);
	free(c->bad);
	an_colmap_free(c);
	for (unsigned i = 0; i < c->npredef; i++) {
		free(c->predef[i].name);
		free(c->predef[i].value);
	}
	free(c->predef);
	free(c->ret_taint);
	free(c->fn_ctl_taint);
	free(c->store_taint);
	free(c->pointee_read);
	for (int v = 0; v < AN_NSLICED; v++)
		free(c->out_needed[v]);
	free(c->cls_memo);
	free(c->addr_taint);
	free(c->acc_node);
	if (c->kf) {
		for (unsigned f = 0; f < c->p->nfuncs; f++) {
			free(c->kf[f].pts);
			free(c->kf[f].ret);
			free(c->kf[f].reach);
			free(c->kf[f].acc_bits);
		}
		free(c->kf);
	}
	for (int v = 0; v < AN_NSLICED; v++)
		free(c->effectful[v]);
	if (c->tu)
		clang_disposeTranslationUnit(c->tu);
	if (c->index)
		clang_disposeIndex(c->index);
}

an_program *an_program_create(const char *path, const an_options *opt)
{
	an_program_impl *im = an_xcalloc(1, sizeof *im);
	an_program *p = &im->pub;
	an_ctx c = {0};
	char *std = NULL;
	c.p = p;
	c.path = path;
	c.caret = opt && opt->caret_diagnostics;
	p->path = an_xstrdup(path);
	p->source = read_file(path, &p->source_size);
	if (!p->source) {
		if (errno == ENOENT)
			an_diag_error((an_loc){0}, "no such file or directory: '%s'", path);
		else
			an_diag_error((an_loc){0}, "cannot read '%s': %s", path, strerror(errno));
		goto fail;
	}
	p->source_hash = vast_hash_bytes(VAST_HASH_SEED, p->source, p->source_size);
	p->cl_options = an_normalize_options(opt ? opt->cl_options : NULL);
	if (!an_preprocess(&c, path, opt, &std))
		goto fail;
	if (opt && opt->preprocess_only) {
		free(std);
		free_ctx(&c);
		return p;
	}
	if (!an_parse(&c, std))
		goto fail;
	an_build_model(&c);
	an_find_accesses(&c);
	an_points_to(&c);
	an_patterns(&c);
	an_slice(&c);
	an_finish_kernels(&c);
	an_items(&c);
	an_footprints(&c);
	if (c.errors)
		goto fail;
	im->kacc = an_xcalloc((size_t)p->nfuncs * p->naccesses + 1, sizeof *im->kacc);
	for (unsigned f = 0; f < p->nfuncs; f++)
		if (c.kf[f].acc_bits)
			memcpy(im->kacc + (size_t)f * p->naccesses, c.kf[f].acc_bits,
			       p->naccesses * sizeof *im->kacc);
	free(std);
	free_ctx(&c);
	return p;
fail:
	free(std);
	free_ctx(&c);
	an_program_destroy(p);
	return NULL;
}

void an_program_destroy(an_program *p)
{
	if (!p)
		return;
	an_program_impl *im = (an_program_impl *)p;
	for (unsigned f = 0; f < p->nfuncs; f++) {
		an_func *fn = &p->funcs[f];
		for (unsigned i = 0; i < fn->nparams; i++) {
			free(fn->params[i].name);
			free(fn->params[i].type);
			free(fn->params[i].elem_type);
		}
		free(fn->params);
		free(fn->name);
		free(fn->ret_type);
		free(fn->reason);
		an_footprints_free(fn);
	}
	free(p->funcs);
	for (unsigned a = 0; a < p->naccesses; a++)
		free(p->accesses[a].ptr_type);
	free(p->accesses);
	free(p->stmts);
	free(p->calls);
	for (unsigned i = 0; i < p->ndevmacros; i++) {
		free(p->devmacros[i].name);
		free(p->devmacros[i].value);
	}
	free(p->devmacros);
	for (unsigned i = 0; i < p->nincludes; i++)
		free(p->includes[i].path);
	free(p->includes);
	free(p->path);
	free(p->source);
	free(p->cl_options);
	free(p->text);
	free(p->cpp);
	for (unsigned i = 0; i < im->nnames; i++)
		free(im->names[i]);
	free(im->names);
	free(im->kacc);
	free(im);
}
