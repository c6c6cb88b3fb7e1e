/* SPDX-License-Identifier: MIT */
/*
 * footprint.c - per kernel and access, the descriptor of the bytes it
 * touches (vast_footprint in vast/stub.h, docs/footprints.md).
 *
 * The byte offset of an access from its parameter's base is built as an
 * affine form (a sum of terms coef * symbols * variable) by one walk down
 * the address expression: pointer arithmetic scales by the pointee's size
 * (C99 6.5.6), a subscript by the element's, a member adds its offset;
 * get_global_id(d) is get_group_id(d) * get_local_size(d) +
 * get_local_id(d) + get_global_offset(d) (OpenCL C 6.15.1, uniform
 * work-groups as in OpenCL 1.2); a variable never assigned after its
 * declaration stands for its initializer, one assigned once by a
 * statement of its function's body for that value after it
 * (assigned_once); an integer scalar argument never assigned is a symbol;
 * the counter of an enclosing `for (i = lo; i < hi; i += step)` with no
 * definition in that loop but in its header is, inside it, a variable
 * ranging over [lo, hi) (hi may be a quotient by a constant, `t < wA /
 * 16`: the hull and a guard, see loop_form). A product is affine when
 * one side has no variable. clamp(e, lo, hi), min(e, hi) and max(e, lo)
 * with fixed bounds are a new variable over e's hull for a work-group,
 * guarded by the bounds (a superset, see bound_form). An access in a
 * helper called from one place at each level is described in the
 * kernel's terms: a parameter stands for its argument, and the
 * statements around the calls are around the access (call_path).
 * Anything else (division elsewhere, a value loaded from memory, another
 * call, a while loop's counter, a helper called from several places)
 * leaves the access without a descriptor, with the reason.
 *
 * The conditions around the access become guards where they are affine
 * comparisons: the `if`s around it (their then or else arm) and the
 * `if (c) return;` statements at the top of the kernel before it. Any
 * other condition (a ?: or && arm, a while loop, a loop that is not of
 * the form above, a non-affine test, a return, break or goto elsewhere)
 * only ever removes points, so the descriptor is still a superset and is
 * marked inexact; must-write needs exact.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* Helpers nested deeper than this between a kernel and an access leave
 * it without a descriptor. */
#define FP_MAX_CALLS 8

/* Facts about the program that every access's descriptor asks for,
 * gathered once (an_footprints) so that asking costs no walk: per
 * function, the calls into it from the functions the kernel reaches (the
 * count and the node of one) and whether a jump in it may skip part of it
 * or it has a goto; per variable, the node of its one assignment (the
 * last one seen: assigned_once reads it where ndefs is 1). */
typedef struct fp_facts {
	int *ncallers, *caller;
	unsigned char *skips; /* a return, break, continue or goto other than
	                         a return ending the function */
	unsigned char *has_goto;
	int *def1;
} fp_facts;

typedef struct fp_form {
	vast_fp_term *t;
	unsigned n, cap;
} fp_form;

/* The state of one access's descriptor. */
typedef struct fp_state {
	an_ctx *c;
	int kern;
	int loopvar[VAST_FP_MAX_LOOPS]; /* the loops' counters, outermost first;
	                                 -1: a clamp()'s, min()'s or max()'s value */
	int loopnode[VAST_FP_MAX_LOOPS]; /* their for statements' nodes */
	/* the calls from the kernel down to the access's helper: helper
	 * path_func[i] is entered by call node path_call[i] (call_path) */
	int path_func[FP_MAX_CALLS], path_call[FP_MAX_CALLS];
	unsigned npath;
	const fp_facts *facts;
	unsigned nloops, visible;     /* counters usable in the form being built */
	fp_form *lo, *hi;             /* the loops' bounds (describe's fp_build) */
	long long *step;
	fp_form **g;                  /* the guards, and their count */
	unsigned *ng, *capg;
	fp_form checks[16];           /* forms that must not wrap, and their widths */
	int check_bits[16];
	unsigned nchecks;
	fp_form wide[16];             /* bound_form()'s checks, over the whole range */
	int wide_bits[16];
	unsigned nwide;
	int in_offset;                /* building the offset, where bound_form() may run */
	int inexact;                  /* a clamp(), min() or max() made the offset a superset */
	char why[200];                /* the first reason it is not affine */
} fp_state;

static int fail(fp_state *s, int n, const char *fmt, const char *name)
{
	if (!s->why[0]) {
		char msg[160];
		snprintf(msg, sizeof msg, fmt, name ? name : "");
		an_loc l = an_node_loc(s->c, n);
		snprintf(s->why, sizeof s->why, "%s at line %u", msg, l.line);
	}
	return 0;
}

static void form_free(fp_form *f)
{
	free(f->t);
	f->t = NULL;
	f->n = f->cap = 0;
}

static int same_syms(const vast_fp_term *a, const vast_fp_term *b)
{
	return !memcmp(a->sym, b->sym, sizeof a->sym);
}

/* Add a term, merging it with one of the same names; symbols sorted. */
static void add_term(fp_form *f, vast_fp_term t)
{
	for (int i = 0; i < VAST_FP_MAX_SYMS; i++)
		for (int j = i + 1; j < VAST_FP_MAX_SYMS; j++)
			if (t.sym[j] > t.sym[i]) {
				unsigned x = t.sym[i];
				t.sym[i] = t.sym[j];
				t.sym[j] = x;
			}
	if (!t.coef)
		return;
	for (unsigned i = 0; i < f->n; i++)
		if (f->t[i].var == t.var && same_syms(&f->t[i], &t)) {
			f->t[i].coef += t.coef;
			if (!f->t[i].coef)
				f->t[i] = f->t[--f->n];
			return;
		}
	*AN_PUSH(f->t, f->n, f->cap) = t;
}

static vast_fp_term name_term(long long coef, unsigned var, unsigned sym)
{
	vast_fp_term t = { coef, var, { sym, VAST_FP_ONE, VAST_FP_ONE } };
	return t;
}

static void add_form(fp_form *dst, const fp_form *src, long long scale)
{
	for (unsigned i = 0; i < src->n; i++) {
		vast_fp_term t = src->t[i];
		t.coef *= scale;
		add_term(dst, t);
	}
}

static int same_form(const fp_form *a, const fp_form *b)
{
	if (a->n != b->n)
		return 0;
	for (unsigned i = 0; i < a->n; i++) {
		unsigned j = 0;
		while (j < b->n && (b->t[j].var != a->t[i].var || !same_syms(&b->t[j], &a->t[i]) ||
		                    b->t[j].coef != a->t[i].coef))
			j++;
		if (j == b->n)
			return 0;
	}
	return 1;
}

static int has_names(const fp_form *f)
{
	for (unsigned i = 0; i < f->n; i++)
		if (f->t[i].var != VAST_FP_ONE || f->t[i].sym[0] != VAST_FP_ONE)
			return 1;
	return 0;
}

static int has_var(const fp_form *f)
{
	for (unsigned i = 0; i < f->n; i++)
		if (f->t[i].var != VAST_FP_ONE)
			return 1;
	return 0;
}

/* a * b, a without variables; 0 when a term would need more symbols. */
static int mul_form(fp_form *out, const fp_form *a, const fp_form *b)
{
	for (unsigned i = 0; i < a->n; i++)
		for (unsigned j = 0; j < b->n; j++) {
			vast_fp_term t = b->t[j];
			t.coef *= a->t[i].coef;
			unsigned k = 0;
			while (k < VAST_FP_MAX_SYMS && t.sym[k] != VAST_FP_ONE)
				k++;
			for (unsigned m = 0; m < VAST_FP_MAX_SYMS; m++) {
				if (a->t[i].sym[m] == VAST_FP_ONE)
					continue;
				if (k == VAST_FP_MAX_SYMS)
					return 0;
				t.sym[k++] = a->t[i].sym[m];
			}
			add_term(out, t);
		}
	return 1;
}

static int int_type(CXType t)
{
	enum CXTypeKind k = clang_getCanonicalType(t).kind;
	return (k >= CXType_Bool && k <= CXType_Int128) || k == CXType_Enum;
}

static int unsigned_type(CXType t)
{
	enum CXTypeKind k = clang_getCanonicalType(t).kind;
	return k >= CXType_Bool && k <= CXType_UInt128;
}

/* The value of an integer constant expression node. */
static int const_value(an_ctx *c, int n, long long *v)
{
	n = an_strip(c, n);
	if (n < 0)
		return 0;
	CXEvalResult r = clang_Cursor_Evaluate(c->nodes[n].cur);
	if (!r)
		return 0;
	int ok = clang_EvalResult_getKind(r) == CXEval_Int;
	if (ok)
		*v = clang_EvalResult_getAsLongLong(r);
	clang_EvalResult_dispose(r);
	return ok;
}

static int int_form(fp_state *s, int n, fp_form *out, int depth);

/* Is node n inside the subtree of node m, below m itself? */
static int inside(an_ctx *c, int m, int n)
{
	return m >= 0 && n > m && n <= c->nodes[m].last;
}

/* The body of function f, or -1. */
static int func_body(an_ctx *c, int f)
{
	int fnode = c->func_node[f];
	for (unsigned i = 0; i < c->nodes[fnode].nkids; i++)
		if (c->nodes[c->nodes[fnode].kids[i]].kind == CXCursor_CompoundStmt)
			return c->nodes[fnode].kids[i];
	return -1;
}

/* The argument node the access's call path passes to parameter i of
 * helper f, or -1: a helper's parameter that is never assigned stands
 * for it, so the helper's offsets are the caller's (C99 6.5.2.2p4: the
 * argument, converted to the parameter's type, is its value). */
static int call_arg(fp_state *s, int f, int i)
{
	for (unsigned k = 0; k < s->npath; k++)
		if (s->path_func[k] == f) {
			an_node *x = &s->c->nodes[s->path_call[k]];
			return i >= 0 && (unsigned)i + 1 < x->nkids ? x->kids[i + 1] : -1;
		}
	return -1;
}

/* A variable assigned once after its declaration, by a statement `v = e;`
 * that stands in its function's body (in no loop, if or block: it runs
 * once, before everything after it), in a function with no goto (SHOC's
 * FFT moves its buffer parameter once, `work = work + blockIdx;`, and
 * loads through it after). A reference after the statement reads e; one
 * before it or inside it (e's own `work`) the variable's first value.
 * Returns e, 0 for the first value, -1 when v is not of that kind. */
static int assigned_once(const fp_state *s, int vi, int ref)
{
	an_ctx *c = s->c;
	an_var *v = &c->vars[vi];
	if (v->ndefs != 1 || v->addr_taken || v->is_array || v->func < 0 ||
	    s->facts->has_goto[v->func])
		return -1;
	int body = func_body(c, v->func), dn = s->facts->def1[vi];
	if (body < 0 || dn < 0 || c->nodes[dn].parent != body ||
	    c->nodes[dn].kind != CXCursor_BinaryOperator || c->nodes[dn].op != CXBinaryOperator_Assign ||
	    c->nodes[dn].nkids != 2)
		return -1;
	return ref > c->nodes[dn].last ? c->nodes[dn].kids[1] : 0;
}

/* A work-item function: its dimension must be a constant below 3. */
static int builtin_form(fp_state *s, int n, fp_form *out)
{
	an_ctx *c = s->c;
	an_node *x = &c->nodes[n];
	enum an_builtin bi = c->p->calls[x->call].builtin;
	long long d;
	if (x->nkids != 2 || !const_value(c, x->kids[1], &d) || d < 0 || d > 2)
		return fail(s, n, "a work-item function of a dimension that is not a constant", NULL);
	switch (bi) {
	case AN_BI_GLOBAL_ID: {
		vast_fp_term t = name_term(1, VAST_FP_NAME(VAST_FP_GROUP, d),
		                           VAST_FP_NAME(VAST_FP_LOCAL_SIZE, d));
		add_term(out, t);
		add_term(out, name_term(1, VAST_FP_NAME(VAST_FP_LOCAL, d), VAST_FP_ONE));
		add_term(out, name_term(1, VAST_FP_ONE, VAST_FP_NAME(VAST_FP_GLOBAL_OFFSET, d)));
		return 1;
	}
	case AN_BI_LOCAL_ID:
		add_term(out, name_term(1, VAST_FP_NAME(VAST_FP_LOCAL, d), VAST_FP_ONE));
		return 1;
	case AN_BI_GROUP_ID:
		add_term(out, name_term(1, VAST_FP_NAME(VAST_FP_GROUP, d), VAST_FP_ONE));
		return 1;
	case AN_BI_LOCAL_SIZE:
	case AN_BI_ENQUEUED_LOCAL_SIZE:
		add_term(out, name_term(1, VAST_FP_ONE, VAST_FP_NAME(VAST_FP_LOCAL_SIZE, d)));
		return 1;
	case AN_BI_GLOBAL_SIZE:
		add_term(out, name_term(1, VAST_FP_ONE, VAST_FP_NAME(VAST_FP_GLOBAL_SIZE, d)));
		return 1;
	case AN_BI_NUM_GROUPS:
		add_term(out, name_term(1, VAST_FP_ONE, VAST_FP_NAME(VAST_FP_NUM_GROUPS, d)));
		return 1;
	case AN_BI_GLOBAL_OFFSET:
		add_term(out, name_term(1, VAST_FP_ONE, VAST_FP_NAME(VAST_FP_GLOBAL_OFFSET, d)));
		return 1;
	default:
		return fail(s, n, "a linear work-item id", NULL);
	}
}

static int var_form(fp_state *s, int n, fp_form *out, int depth)
{
	an_ctx *c = s->c;
	int vi = c->nodes[n].var;
	an_var *v = &c->vars[vi];
	/* a counter only inside its loop: a counter of several loops one
	 * after the other (counter_of) is another loop's, or their last
	 * value, elsewhere */
	for (unsigned k = 0; k < s->visible; k++)
		if (s->loopvar[k] == vi && inside(c, s->loopnode[k], n)) {
			add_term(out, name_term(1, VAST_FP_NAME(VAST_FP_LOOP, k), VAST_FP_ONE));
			return 1;
		}
	if (v->func < 0)
		return fail(s, n, "program-scope variable '%s'", v->name);
	if (v->addr_taken || v->is_array)
		return fail(s, n, "'%s' lives in memory (an array, or its address is taken)", v->name);
	if (v->ndefs) {
		int e = assigned_once(s, vi, n);
		if (e < 0)
			return fail(s, n,
			            "'%s' changes and is not the counter of a for loop around the access",
			            v->name);
		if (e > 0)
			return int_form(s, e, out, depth + 1);
	}
	if (v->param >= 0 && v->func != s->kern) {
		int e = call_arg(s, v->func, v->param);
		if (e < 0)
			return fail(s, n, "parameter '%s' of a helper not on the call path", v->name);
		return int_form(s, e, out, depth + 1);
	}
	if (v->param >= 0) {
		an_param *pa = &c->p->funcs[v->func].params[v->param];
		if (pa->kind != VAST_PARAM_SCALAR || v->param > 255)
			return fail(s, n, "'%s' is not a scalar argument of the kernel", v->name);
		add_term(out, name_term(1, VAST_FP_ONE, VAST_FP_NAME(VAST_FP_ARG, v->param)));
		return 1;
	}
	int e = v->node >= 0 && v->has_init ? an_var_init(c, v->node) : -1;
	if (e < 0)
		return fail(s, n, "'%s' has no initializer", v->name);
	return int_form(s, e, out, depth + 1);
}

static int node_form(fp_state *s, int n, fp_form *out, int depth);
static int bound_form(fp_state *s, int n, const char *fn, fp_form *out, int depth);

/* Is f a scalar argument alone? The host takes only a value that reads
 * the same signed and unsigned (fprows.c, arg_value): converting it
 * between int and uint keeps it. */
static int arg_alone(const fp_form *f)
{
	return f->n == 1 && f->t[0].coef == 1 && f->t[0].var == VAST_FP_ONE &&
	       VAST_FP_KIND(f->t[0].sym[0]) == VAST_FP_ARG && f->t[0].sym[1] == VAST_FP_ONE;
}

/* The form of integer expression n, and a check where its value may
 * wrap: an unsigned operation, or a conversion, narrower than 64 bits. */
static int int_form(fp_state *s, int n, fp_form *out, int depth)
{
	an_ctx *c = s->c;
	fp_form f = {0};
	int ok = node_form(s, n, &f, depth);
	an_node *x = ok ? &c->nodes[n] : NULL;
	CXType t = ok ? an_node_type(c, n) : (CXType){0};
	long long bits = ok ? clang_Type_getSizeOf(t) * 8 : 64;
	/* a conversion to a narrower type, or to one of the same width and
	 * the other signedness (an int argument to a uint parameter): both
	 * keep the value only inside the new type's range (C99 6.3.1.3) */
	CXType from = x && (x->kind == CXCursor_CStyleCastExpr || x->kind == CXCursor_UnexposedExpr) &&
	                      x->nkids
	                      ? an_node_type(c, x->kids[x->nkids - 1])
	                      : (CXType){0};
	long long from_bits = from.kind != CXType_Invalid ? clang_Type_getSizeOf(from) * 8 : 0;
	int conv = from_bits > bits ||
	           (from_bits == bits && int_type(from) && unsigned_type(from) != unsigned_type(t) &&
	            !arg_alone(&f));
	int arith = x && unsigned_type(t) &&
	            (x->kind == CXCursor_BinaryOperator || x->kind == CXCursor_UnaryOperator);
	int bits_c = ok && unsigned_type(t) ? (int)bits : -(int)bits, seen = 0;
	for (unsigned i = 0; i < s->nchecks; i++)
		seen |= s->check_bits[i] == bits_c && same_form(&s->checks[i], &f);
	if (ok && bits > 0 && bits < 64 && (conv || arith) && has_names(&f) && !seen) {
		if (s->nchecks == 16) {
			ok = fail(s, n, "more than 16 operations that may wrap", NULL);
		} else {
			fp_form *k = &s->checks[s->nchecks];
			memset(k, 0, sizeof *k);
			add_form(k, &f, 1);
			s->check_bits[s->nchecks++] = bits_c;
		}
	}
	add_form(out, &f, 1);
	form_free(&f);
	return ok;
}

static int node_form(fp_state *s, int n, fp_form *out, int depth)
{
	an_ctx *c = s->c;
	if (n < 0 || depth > 64)
		return fail(s, n < 0 ? 0 : n, "an expression too deep", NULL);
	an_node *x = &c->nodes[n];
	if (!int_type(an_node_type(c, n)))
		return fail(s, n, "an offset that is not an integer", NULL);
	long long v;
	switch (x->kind) {
	case CXCursor_IntegerLiteral:
	case CXCursor_CharacterLiteral:
	case CXCursor_UnaryExpr:
		if (!const_value(c, n, &v))
			return fail(s, n, "a constant vastcc cannot evaluate", NULL);
		add_term(out, name_term(v, VAST_FP_ONE, VAST_FP_ONE));
		return 1;
	case CXCursor_DeclRefExpr:
		if (x->var < 0) {
			if (!const_value(c, n, &v)) /* an enumerator */
				return fail(s, n, "a name vastcc cannot evaluate", NULL);
			add_term(out, name_term(v, VAST_FP_ONE, VAST_FP_ONE));
			return 1;
		}
		return var_form(s, n, out, depth);
	case CXCursor_ParenExpr:
	case CXCursor_UnexposedExpr:
	case CXCursor_CStyleCastExpr:
		if (!x->nkids)
			return fail(s, n, "an expression vastcc cannot follow", NULL);
		return int_form(s, x->kids[x->nkids - 1], out, depth + 1);
	case CXCursor_CallExpr:
		if (x->fn_ref < 0 && x->callee &&
		    (!strcmp(x->callee, "clamp") || !strcmp(x->callee, "min") ||
		     !strcmp(x->callee, "max")))
			return bound_form(s, n, x->callee, out, depth); /* OpenCL C builtins */
		if (x->call < 0 || c->p->calls[x->call].builtin == AN_BI_NONE)
			return fail(s, n, "a function call", NULL);
		return builtin_form(s, n, out);
	case CXCursor_UnaryOperator:
		if (x->nkids == 1 && (x->op == CXUnaryOperator_Plus || x->op == CXUnaryOperator_Minus)) {
			fp_form a = {0};
			int ok = int_form(s, x->kids[0], &a, depth + 1);
			add_form(out, &a, x->op == CXUnaryOperator_Minus ? -1 : 1);
			form_free(&a);
			return ok;
		}
		return fail(s, n, "an operator that is not affine", NULL);
	case CXCursor_BinaryOperator: {
		if (x->nkids != 2)
			return fail(s, n, "an expression vastcc cannot follow", NULL);
		fp_form a = {0}, b = {0};
		int ok = int_form(s, x->kids[0], &a, depth + 1) &&
		         int_form(s, x->kids[1], &b, depth + 1);
		switch (ok ? x->op : -1) {
		case CXBinaryOperator_Add:
		case CXBinaryOperator_Sub:
			add_form(out, &a, 1);
			add_form(out, &b, x->op == CXBinaryOperator_Sub ? -1 : 1);
			break;
		case CXBinaryOperator_Mul:
			if (has_var(&a) && has_var(&b))
				ok = fail(s, n, "a product of two values that vary", NULL);
			else if (!mul_form(out, has_var(&a) ? &b : &a, has_var(&a) ? &a : &b))
				ok = fail(s, n, "a product of more than 3 symbols", NULL);
			break;
		case CXBinaryOperator_Shl:
			if (!const_value(c, x->kids[1], &v) || v < 0 || v > 62)
				ok = fail(s, n, "a shift by an amount that is not a constant", NULL);
			else
				add_form(out, &a, 1ll << v);
			break;
		case -1:
			break;
		default:
			ok = fail(s, n, "an operator that is not affine (division, modulo, bit operation)",
			          NULL);
		}
		form_free(&a);
		form_free(&b);
		return ok;
	}
	default:
		if (x->access >= 0)
			return fail(s, n, "a value loaded from memory", NULL);
		return fail(s, n, "an expression that is not affine", NULL);
	}
}

/* ---- clamp(), min(), max() ------------------------------------------ */

static int nonneg(fp_state *s, const fp_form *f);

/* The least (top 0) or greatest (top 1) value of form f for a fixed
 * work-group: local ids and loop counters at their extremes, group ids
 * and symbols kept. 0 where a term's sign is unknown. */
static int form_bound(fp_state *s, const fp_form *f, int top, fp_form *out, int depth)
{
	if (depth > VAST_FP_MAX_LOOPS)
		return 0;
	for (unsigned i = 0; i < f->n; i++) {
		vast_fp_term t = f->t[i];
		unsigned kind = VAST_FP_KIND(t.var), d = VAST_FP_INDEX(t.var);
		if (t.var == VAST_FP_ONE || kind == VAST_FP_GROUP) {
			add_term(out, t);
			continue;
		}
		if (t.sym[0] != VAST_FP_ONE) /* a symbol of unknown sign */
			return 0;
		int at_top = (t.coef > 0) == top;
		if (kind == VAST_FP_LOCAL) { /* in [0, lsz - 1] */
			if (at_top) {
				add_term(out, name_term(t.coef, VAST_FP_ONE,
				                        VAST_FP_NAME(VAST_FP_LOCAL_SIZE, d)));
				add_term(out, name_term(-t.coef, VAST_FP_ONE, VAST_FP_ONE));
			}
			continue;
		}
		if (kind != VAST_FP_LOOP || d >= s->nloops)
			return 0;
		fp_form b = {0}; /* counter in [lo, hi - 1] */
		int ok = form_bound(s, at_top ? &s->hi[d] : &s->lo[d], at_top, &b, depth + 1);
		if (at_top)
			add_term(&b, name_term(-1, VAST_FP_ONE, VAST_FP_ONE));
		add_form(out, &b, t.coef);
		form_free(&b);
		if (!ok)
			return 0;
	}
	return 1;
}

/* Bounds [lo, hi] of integer expression n for a fixed work-group, as
 * forms over group ids and symbols: sums and differences of signed
 * values, `a % d` (in [0, d - 1] for a >= 0, C99 6.5.5p6), `a / d` where
 * a's bounds are constants, and any affine expression. */
static int range_form(fp_state *s, int n, fp_form *lo, fp_form *hi, int depth)
{
	an_ctx *c = s->c;
	while (an_is_cast_like(c, n) && clang_equalTypes(an_node_type(c, n),
	                                                 an_node_type(c, c->nodes[n].kids[0])))
		n = c->nodes[n].kids[0];
	an_node *x = &c->nodes[n];
	long long d;
	if (depth > 64)
		return fail(s, n, "an expression too deep", NULL);
	int sgn = !unsigned_type(an_node_type(c, n));
	if (x->kind == CXCursor_BinaryOperator && x->nkids == 2 && sgn &&
	    (x->op == CXBinaryOperator_Add || x->op == CXBinaryOperator_Sub)) {
		fp_form alo = {0}, ahi = {0}, blo = {0}, bhi = {0};
		int sub = x->op == CXBinaryOperator_Sub;
		int ok = range_form(s, x->kids[0], &alo, &ahi, depth + 1) &&
		         range_form(s, x->kids[1], &blo, &bhi, depth + 1);
		add_form(lo, &alo, 1);
		add_form(lo, sub ? &bhi : &blo, sub ? -1 : 1);
		add_form(hi, &ahi, 1);
		add_form(hi, sub ? &blo : &bhi, sub ? -1 : 1);
		form_free(&alo);
		form_free(&ahi);
		form_free(&blo);
		form_free(&bhi);
		return ok;
	}
	if (x->kind == CXCursor_BinaryOperator && x->nkids == 2 && sgn &&
	    (x->op == CXBinaryOperator_Rem || x->op == CXBinaryOperator_Div) &&
	    const_value(c, x->kids[1], &d) && d > 0) {
		fp_form alo = {0}, ahi = {0};
		int ok = range_form(s, x->kids[0], &alo, &ahi, depth + 1) && nonneg(s, &alo);
		if (ok && x->op == CXBinaryOperator_Rem) {
			add_term(hi, name_term(d - 1, VAST_FP_ONE, VAST_FP_ONE));
		} else if (ok && !has_names(&alo) && !has_names(&ahi)) {
			add_term(lo, name_term(alo.n ? alo.t[0].coef / d : 0, VAST_FP_ONE, VAST_FP_ONE));
			add_term(hi, name_term(ahi.n ? ahi.t[0].coef / d : 0, VAST_FP_ONE, VAST_FP_ONE));
		} else if (ok) {
			ok = fail(s, n, "a quotient of a value with bounds that are not constants", NULL);
		}
		form_free(&alo);
		form_free(&ahi);
		return ok || fail(s, n, "a division or modulo of a value that may be negative", NULL);
	}
	fp_form f = {0};
	int ok = int_form(s, n, &f, depth + 1);
	if (ok && !(form_bound(s, &f, 0, lo, 0) && form_bound(s, &f, 1, hi, 0)))
		ok = fail(s, n, "a value whose bounds vastcc cannot tell (a symbol of unknown sign)",
		          NULL);
	form_free(&f);
	return ok;
}

/* Whether a value with bounds [lo, hi] for a work-group is fixed for the
 * launch: a form of symbols and constants alone. */
static int fixed(const fp_form *lo, const fp_form *hi)
{
	return !has_var(lo) && same_form(lo, hi);
}

/* Whether the guards already keep e within the bounds given (lo and hi
 * may be NULL: infinite), each bound's guard being the same form: under
 * `if (x < dx)`, min(x, dx - 1) is x. Guards hold wherever the access
 * runs, so there the call is e itself, added to out, exactly. */
static int within_guards(fp_state *s, int e, const fp_form *lo, const fp_form *hi,
                         fp_form *out, int depth)
{
	unsigned first = s->nchecks;
	int had_why = s->why[0] != 0;
	fp_form f = {0};
	int ok = int_form(s, e, &f, depth + 1);
	for (int side = 0; ok && side < 2; side++) { /* e - lo >= 0, hi - e >= 0 */
		const fp_form *b = side ? hi : lo;
		if (!b)
			continue;
		fp_form q = {0};
		add_form(&q, b, side ? 1 : -1);
		add_form(&q, &f, side ? -1 : 1);
		int seen = 0;
		for (unsigned i = 0; i < *s->ng; i++)
			seen |= same_form(&(*s->g)[i], &q);
		form_free(&q);
		ok = seen;
	}
	if (ok) {
		add_form(out, &f, 1);
	} else { /* e's checks, if any, are the hull's (bound_form) */
		while (s->nchecks > first)
			form_free(&s->checks[--s->nchecks]);
		if (!had_why)
			s->why[0] = 0;
	}
	form_free(&f);
	return ok;
}

/* The value of clamp(e, lo, hi), min(e, hi) or max(e, lo) (OpenCL C
 * 6.15.3 and 6.15.4, integer arguments) with lo and hi fixed for the
 * launch, either order for min() and max(): a new variable u, in the hull
 * [emin, emax] of e over the work-group, with the guards lo <= u and
 * u <= hi of the bounds given (a missing one is infinite). That is a
 * superset of the call's values only where the hull meets [lo, hi] (e
 * below lo gives lo, which is then in both; lo > hi is undefined): the
 * forms emax - lo, hi - emin and hi - lo, of the bounds given, must be
 * >= 0 over the whole range, else the host plans the launch with the
 * inspector. A work-group wholly past a bound would read the bound alone,
 * outside its hull: that check refuses it. The offset becomes inexact. */
static int bound_form(fp_state *s, int n, const char *fn, fp_form *out, int depth)
{
	an_node *x = &s->c->nodes[n];
	int clamp = !strcmp(fn, "clamp"), max = !strcmp(fn, "max");
	if (x->nkids != (clamp ? 4u : 3u))
		return fail(s, n, "a %s() vastcc cannot follow", fn);
	if (!s->in_offset) /* its variable would take a loop's place */
		return fail(s, n, "a %s() in a loop bound or a condition", fn);
	if (s->nloops == VAST_FP_MAX_LOOPS)
		return fail(s, n, "more than 6 loops, clamp()s, min()s and max()s around the access",
		            NULL);
	unsigned first = s->nchecks, nargs = x->nkids - 1;
	fp_form r[3][2] = { { { 0 } } }; /* each argument's bounds for a work-group */
	int ok = 1;
	for (unsigned i = 0; ok && i < nargs; i++)
		ok = range_form(s, x->kids[i + 1], &r[i][0], &r[i][1], depth + 1);
	/* e is clamp()'s first argument, min()'s and max()'s that varies */
	unsigned e = !clamp && ok && fixed(&r[0][0], &r[0][1]);
	for (unsigned i = 0; ok && i < nargs; i++)
		if (i != e && !fixed(&r[i][0], &r[i][1]))
			ok = fail(s, n, clamp ? "a %s() whose bounds vary" : "a %s() of two values that vary",
			          fn);
	const fp_form *lo = clamp ? &r[1][0] : max ? &r[!e][0] : NULL;
	const fp_form *hi = clamp ? &r[2][0] : max ? NULL : &r[!e][0];
	const fp_form *elo = &r[e][0], *ehi = &r[e][1];
	unsigned nmeets = clamp ? 3 : 1;
	if (ok && within_guards(s, x->kids[e + 1], lo, hi, out, depth)) {
		for (unsigned i = 0; i < 3; i++) {
			form_free(&r[i][0]);
			form_free(&r[i][1]);
		}
		return 1;
	}
	if (ok && s->nwide + s->nchecks - first + nmeets > sizeof s->wide / sizeof *s->wide)
		ok = fail(s, n, "more than 16 operations that may wrap", NULL);
	if (ok) {
		/* the arguments' own checks hold over the whole range, as a
		 * loop bound's: the meets below rely on them */
		for (unsigned i = first; i < s->nchecks; i++) {
			s->wide[s->nwide] = s->checks[i];
			s->wide_bits[s->nwide++] = s->check_bits[i];
		}
		s->nchecks = first;
		unsigned k = s->nloops++;
		vast_fp_term u = name_term(1, VAST_FP_NAME(VAST_FP_LOOP, k), VAST_FP_ONE);
		s->loopvar[k] = -1;
		s->loopnode[k] = -1;
		add_form(&s->lo[k], elo, 1);
		add_form(&s->hi[k], ehi, 1);
		add_term(&s->hi[k], name_term(1, VAST_FP_ONE, VAST_FP_ONE));
		s->step[k] = 1;
		for (int side = 0; side < 2; side++) { /* u - lo >= 0, hi - u >= 0 */
			const fp_form *b = side ? hi : lo;
			if (!b)
				continue;
			fp_form *q = AN_PUSH(*s->g, *s->ng, *s->capg);
			memset(q, 0, sizeof *q);
			add_form(q, b, side ? 1 : -1);
			u.coef = side ? -1 : 1;
			add_term(q, u);
		}
		const fp_form *pos[3][2] = { { ehi, lo }, { hi, elo }, { hi, lo } };
		for (int i = 0; i < 3; i++) { /* >= 0: in [0, 2^63) */
			if (!pos[i][0] || !pos[i][1])
				continue;
			fp_form *m = &s->wide[s->nwide];
			memset(m, 0, sizeof *m);
			add_form(m, pos[i][0], 1);
			add_form(m, pos[i][1], -1);
			s->wide_bits[s->nwide++] = 63;
		}
		u.coef = 1;
		add_term(out, u);
		s->inexact = 1;
	}
	for (unsigned i = 0; i < 3; i++) {
		form_free(&r[i][0]);
		form_free(&r[i][1]);
	}
	return ok;
}

static long long pointee_size(an_ctx *c, int n)
{
	long long sz = clang_Type_getSizeOf(an_node_pointee(c, n));
	return sz > 0 ? sz : 0;
}

static int lval_form(fp_state *s, int n, fp_form *out, int *param, int depth);

/* Byte offset of pointer expression n from the base of *param. */
static int ptr_form(fp_state *s, int n, fp_form *out, int *param, int depth)
{
	an_ctx *c = s->c;
	if (n < 0 || depth > 64)
		return fail(s, n < 0 ? 0 : n, "a pointer expression too deep", NULL);
	an_node *x = &c->nodes[n];
	switch (x->kind) {
	case CXCursor_DeclRefExpr: {
		if (x->var < 0)
			return fail(s, n, "a pointer vastcc cannot follow", NULL);
		an_var *v = &c->vars[x->var];
		int e = v->ndefs ? assigned_once(s, x->var, n) : 0;
		if (v->addr_taken || e < 0)
			return fail(s, n, "pointer '%s' is assigned or its address taken", v->name);
		if (e > 0)
			return ptr_form(s, e, out, param, depth + 1);
		if (v->param >= 0 && v->func != s->kern) {
			e = call_arg(s, v->func, v->param);
			if (e < 0)
				return fail(s, n, "parameter '%s' of a helper not on the call path", v->name);
			return ptr_form(s, e, out, param, depth + 1);
		}
		if (v->param >= 0) {
			unsigned kind = c->p->funcs[s->kern].params[v->param].kind;
			if (kind != VAST_PARAM_GLOBAL && kind != VAST_PARAM_CONSTANT)
				return fail(s, n, "'%s' is not a buffer", v->name);
			*param = v->param;
			return 1;
		}
		e = v->node >= 0 && v->has_init ? an_var_init(c, v->node) : -1;
		if (e < 0 || v->is_array)
			return fail(s, n, "pointer '%s' has no initializer", v->name);
		return ptr_form(s, e, out, param, depth + 1);
	}
	case CXCursor_ParenExpr:
	case CXCursor_UnexposedExpr:
	case CXCursor_CStyleCastExpr: {
		if (!x->nkids)
			return fail(s, n, "a pointer vastcc cannot follow", NULL);
		int ch = x->kids[x->nkids - 1], lv = an_strip(c, ch);
		if (an_node_is_ptr(c, ch))
			return ptr_form(s, ch, out, param, depth + 1);
		if (lv >= 0 && (c->nodes[lv].kind == CXCursor_ArraySubscriptExpr ||
		                c->nodes[lv].kind == CXCursor_MemberRefExpr))
			return lval_form(s, lv, out, param, depth + 1); /* decay */
		return fail(s, n, "a pointer made from an integer", NULL);
	}
	case CXCursor_BinaryOperator: {
		if (x->nkids != 2 || (x->op != CXBinaryOperator_Add && x->op != CXBinaryOperator_Sub))
			return fail(s, n, "pointer arithmetic vastcc cannot follow", NULL);
		int pk = an_node_is_ptr(c, x->kids[0]) ? 0 : 1;
		fp_form i = {0};
		int ok = ptr_form(s, x->kids[pk], out, param, depth + 1) &&
		         int_form(s, x->kids[1 - pk], &i, depth + 1);
		add_form(out, &i, (x->op == CXBinaryOperator_Sub ? -1 : 1) *
		                  pointee_size(c, x->kids[pk]));
		form_free(&i);
		return ok;
	}
	case CXCursor_UnaryOperator:
		if (x->op == CXUnaryOperator_AddrOf && x->nkids)
			return lval_form(s, an_strip(c, x->kids[0]), out, param, depth + 1);
		return fail(s, n, "a pointer vastcc cannot follow", NULL);
	default:
		return fail(s, n, "a pointer vastcc cannot follow", NULL);
	}
}

/* Byte offset of the lvalue n. */
static int lval_form(fp_state *s, int n, fp_form *out, int *param, int depth)
{
	an_ctx *c = s->c;
	if (n < 0 || depth > 64)
		return fail(s, n < 0 ? 0 : n, "an lvalue vastcc cannot follow", NULL);
	an_node *x = &c->nodes[n];
	if (x->kind == CXCursor_ArraySubscriptExpr && x->nkids == 2) {
		int pk = an_node_is_ptr(c, x->kids[0]) ? 0 : an_node_is_ptr(c, x->kids[1]) ? 1 : -1;
		long long esz = clang_Type_getSizeOf(an_node_type(c, n));
		fp_form i = {0};
		int ok = esz > 0 && int_form(s, x->kids[pk < 0 ? 1 : 1 - pk], &i, depth + 1) &&
		         (pk >= 0 ? ptr_form(s, x->kids[pk], out, param, depth + 1)
		                  : lval_form(s, an_strip(c, x->kids[0]), out, param, depth + 1));
		add_form(out, &i, esz);
		form_free(&i);
		return ok || fail(s, n, "a subscript vastcc cannot follow", NULL);
	}
	if (x->kind == CXCursor_MemberRefExpr && x->nkids) {
		long long bits = clang_Cursor_getOffsetOfField(clang_getCursorReferenced(x->cur));
		if (bits < 0 || bits % 8)
			return fail(s, n, "a member at an offset vastcc cannot tell", NULL);
		add_term(out, name_term(bits / 8, VAST_FP_ONE, VAST_FP_ONE));
		if (an_node_is_ptr(c, x->kids[0]))
			return ptr_form(s, x->kids[0], out, param, depth + 1);
		return lval_form(s, an_strip(c, x->kids[0]), out, param, depth + 1);
	}
	if (x->kind == CXCursor_UnaryOperator && x->op == CXUnaryOperator_Deref && x->nkids)
		return ptr_form(s, x->kids[0], out, param, depth + 1);
	return fail(s, n, "an lvalue vastcc cannot follow", NULL);
}

/* The element a vector component access (v[i].y, v[i].s01, v[i][1]) is in. */
static int element_node(an_ctx *c, int n)
{
	for (;;) {
		an_node *x = &c->nodes[n];
		if ((x->kind != CXCursor_MemberRefExpr && x->kind != CXCursor_ArraySubscriptExpr) ||
		    !x->nkids)
			return n;
		int k = an_strip(c, x->kids[0]);
		if (k < 0 || clang_getCanonicalType(an_node_type(c, k)).kind != CXType_ExtVector)
			return n;
		n = k;
	}
}

/* The byte offset of access node n. */
static int access_form(fp_state *s, int n, const an_access *a, fp_form *out, int *param)
{
	an_ctx *c = s->c;
	an_node *x = &c->nodes[n];
	if (x->kind != CXCursor_CallExpr)
		return lval_form(s, element_node(c, n), out, param, 0);
	int pn = -1, on = -1;
	for (unsigned i = 1; i < x->nkids; i++) {
		an_node *y = &c->nodes[x->kids[i]];
		if (y->begin == a->ptr.begin && y->end == a->ptr.end)
			pn = x->kids[i];
		else if (a->off.end && y->begin == a->off.begin && y->end == a->off.end)
			on = x->kids[i];
	}
	if (pn < 0 || !ptr_form(s, pn, out, param, 0))
		return fail(s, n, "a builtin's pointer vastcc cannot follow", NULL);
	if (a->form == AN_FORM_ATOMIC)
		return 1;
	fp_form o = {0};
	int ok = on >= 0 && int_form(s, on, &o, 0);
	add_form(out, &o, (long long)a->vec * pointee_size(c, pn));
	form_free(&o);
	return ok || fail(s, n, "a vector load or store offset vastcc cannot follow", NULL);
}

/* ---- loops and guards ------------------------------------------------- */

/* The variable of n (through casts), or -1. */
static int ref_var(an_ctx *c, int n)
{
	n = an_strip(c, n);
	return n >= 0 && c->nodes[n].kind == CXCursor_DeclRefExpr ? c->nodes[n].var : -1;
}

/* Is v the counter of for statement node f: every definition of v in
 * f is in its header? Definitions outside f (PolyBench's `int i;` counting
 * two loops in turn, gramschmidt_kernel3) do not run while f's body does,
 * so there v is the counter; var_form names it only inside f. */
static int counter_of(an_ctx *c, int v, int f)
{
	if (v < 0 || c->vars[v].addr_taken || c->vars[v].is_array || c->vars[v].param >= 0)
		return 0;
	int stmt = c->nodes[f].stmt;
	for (unsigned d = 0; d < c->ndefs; d++) {
		int dn = c->defs[d].node;
		an_node *x = &c->nodes[dn];
		if (c->defs[d].var == v && inside(c, f, dn) && (!x->header || x->stmt != stmt))
			return 0;
	}
	return 1;
}

static int nonneg(fp_state *s, const fp_form *f);

/* A loop bound `E / d` or `E >> k` (d = 2^k), d a positive constant,
 * through parentheses and conversions that keep every value: E's node and
 * d, or -1. */
static int quotient(an_ctx *c, int n, long long *d)
{
	an_node *x = &c->nodes[n];
	while ((x->kind == CXCursor_ParenExpr || x->kind == CXCursor_UnexposedExpr ||
	        x->kind == CXCursor_CStyleCastExpr) && x->nkids) {
		int k = x->kids[x->nkids - 1];
		CXType from = an_node_type(c, k), to = an_node_type(c, n);
		long long fb = clang_Type_getSizeOf(from), tb = clang_Type_getSizeOf(to);
		if (!int_type(from) || fb > tb ||
		    (fb == tb && unsigned_type(from) != unsigned_type(to)))
			return -1;
		n = k;
		x = &c->nodes[n];
	}
	long long v;
	if (x->kind != CXCursor_BinaryOperator || x->nkids != 2 || !const_value(c, x->kids[1], &v))
		return -1;
	if (x->op == CXBinaryOperator_Div && v > 0)
		*d = v;
	else if (x->op == CXBinaryOperator_Shr && v >= 0 && v <= 62)
		*d = 1ll << v;
	else
		return -1;
	return x->kids[0];
}

/* A for statement node as `for (v = lo; v < hi; v += step)`: returns v
 * and fills the bounds' forms, or -1. A bound `v < E / d` (d a positive
 * constant, E >= 0, so C's quotient is floor(E / d), C99 6.5.5p6) is
 * `v < E` and the guard `E - d * v - d >= 0`: v + 1 <= E / d. The runtime
 * clips the counter with it exactly; without it, the hull [lo, E) is a
 * superset since floor(E / d) <= E. The guard is appended to g. */
static int loop_form(fp_state *s, int f, fp_form *lo, fp_form *hi, long long *step,
                     fp_form **g, unsigned *ng, unsigned *cap)
{
	an_ctx *c = s->c;
	an_node *x = &c->nodes[f];
	int h[3], nh = 0;
	for (unsigned i = 0; i < x->nkids; i++)
		if (c->nodes[x->kids[i]].header) {
			if (nh == 3)
				return -1;
			h[nh++] = x->kids[i];
		}
	if (nh != 3)
		return -1;
	/* init: `T v = lo` or `v = lo` */
	an_node *in = &c->nodes[h[0]];
	int v = -1, loe = -1;
	if (in->kind == CXCursor_DeclStmt && in->nkids == 1 &&
	    c->nodes[in->kids[0]].kind == CXCursor_VarDecl) {
		v = c->nodes[in->kids[0]].var;
		loe = an_var_init(c, in->kids[0]);
	} else if (in->kind == CXCursor_BinaryOperator && in->op == CXBinaryOperator_Assign &&
	           in->nkids == 2) {
		v = ref_var(c, in->kids[0]);
		loe = in->kids[1];
	}
	if (v < 0 || loe < 0 || !counter_of(c, v, f))
		return -1;
	/* cond: v < hi, v <= hi, hi > v, hi >= v */
	int cn = an_strip(c, h[1]), in_ = an_strip(c, h[2]);
	if (cn < 0 || in_ < 0)
		return -1;
	an_node *cd = &c->nodes[cn];
	if (cd->kind != CXCursor_BinaryOperator || cd->nkids != 2)
		return -1;
	int left = ref_var(c, cd->kids[0]) == v, hie;
	int incl;
	if (left && (cd->op == CXBinaryOperator_LT || cd->op == CXBinaryOperator_LE))
		hie = cd->kids[1], incl = cd->op == CXBinaryOperator_LE;
	else if (ref_var(c, cd->kids[1]) == v &&
	         (cd->op == CXBinaryOperator_GT || cd->op == CXBinaryOperator_GE))
		hie = cd->kids[0], incl = cd->op == CXBinaryOperator_GE;
	else
		return -1;
	/* inc: v++, ++v, v += c, v = v + c */
	an_node *ic = &c->nodes[in_];
	long long st = 0;
	if (ic->kind == CXCursor_UnaryOperator && ic->nkids == 1 && ref_var(c, ic->kids[0]) == v &&
	    (ic->op == CXUnaryOperator_PostInc || ic->op == CXUnaryOperator_PreInc))
		st = 1;
	else if (ic->kind == CXCursor_CompoundAssignOperator && ic->nkids == 2 &&
	         ic->op == CXBinaryOperator_AddAssign && ref_var(c, ic->kids[0]) == v)
		const_value(c, ic->kids[1], &st);
	if (st <= 0)
		return -1;
	long long d = 1;
	int num = quotient(c, hie, &d);
	if (!int_form(s, loe, lo, 0) || !int_form(s, num >= 0 ? num : hie, hi, 0) ||
	    (num >= 0 && !nonneg(s, hi)))
		return -1;
	/* an unsigned comparison agrees with the integers' only where both
	 * sides are never negative (C99 6.3.1.8) */
	if ((unsigned_type(an_node_type(c, cd->kids[0])) ||
	     unsigned_type(an_node_type(c, cd->kids[1]))) && !(nonneg(s, lo) && nonneg(s, hi)))
		return -1;
	if (d > 1) {
		fp_form *q = AN_PUSH(*g, *ng, *cap);
		memset(q, 0, sizeof *q);
		add_form(q, hi, 1);
		add_term(q, name_term(-d, VAST_FP_NAME(VAST_FP_LOOP, s->nloops), VAST_FP_ONE));
		if (!incl)
			add_term(q, name_term(-d, VAST_FP_ONE, VAST_FP_ONE));
	}
	if (incl)
		add_term(hi, name_term(1, VAST_FP_ONE, VAST_FP_ONE));
	*step = st;
	return v;
}

/* Every value of f is >= 0: positive coefficients over ids, sizes and
 * unsigned arguments. */
static int nonneg(fp_state *s, const fp_form *f)
{
	an_func *fn = &s->c->p->funcs[s->kern];
	for (unsigned i = 0; i < f->n; i++) {
		const vast_fp_term *t = &f->t[i];
		if (t->coef < 0 || VAST_FP_KIND(t->var) == VAST_FP_LOOP)
			return 0;
		for (int k = 0; k < VAST_FP_MAX_SYMS; k++)
			if (VAST_FP_KIND(t->sym[k]) == VAST_FP_ARG) {
				int v = an_param_var(s->c, s->kern, VAST_FP_INDEX(t->sym[k]));
				if (v < 0 || fn->params[VAST_FP_INDEX(t->sym[k])].kind != VAST_PARAM_SCALAR ||
				    !unsigned_type(an_node_type(s->c, s->c->vars[v].node)))
					return 0;
			}
	}
	return 1;
}

/* Guards equivalent to condition n (negated when neg), appended to g;
 * 0 when it is not a conjunction of affine comparisons. */
static int cond_guards(fp_state *s, int n, int neg, fp_form **g, unsigned *ng, unsigned *cap)
{
	an_ctx *c = s->c;
	n = an_strip(c, n);
	if (n < 0)
		return 0;
	an_node *x = &c->nodes[n];
	if (x->kind == CXCursor_UnaryOperator && x->op == CXUnaryOperator_LNot && x->nkids == 1)
		return cond_guards(s, x->kids[0], !neg, g, ng, cap);
	if (x->kind != CXCursor_BinaryOperator || x->nkids != 2)
		return 0;
	if ((x->op == CXBinaryOperator_LAnd && !neg) || (x->op == CXBinaryOperator_LOr && neg))
		return cond_guards(s, x->kids[0], neg, g, ng, cap) &&
		       cond_guards(s, x->kids[1], neg, g, ng, cap);
	int op = x->op;
	if (op < CXBinaryOperator_LT || op > CXBinaryOperator_NE)
		return 0;
	if (neg) {
		static const int inv[] = { [CXBinaryOperator_LT] = CXBinaryOperator_GE,
		                           [CXBinaryOperator_GT] = CXBinaryOperator_LE,
		                           [CXBinaryOperator_LE] = CXBinaryOperator_GT,
		                           [CXBinaryOperator_GE] = CXBinaryOperator_LT,
		                           [CXBinaryOperator_EQ] = CXBinaryOperator_NE,
		                           [CXBinaryOperator_NE] = CXBinaryOperator_EQ };
		op = inv[op];
	}
	char saved[sizeof s->why];
	memcpy(saved, s->why, sizeof saved);
	fp_form a = {0}, b = {0};
	int ok = int_form(s, x->kids[0], &a, 0) && int_form(s, x->kids[1], &b, 0);
	memcpy(s->why, saved, sizeof saved); /* a guard that fails is no reason */
	/* An unsigned comparison (C99 6.3.1.8) agrees with the integers'
	 * only where both sides are never negative. */
	if (ok && (unsigned_type(an_node_type(c, x->kids[0])) ||
	           unsigned_type(an_node_type(c, x->kids[1]))))
		ok = nonneg(s, &a) && nonneg(s, &b);
	if (ok && op == CXBinaryOperator_NE) {
		/* a != 0 with a never negative is a - 1 >= 0 (x == 0 || ...
		 * return; over unsigned ids); any other != is two half-spaces */
		fp_form *z = a.n == 0 ? &a : b.n == 0 ? &b : NULL, *v = z == &a ? &b : &a;
		ok = z && nonneg(s, v);
		if (ok) {
			fp_form *d = AN_PUSH(*g, *ng, *cap);
			memset(d, 0, sizeof *d);
			add_form(d, v, 1);
			add_term(d, name_term(-1, VAST_FP_ONE, VAST_FP_ONE));
		}
	} else if (ok) {
		/* integers: a < b is b - a - 1 >= 0, a <= b is b - a >= 0 */
		int gt = op == CXBinaryOperator_GT || op == CXBinaryOperator_GE;
		for (int k = 0; k < (op == CXBinaryOperator_EQ ? 2 : 1); k++) {
			fp_form *d = AN_PUSH(*g, *ng, *cap);
			memset(d, 0, sizeof *d);
			int flip = op == CXBinaryOperator_EQ ? k : gt;
			add_form(d, flip ? &a : &b, 1);
			add_form(d, flip ? &b : &a, -1);
			if (op == CXBinaryOperator_LT || op == CXBinaryOperator_GT)
				add_term(d, name_term(-1, VAST_FP_ONE, VAST_FP_ONE));
		}
	}
	form_free(&a);
	form_free(&b);
	return ok;
}

/* `if (c) return;` with no else. */
static int early_return(an_ctx *c, int n, int *cond)
{
	an_node *x = &c->nodes[n];
	if (x->kind != CXCursor_IfStmt || x->nkids != 2)
		return 0;
	int t = x->kids[1];
	if (c->nodes[t].kind == CXCursor_CompoundStmt && c->nodes[t].nkids == 1)
		t = c->nodes[t].kids[0];
	if (c->nodes[t].kind != CXCursor_ReturnStmt || c->nodes[t].nkids)
		return 0;
	*cond = x->kids[0];
	return 1;
}

/* ---- the top of a kernel ---------------------------------------------- */

/* The `if (c) return;` statements at the top of a kernel's body become
 * guards of the accesses after them, and any other return, break,
 * continue or goto may skip an access. What an access takes from them
 * depends only on which of those statements come before it, in order,
 * so they are folded once per kernel, each statement's guards and checks
 * appended to one list; an access copies the prefix before it. Folding
 * them again for every access made the analysis quadratic in a kernel's
 * statements. */
typedef struct fp_top {
	int *st;            /* the body's `if (c) return;` statements, in order */
	unsigned n, cap;
	/* per i in [0, n]: after folding st[0..i), the guards, the checks,
	 * and the jumps that lie inside the statements folded */
	unsigned *ng, *nchecks, *covered;
	unsigned njumps;    /* the kernel's return, break, continue and goto */
	fp_form *g;         /* every statement's guards, in order */
	unsigned ng_all, capg;
	fp_form checks[16];
	int check_bits[16];
	unsigned nchecks_all;
} fp_top;

static void top_fold(an_ctx *c, int kern, const fp_facts *facts, fp_top *t)
{
	int fnode = c->func_node[kern], body = -1;
	unsigned end = an_func_end(c, kern);
	for (unsigned i = 0; i < c->nodes[fnode].nkids; i++)
		if (c->nodes[c->nodes[fnode].kids[i]].kind == CXCursor_CompoundStmt)
			body = c->nodes[fnode].kids[i];
	int cond;
	for (unsigned i = 0; body >= 0 && i < c->nodes[body].nkids; i++)
		if (early_return(c, c->nodes[body].kids[i], &cond))
			*AN_PUSH(t->st, t->n, t->cap) = c->nodes[body].kids[i];
	/* jumps in node order: those inside a statement follow it at once */
	unsigned *jumps_in = an_xcalloc(t->n + 1, sizeof *jumps_in);
	for (unsigned m = (unsigned)fnode, k = 0; m < end; m++) {
		enum CXCursorKind kind = c->nodes[m].kind;
		if (kind != CXCursor_ReturnStmt && kind != CXCursor_BreakStmt &&
		    kind != CXCursor_ContinueStmt && kind != CXCursor_GotoStmt)
			continue;
		t->njumps++;
		while (k < t->n && c->nodes[t->st[k]].last < (int)m)
			k++;
		if (k < t->n && (int)m > t->st[k])
			jumps_in[k]++;
	}
	/* the state an access starts from, as describe() had it: s with no
	 * loop, no reason, no check */
	fp_state s = { .c = c, .kern = kern, .facts = facts };
	t->ng = an_xcalloc(t->n + 1, sizeof *t->ng);
	t->nchecks = an_xcalloc(t->n + 1, sizeof *t->nchecks);
	t->covered = an_xcalloc(t->n + 1, sizeof *t->covered);
	unsigned nfolded = 0;
	for (unsigned i = 0; i < t->n; i++) {
		int folded = nfolded < 64 && early_return(c, t->st[i], &cond) &&
		             cond_guards(&s, cond, 1, &t->g, &t->ng_all, &t->capg);
		nfolded += folded;
		t->ng[i + 1] = t->ng_all;
		t->nchecks[i + 1] = s.nchecks;
		t->covered[i + 1] = t->covered[i] + (folded ? jumps_in[i] : 0);
	}
	free(jumps_in);
	memcpy(t->checks, s.checks, sizeof t->checks);
	memcpy(t->check_bits, s.check_bits, sizeof t->check_bits);
	t->nchecks_all = s.nchecks;
}

static void top_free(fp_top *t)
{
	for (unsigned i = 0; i < t->ng_all; i++)
		form_free(&t->g[i]);
	for (unsigned i = 0; i < t->nchecks_all; i++)
		form_free(&t->checks[i]);
	free(t->g);
	free(t->st);
	free(t->ng);
	free(t->nchecks);
	free(t->covered);
}

/* ---- one access ------------------------------------------------------- */

typedef struct fp_build {
	fp_form off;
	fp_form lo[VAST_FP_MAX_LOOPS], hi[VAST_FP_MAX_LOOPS];
	long long step[VAST_FP_MAX_LOOPS];
	fp_form *g;
	unsigned ng, capg;
} fp_build;

static vast_fp_form keep_form(an_footprint *fp, unsigned *cap, const fp_form *f)
{
	vast_fp_form r = { fp->nterms, f->n };
	for (unsigned i = 0; i < f->n; i++)
		*AN_PUSH(fp->terms, fp->nterms, *cap) = f->t[i];
	return r;
}

/* The statements around node pos up to the top of its function,
 * innermost first, appended to chain (the statement) and from (its child
 * pos is in); a construct of no other kind makes the access inexact. */
static int around(fp_state *s, int pos, int *chain, int *from, int *nchain, int *exact)
{
	an_ctx *c = s->c;
	for (int m = c->nodes[pos].ctl; m >= 0; m = an_ctl_next(c, m)) {
		int q = c->nodes[m].parent;
		an_node *y = &c->nodes[q];
		if (((y->kind == CXCursor_ForStmt || y->kind == CXCursor_IfStmt) &&
		     !c->nodes[m].header) ||
		    (y->kind == CXCursor_ConditionalOperator && y->nkids == 3 && m != y->kids[0]) ||
		    (y->kind == CXCursor_BinaryOperator && y->nkids == 2 && m == y->kids[1] &&
		     (y->op == CXBinaryOperator_LAnd || y->op == CXBinaryOperator_LOr))) {
			if (*nchain == 256)
				return fail(s, pos, "an access nested too deep", NULL);
			chain[*nchain] = q;
			from[(*nchain)++] = m;
		} else if (y->kind == CXCursor_WhileStmt || y->kind == CXCursor_DoStmt ||
		           y->kind == CXCursor_SwitchStmt || y->kind == CXCursor_ForStmt) {
			*exact = 0;
		}
	}
	return 1;
}

/* The calls from the kernel down to helper f, innermost first, into
 * s->path_func and s->path_call: each function on the way must be called
 * from one place the kernel reaches, else a parameter would stand for
 * several arguments and one descriptor could not say which. */
static int call_path(fp_state *s, int f, int n)
{
	an_ctx *c = s->c;
	const fp_facts *calls = s->facts;
	while (f != s->kern) {
		if (calls->ncallers[f] != 1)
			return fail(s, n, calls->ncallers[f] ? "helper '%s' called from several places"
			                                     : "helper '%s' called through a pointer",
			            c->p->funcs[f].name);
		if (s->npath == FP_MAX_CALLS)
			return fail(s, n, "helpers nested more than 8 deep", NULL);
		int at = calls->caller[f];
		s->path_func[s->npath] = f;
		s->path_call[s->npath++] = at;
		f = c->nodes[at].func;
	}
	return 1;
}

static void describe(an_ctx *c, int kern, const fp_top *top, const fp_facts *facts, int n,
                     an_footprint *fp)
{
	an_program *p = c->p;
	const an_access *a = &p->accesses[fp->access];
	fp_state s = { .c = c, .kern = kern, .facts = facts };
	fp_build b = {0};
	s.lo = b.lo;
	s.hi = b.hi;
	s.step = b.step;
	s.g = &b.g;
	s.ng = &b.ng;
	s.capg = &b.capg;
	int exact = 1, param = -1;
	unsigned pre_checks = 0;
	/* an access in a helper is described in the kernel's terms: its
	 * parameters stand for the arguments of the calls down to it, and
	 * the statements around those calls are around the access too */
	if (a->func != kern && !call_path(&s, a->func, n))
		goto done;
	/* the statements around the access, innermost first; a branch of
	 * `?:` and the right operand of `&&` or `||` are conditions like
	 * an if's (fdtd2d's `y == 0 ? source : ... hz[(y - 1) * w + x]`) */
	int chain[256], from[256], nchain = 0, pos = n;
	for (unsigned k = 0;; k++) {
		if (!around(&s, pos, chain, from, &nchain, &exact))
			goto done;
		if (k == s.npath)
			break;
		exact &= !facts->skips[s.path_func[k]];
		pos = s.path_call[k];
	}
	/* the early returns at the top of the kernel before the access, or
	 * the call it is in (top_fold): their guards and checks; any other
	 * jump may skip it */
	unsigned lo = 0, hi = top->n;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (c->nodes[top->st[mid]].last < pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (unsigned i = 0; i < top->ng[lo]; i++) {
		fp_form *d = AN_PUSH(b.g, b.ng, b.capg);
		memset(d, 0, sizeof *d);
		add_form(d, &top->g[i], 1);
	}
	for (unsigned i = 0; i < top->nchecks[lo]; i++) {
		memset(&s.checks[i], 0, sizeof s.checks[i]);
		add_form(&s.checks[i], &top->checks[i], 1);
		s.check_bits[i] = top->check_bits[i];
	}
	s.nchecks = top->nchecks[lo];
	if (top->covered[lo] != top->njumps)
		exact = 0;
	/* outermost first: a loop of the supported form is a loop, another
	 * is only a condition (fatal if the offset names its counter); an if
	 * gives guards over the loops outside it */
	for (int i = nchain - 1; i >= 0; i--) {
		an_node *y = &c->nodes[chain[i]];
		s.visible = s.nloops;
		if (y->kind == CXCursor_IfStmt) {
			if (y->nkids < 2 || !cond_guards(&s, y->kids[0], y->nkids == 3 && from[i] == y->kids[2], &b.g,
			                 &b.ng, &b.capg))
				exact = 0;
			continue;
		}
		if (y->kind == CXCursor_ConditionalOperator || y->kind == CXCursor_BinaryOperator) {
			/* the false branch of ?:, the right of || run when the
			 * condition, or the left, is false */
			int neg = y->kind == CXCursor_ConditionalOperator ? from[i] == y->kids[2]
			                                                  : y->op == CXBinaryOperator_LOr;
			if (!cond_guards(&s, y->kids[0], neg, &b.g, &b.ng, &b.capg))
				exact = 0;
			continue;
		}
		unsigned k = s.nloops;
		int v = k < VAST_FP_MAX_LOOPS
		                ? loop_form(&s, chain[i], &b.lo[k], &b.hi[k], &b.step[k], &b.g, &b.ng,
		                            &b.capg)
		                : -1;
		if (v < 0) {
			if (k < VAST_FP_MAX_LOOPS) {
				form_free(&b.lo[k]);
				form_free(&b.hi[k]);
			}
			s.why[0] = 0;
			exact = 0;
			continue;
		}
		s.loopvar[k] = v;
		s.loopnode[k] = chain[i];
		s.nloops++;
	}
	s.visible = s.nloops;
	pre_checks = s.nchecks;
	s.in_offset = 1;
	if (!access_form(&s, n, a, &b.off, &param))
		goto done;
	if (param < 0 || param >= 32 || fp->params != 1u << param) {
		fail(&s, n, "a pointer that may reach several buffers", NULL);
		goto done;
	}
	fp->affine = 1;
done:
	if (!fp->affine) {
		fp->reason = an_xstrdup(s.why[0] ? s.why : "an offset vastcc cannot follow");
	} else {
		unsigned cap = 0;
		fp->offset = keep_form(fp, &cap, &b.off);
		fp->nloops = s.nloops;
		fp->loops = an_xcalloc(s.nloops + 1, sizeof *fp->loops);
		fp->loop_names = an_xcalloc(s.nloops + 1, sizeof *fp->loop_names);
		for (unsigned k = 0; k < s.nloops; k++) {
			fp->loops[k].lo = keep_form(fp, &cap, &b.lo[k]);
			fp->loops[k].hi = keep_form(fp, &cap, &b.hi[k]);
			fp->loops[k].step = b.step[k];
			char name[16];
			snprintf(name, sizeof name, "clamp%u", k);
			fp->loop_names[k] = an_xstrdup(s.loopvar[k] >= 0 ? c->vars[s.loopvar[k]].name
			                                                 : name);
		}
		fp->nguards = b.ng;
		fp->guards = an_xcalloc(b.ng + 1, sizeof *fp->guards);
		for (unsigned i = 0; i < b.ng; i++)
			fp->guards[i] = keep_form(fp, &cap, &b.g[i]);
		/* the checks over the whole range (loop bounds, guards,
		 * clamp()s, min()s, max()s), then the offset's */
		fp->nchecks = s.nchecks + s.nwide;
		fp->noffset_checks = s.nchecks - pre_checks;
		fp->checks = an_xcalloc(fp->nchecks + 1, sizeof *fp->checks);
		for (unsigned i = 0, j = 0; i < fp->nchecks; i++) {
			int w = i >= pre_checks && i < pre_checks + s.nwide;
			const fp_form *f = w ? &s.wide[i - pre_checks] : &s.checks[j];
			fp->checks[i].form = keep_form(fp, &cap, f);
			fp->checks[i].bits = w ? s.wide_bits[i - pre_checks] : s.check_bits[j];
			j += !w;
		}
		fp->exact = exact && !s.inexact;
		fp->must_write = fp->exact && (a->mode & VAST_MODE_W) && !(a->mode & VAST_MODE_ATOMIC) &&
		                 !c->nodes[n].partial;
	}
	form_free(&b.off);
	for (unsigned k = 0; k < VAST_FP_MAX_LOOPS; k++) {
		form_free(&b.lo[k]);
		form_free(&b.hi[k]);
	}
	for (unsigned i = 0; i < b.ng; i++)
		form_free(&b.g[i]);
	free(b.g);
	for (unsigned i = 0; i < s.nchecks; i++)
		form_free(&s.checks[i]);
	for (unsigned i = 0; i < s.nwide; i++)
		form_free(&s.wide[i]);
}

void an_footprints(an_ctx *c)
{
	an_program *p = c->p;
	fp_facts facts = { an_xcalloc(p->nfuncs + 1, sizeof(int)),
	                   an_xcalloc(p->nfuncs + 1, sizeof(int)), an_xcalloc(p->nfuncs + 1, 1),
	                   an_xcalloc(p->nfuncs + 1, 1), an_xcalloc(c->nvars + 1, sizeof(int)) };
	for (unsigned f = 0; f < p->nfuncs; f++) {
		int body = func_body(c, (int)f), last = -1;
		if (body >= 0 && c->nodes[body].nkids)
			last = c->nodes[body].kids[c->nodes[body].nkids - 1];
		unsigned end = an_func_end(c, (int)f);
		for (unsigned m = (unsigned)c->func_node[f]; m < end; m++) {
			enum CXCursorKind kind = c->nodes[m].kind;
			int jump = kind == CXCursor_GotoStmt || kind == CXCursor_IndirectGotoStmt;
			facts.has_goto[f] |= jump;
			if (jump || (kind == CXCursor_ReturnStmt && (int)m != last) ||
			    kind == CXCursor_BreakStmt || kind == CXCursor_ContinueStmt)
				facts.skips[f] = 1;
		}
	}
	for (unsigned v = 0; v < c->nvars; v++)
		facts.def1[v] = -1;
	for (unsigned d = 0; d < c->ndefs; d++)
		if (c->nodes[c->defs[d].node].kind != CXCursor_VarDecl)
			facts.def1[c->defs[d].var] = c->defs[d].node;
	for (unsigned f = 0; f < p->nfuncs; f++) {
		an_func *fn = &p->funcs[f];
		an_kfacts *k = &c->kf[f];
		if (!fn->is_kernel)
			continue;
		memset(facts.ncallers, 0, p->nfuncs * sizeof(int));
		for (unsigned n = 0; n < c->nnodes; n++) {
			int ci = c->nodes[n].call;
			if (ci < 0 || c->nodes[n].func < 0 || !k->reach[c->nodes[n].func] ||
			    p->calls[ci].target < 0)
				continue;
			facts.ncallers[p->calls[ci].target]++;
			facts.caller[p->calls[ci].target] = (int)n;
		}
		fn->fps = an_xcalloc(p->naccesses + 1, sizeof *fn->fps);
		fp_top top = {0};
		top_fold(c, (int)f, &facts, &top);
		for (unsigned n = 0; n < c->nnodes; n++) {
			int ai = c->nodes[n].access;
			if (ai < 0 || !k->reach[c->nodes[n].func])
				continue;
			an_footprint *fp = &fn->fps[fn->nfps++];
			fp->access = (unsigned)ai;
			fp->params = k->acc_bits[ai];
			describe(c, (int)f, &top, &facts, (int)n, fp);
		}
		top_free(&top);
	}
	free(facts.ncallers);
	free(facts.caller);
	free(facts.skips);
	free(facts.has_goto);
	free(facts.def1);
}

void an_footprints_free(an_func *fn)
{
	for (unsigned i = 0; i < fn->nfps; i++) {
		an_footprint *fp = &fn->fps[i];
		free(fp->reason);
		free(fp->terms);
		free(fp->loops);
		for (unsigned k = 0; k < fp->nloops; k++)
			free(fp->loop_names[k]);
		free(fp->loop_names);
		free(fp->guards);
		free(fp->checks);
	}
	free(fn->fps);
}
