/* SPDX-License-Identifier: MIT */
/*
 * render.c - one function body rendered for one variant.
 *
 * The model decides, the renderer only spells (analysis.h, top comment).
 * For function f and variant v we fill an edit buffer with:
 *   - accesses rendered in place: every access in the paged and straight
 *     variants, the LOAD accesses in the inspector. Their
 *     address ADDR is `(ulong)&(E)` for p[i], *p, p->f;
 *     `(ulong)((P) + (size_t)(O) * vec)` for vloadN/vstoreN; `(ulong)(P)`
 *     for atomics, where E, P and O are
 *     the source of the expression, pointer and offset rendered with the
 *     edits nested inside them. In a paged kernel's own body, an access
 *     that reaches exactly one buffer parameter P translates with
 *     vast_trp(vast_c, ADDR, vast_run_P), the run its prologue loaded;
 *     the straight variant spells the same vast_trsp (one add, no check)
 *     and every other access vast_trs (the slot's run, no check);
 *   - calls to cloned helpers and to work-item functions renamed, with the
 *     context `vast_c` as first argument;
 * (`vast_` standing for the program's prefix, names.c, in every name we
 * add);
 *   - dropped statements (inspector) whose parent is rendered
 *     replaced by `{ ITEMS }` or `;`, and in a clone returning void each
 *     `return e;` by `{ ITEMS return; }`.
 * then render the body's range. Nesting is the edit buffer's business:
 * A[B[i]] wraps B[i] inside A's translated address. The inspector is the
 * one sliced variant (analysis.h's AN_V_INSPECT); the model's other slice,
 * AN_V_MERGE, was the merge kernel's, which is no longer generated
 * (docs/multi.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rewrite.h"

const char *const rw_variant_name[RW_NVARIANTS] = {"inspect", "paged",
                                                   "straight"};

static int inside(an_range outer, an_range in)
{
	return outer.begin <= in.begin && in.end <= outer.end;
}

int rw_returns_void(const an_program *p, int f, enum rw_variant v)
{
	const an_func *fn = &p->funcs[f];
	return v == RW_INSPECT && !fn->is_kernel && fn->cloned &&
	       !fn->ret_needed[AN_V_INSPECT] && fn->ret_type &&
	       strcmp(fn->ret_type, "void") != 0;
}

/* ADDR of access a, as pieces of the current edit. */
static void add_addr(rw_edits *ed, const an_access *a)
{
	switch (a->form) {
	case AN_FORM_SUBSCRIPT:
	case AN_FORM_DEREF:
	case AN_FORM_ARROW:
		rw_edit_lit(ed, "(ulong)&(");
		rw_edit_src(ed, a->expr.begin, a->expr.end);
		rw_edit_lit(ed, ")");
		break;
	case AN_FORM_VLOAD:
	case AN_FORM_VSTORE:
		rw_edit_lit(ed, "(ulong)((");
		rw_edit_src(ed, a->ptr.begin, a->ptr.end);
		rw_edit_lit(ed, ") + (size_t)(");
		rw_edit_src(ed, a->off.begin, a->off.end);
		rw_edit_litf(ed, ") * %u)", a->vec);
		break;
	case AN_FORM_ATOMIC:
		rw_edit_lit(ed, "(ulong)(");
		rw_edit_src(ed, a->ptr.begin, a->ptr.end);
		rw_edit_lit(ed, ")");
		break;
	}
}

int rw_hoists_run(const an_param *pa)
{
	return (pa->kind == VAST_PARAM_GLOBAL ||
	        pa->kind == VAST_PARAM_CONSTANT) && pa->name && *pa->name;
}

/* The buffer parameter whose run the paged kernel's prologue loaded
 * (kernels.c) and that access a of kernel fn can only reach, or NULL.
 * Helpers have no such local, and their bit sets are unions over callers. */
static const an_param *run_param(const an_func *fn, const an_access *a)
{
	unsigned b = a->params;
	if (!fn->is_kernel || b == 0 || (b & (b - 1)))
		return NULL;
	unsigned i = 0;
	while (!(b & 1u << i))
		i++;
	if (i >= fn->nparams || !rw_hoists_run(&fn->params[i]))
		return NULL;
	return &fn->params[i];
}

static void put_close(rw_edits *ed, const char *pfx, const an_param *run,
                      const char *close)
{
	if (run)
		rw_edit_litf(ed, ", %srun_%s", pfx, run->name);
	rw_edit_lit(ed, close);
}

/* How variant v reaches the bytes of an access: vast_load (inspector
 * LOAD), vast_tr (paged), vast_trs (straight); with the run
 * of the one parameter it reaches at hand, vast_trp (paged) or vast_trsp
 * (straight). */
static const char *translator(enum rw_variant v, const an_param *run)
{
	if (v == RW_INSPECT)
		return "load";
	if (v == RW_STRAIGHT)
		return run ? "trsp" : "trs";
	return run ? "trp" : "tr";
}

/* The access in place, through translator(v, run). */
static int add_access_inline(rw_edits *ed, const char *pfx, const an_access *a,
                             enum rw_variant v, const an_param *run)
{
	char open[3 * RW_PREFIX_MAX + 16], close[32];
	int load = v == RW_INSPECT;
	snprintf(open, sizeof open, "%s%s(%sc, ", pfx, translator(v, run), pfx);
	if (!a->ptr_type) {
		RW_INTERNAL("access [%u, %u) has no pointer type", a->expr.begin,
		            a->expr.end);
		return -1;
	}
	/* vast_run_NAME is spliced in by put_close: names have no bound. */
	if (load)
		snprintf(close, sizeof close, ", %u)", a->size);
	else
		snprintf(close, sizeof close, ")");
	switch (a->form) {
	case AN_FORM_SUBSCRIPT:
	case AN_FORM_DEREF:
	case AN_FORM_ARROW:
		rw_edit_begin(ed, a->expr.begin, a->expr.end);
		rw_edit_litf(ed, "(*(%s)%s", a->ptr_type, open);
		add_addr(ed, a);
		put_close(ed, pfx, run, close);
		rw_edit_lit(ed, ")");
		return 0;
	case AN_FORM_VLOAD:
	case AN_FORM_VSTORE:
		/* vloadN(O, P) -> vloadN(0, (PT)vast_tr(vast_c, ADDR)); the data
		 * argument of vstoreN stays where it is, before O. */
		if (a->off.end > a->ptr.begin || a->off.begin < a->expr.begin ||
		    a->ptr.end > a->expr.end) {
			RW_INTERNAL("vector access [%u, %u): offset and pointer "
			            "arguments out of order", a->expr.begin,
			            a->expr.end);
			return -1;
		}
		rw_edit_begin(ed, a->expr.begin, a->expr.end);
		rw_edit_src(ed, a->expr.begin, a->off.begin);
		rw_edit_lit(ed, "0");
		rw_edit_src(ed, a->off.end, a->ptr.begin);
		rw_edit_litf(ed, "(%s)%s", a->ptr_type, open);
		add_addr(ed, a);
		put_close(ed, pfx, run, close);
		rw_edit_src(ed, a->ptr.end, a->expr.end);
		return 0;
	case AN_FORM_ATOMIC:
		rw_edit_begin(ed, a->ptr.begin, a->ptr.end);
		rw_edit_litf(ed, "(%s)%s", a->ptr_type, open);
		add_addr(ed, a);
		put_close(ed, pfx, run, close);
		return 0;
	}
	RW_INTERNAL("access form %d", (int)a->form);
	return -1;
}

/* The work-item functions the straight kernel takes from the device
 * (prelude.cl, vast_st_*): it runs as N-D boxes of the original groups
 * with a global offset, so it has no ids rebuilt by vast_init_ids. The
 * sizes, offset and dimensions are the arguments', as in every variant. */
static int straight_own(enum an_builtin b)
{
	return b == AN_BI_GLOBAL_ID || b == AN_BI_LOCAL_ID || b == AN_BI_GROUP_ID ||
	       b == AN_BI_NUM_GROUPS || b == AN_BI_GLOBAL_LINEAR_ID || b == AN_BI_LOCAL_LINEAR_ID;
}

static void add_call_edits(rw_edits *ed, const char *pfx, const an_program *p,
                           const an_call *c, enum rw_variant v)
{
	if (c->target >= 0 && p->funcs[c->target].cloned) {
		rw_edit_begin(ed, c->callee.begin, c->callee.end);
		rw_edit_litf(ed, "%s%s_%s", pfx, rw_variant_name[v],
		             p->funcs[c->target].name);
	} else if (c->builtin != AN_BI_NONE) {
		rw_edit_begin(ed, c->callee.begin, c->callee.end);
		int own = v == RW_STRAIGHT && straight_own(c->builtin);
		rw_edit_litf(ed, "%s%s%.*s", pfx, own ? "st_" : "",
		             (int)(c->callee.end - c->callee.begin), p->text + c->callee.begin);
	} else {
		return;
	}
	rw_edit_begin(ed, c->lparen + 1, c->lparen + 1);
	rw_edit_litf(ed, c->nargs ? "%sc, " : "%sc", pfx);
}

/* ---- items of dropped statements ---- */

typedef struct item {
	an_range r;       /* the expression; orders items */
	const an_access *a; /* or */
	const an_call *c;
} item;

/* Does x lie inside the part of item y that y renders? */
static int in_rendered(const item *y, an_range x)
{
	if (y->c)
		return inside(y->c->expr, x);
	switch (y->a->form) {
	case AN_FORM_VLOAD:
	case AN_FORM_VSTORE:
		return inside(y->a->ptr, x) || inside(y->a->off, x);
	case AN_FORM_ATOMIC:
		return inside(y->a->ptr, x);
	default:
		return inside(y->a->expr, x);
	}
}

/* Outer first; at one range, accesses before calls, each in the order of
 * the program's arrays, so the order does not depend on qsort's. */
static int cmp_item(const void *pa, const void *pb)
{
	const item *a = pa, *b = pb;
	if (a->r.begin != b->r.begin)
		return a->r.begin < b->r.begin ? -1 : 1;
	if (a->r.end != b->r.end)
		return a->r.end > b->r.end ? -1 : 1;
	if (!a->c != !b->c)
		return a->c ? 1 : -1;
	const void *x = a->c ? (const void *)a->c : a->a, *y = b->c ? (const void *)b->c : b->a;
	return x < y ? -1 : x > y;
}

static int is_item_access(const an_access *a, int f)
{
	return a->func == f && a->role[AN_V_INSPECT] == AN_ROLE_TOUCH;
}

/* The items of function f in the inspector, sorted: *out (malloc'd,
 * caller frees); their number or -1. Made once per body, as every dropped
 * statement looking through all of the program's accesses was quadratic
 * in a kernel's statements. */
static int all_items(const an_program *p, int f, item **out)
{
	const unsigned av = AN_V_INSPECT;
	unsigned n = 0, k = 0;
	*out = NULL;
	for (unsigned i = 0; i < p->naccesses; i++)
		n += is_item_access(&p->accesses[i], f);
	for (unsigned i = 0; i < p->ncalls; i++)
		n += p->calls[i].func == f && p->calls[i].role[av] == AN_ROLE_EFFECT;
	if (n == 0)
		return 0;
	item *it = calloc(n, sizeof *it);
	if (!it) {
		RW_INTERNAL("out of memory");
		return -1;
	}
	for (unsigned i = 0; i < p->naccesses; i++)
		if (is_item_access(&p->accesses[i], f))
			it[k++] = (item){p->accesses[i].expr, &p->accesses[i], NULL};
	for (unsigned i = 0; i < p->ncalls; i++)
		if (p->calls[i].func == f && p->calls[i].role[av] == AN_ROLE_EFFECT)
			it[k++] = (item){p->calls[i].expr, NULL, &p->calls[i]};
	qsort(it, n, sizeof *it, cmp_item);
	*out = it;
	return (int)n;
}

/* The items of all (sorted, nall) inside range r, in source order, minus
 * those rendered as part of another item, copied to sel; stk is room for
 * as many indices. Their number. */
static unsigned collect_items(const item *all, unsigned nall, an_range r, item *sel,
                              unsigned *stk)
{
	unsigned lo = 0, hi = nall, k = 0, nstk = 0;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (all[mid].r.begin < r.begin)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Sorted outer first: only an earlier item can hold item i (an
	 * identical range counts as held, so it is rendered once). An item
	 * held by a held one is held by that one's holder too, so only the
	 * kept items are asked, and of those only the ones not ending before
	 * item i begins (stk, innermost last). */
	for (unsigned i = lo; i < nall && all[i].r.begin <= r.end; i++) {
		if (!inside(r, all[i].r))
			continue;
		while (nstk && sel[stk[nstk - 1]].r.end < all[i].r.begin)
			nstk--;
		int nested = 0;
		for (unsigned j = 0; j < nstk && !nested; j++)
			nested = in_rendered(&sel[stk[j]], all[i].r);
		if (!nested) {
			stk[nstk++] = k;
			sel[k++] = all[i];
		}
	}
	return k;
}

static void add_item(rw_edits *ed, const char *pfx, const item *x)
{
	if (x->c) {
		rw_edit_lit(ed, "(void)");
		rw_edit_src(ed, x->c->expr.begin, x->c->expr.end);
		rw_edit_lit(ed, "; ");
		return;
	}
	rw_edit_litf(ed, "%stouch(%sc, ", pfx, pfx);
	add_addr(ed, x->a);
	rw_edit_litf(ed, ", %u); ", x->a->size);
}

/* `return;` or `return e;`: does it carry a value? */
static int returns_value(const an_program *p, const an_stmt *s)
{
	unsigned i = s->range.begin, e = s->range.end;
	if (e - i >= 6 && !memcmp(p->text + i, "return", 6))
		i += 6;
	for (; i < e; i++) {
		char ch = p->text[i];
		if (ch == ';')
			return 0;
		if (ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r')
			return 1;
	}
	return 0;
}

/* Is statement s rendered in variant v (itself and all its parents)? */
static int is_rendered(const an_program *p, int s, unsigned av, int body)
{
	for (; s >= 0; s = p->stmts[s].parent) {
		if (s == body)
			return 1;
		if (!p->stmts[s].keep[av])
			return 0;
	}
	return 1;
}

/* The inspector's dropped statements. */
static int add_stmt_edits(rw_edits *ed, const char *pfx, const an_program *p,
                          int f)
{
	const an_func *fn = &p->funcs[f];
	const unsigned av = AN_V_INSPECT;
	int rvoid = rw_returns_void(p, f, RW_INSPECT);
	item *all, *sel = NULL;
	unsigned *stk = NULL;
	int nall = all_items(p, f, &all), ret = -1;
	if (nall < 0)
		return -1;
	if (nall > 0) {
		sel = calloc((size_t)nall, sizeof *sel);
		stk = calloc((size_t)nall, sizeof *stk);
		if (!sel || !stk) {
			RW_INTERNAL("out of memory");
			goto out;
		}
	}
	for (unsigned i = 0; i < p->nstmts; i++) {
		const an_stmt *s = &p->stmts[i];
		if (s->func != f || (int)i == fn->body_stmt)
			continue;
		if (!is_rendered(p, s->parent, av, fn->body_stmt))
			continue;
		int rv = rvoid && s->kind == AN_STMT_RETURN &&
		         returns_value(p, s);
		if (!rv && s->keep[av])
			continue;
		unsigned n = collect_items(all, (unsigned)nall, s->range, sel, stk);
		rw_edit_begin(ed, s->range.begin, s->range.end);
		if (n > 0 || rv)
			rw_edit_lit(ed, "{ ");
		for (unsigned k = 0; k < n; k++)
			add_item(ed, pfx, &sel[k]);
		rw_edit_lit(ed, rv ? "return; }" : n > 0 ? "}" : ";");
	}
	ret = 0;
out:
	free(all);
	free(sel);
	free(stk);
	return ret;
}

int rw_render_body(const an_program *p, const char *pfx, int f,
                   enum rw_variant v, int braces, rw_buf *out)
{
	const an_func *fn = &p->funcs[f];
	int ret = -1;
	rw_edits *ed = rw_edits_create(p->text, p->len);
	if (!ed)
		return -1;
	/* The straight kernel with pointers into the frames translates
	 * nothing (kernels.c). */
	int untranslated = v == RW_STRAIGHT && rw_straight_physical(p);
	for (unsigned i = 0; i < p->naccesses && !untranslated; i++) {
		const an_access *a = &p->accesses[i];
		if (a->func != f)
			continue;
		if (rw_runs_all(v)) {
			if (add_access_inline(ed, pfx, a, v, run_param(fn, a)) < 0)
				goto out;
		} else if (a->role[AN_V_INSPECT] == AN_ROLE_LOAD) {
			if (add_access_inline(ed, pfx, a, v, NULL) < 0)
				goto out;
		}
	}
	for (unsigned i = 0; i < p->ncalls; i++)
		if (p->calls[i].func == f)
			add_call_edits(ed, pfx, p, &p->calls[i], v);
	if (v == RW_INSPECT && add_stmt_edits(ed, pfx, p, f) < 0)
		goto out;
	/* The braces may be spelled as the digraphs <% and %> (C99 6.4.6p3),
	 * which the preprocessor keeps as written. */
	int some = fn->body.end > fn->body.begin;
	unsigned open = some && p->text[fn->body.begin] == '<' ? 2 : 1;
	unsigned close = some && p->text[fn->body.end - 1] == '>' ? 2 : 1;
	if (braces)
		ret = rw_edits_render(ed, fn->body.begin, fn->body.end, out);
	else if (fn->body.end - fn->body.begin >= open + close)
		ret = rw_edits_render(ed, fn->body.begin + open, fn->body.end - close, out);
	else
		RW_INTERNAL("function '%s' has no body", fn->name);
out:
	rw_edits_destroy(ed);
	return ret;
}
