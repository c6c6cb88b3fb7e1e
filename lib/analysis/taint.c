/* SPDX-License-Identifier: MIT */
/*
 * taint.c - which variables depend on data loaded from global memory.
 *
 * Taint marks variables whose value depends on data loaded from global
 * memory, through assignments and through the branches around them (an
 * implicit flow changes addresses just as well), and per function whether
 * its return value does, whether it runs under a tainted condition, and
 * whether it stores such data through a private or local pointer into its
 * callers' variables. Every fact only ever goes from 0 to 1, so the loop
 * below runs until a round changes nothing. pattern.c makes an access
 * indirect when its address or a condition around it is tainted.
 */
#include "internal.h"

/* Does the value of expression n (less node self) depend on global data? */
int an_expr_tainted(an_ctx *c, int n, int self)
{
	for (int m = n; m <= c->nodes[n].last; m++) {
		an_node *x = &c->nodes[m];
		if (m == self)
			continue;
		if (x->access >= 0)
			return 1;
		if (x->kind == CXCursor_DeclRefExpr && x->var >= 0 && c->vars[x->var].tainted)
			return 1;
		if (x->kind == CXCursor_CallExpr && x->fn_ref >= 0 && c->ret_taint[x->fn_ref])
			return 1;
	}
	return 0;
}

/* Conditions that decide whether node n runs: the headers of the control
 * statements around it and the ?: && || conditions inside its statement. */
int an_ctl_tainted(an_ctx *c, int n)
{
	an_node *x = &c->nodes[n];
	if (x->func >= 0 && c->fn_ctl_taint[x->func])
		return 1;
	for (int m = x->ctl; m >= 0; m = an_ctl_next(c, m)) {
		int p = c->nodes[m].parent;
		an_node *y = &c->nodes[p];
		if (y->kind == CXCursor_ConditionalOperator && y->nkids == 3 && m != y->kids[0]) {
			if (an_expr_tainted(c, y->kids[0], -1))
				return 1;
		} else if (y->kind == CXCursor_BinaryOperator && y->nkids == 2 && m == y->kids[1] &&
		           (y->op == CXBinaryOperator_LAnd || y->op == CXBinaryOperator_LOr)) {
			if (an_expr_tainted(c, y->kids[0], -1))
				return 1;
		} else if (y->kind == CXCursor_IfStmt || y->kind == CXCursor_WhileStmt ||
		           y->kind == CXCursor_DoStmt || y->kind == CXCursor_ForStmt ||
		           y->kind == CXCursor_SwitchStmt) {
			/* the header runs whatever it computes; the body is
			 * controlled by it */
			if (c->nodes[m].header && c->nodes[m].stmt == c->nodes[p].stmt)
				continue;
			for (unsigned i = 0; i < y->nkids; i++) {
				int h = y->kids[i];
				if (c->nodes[h].header && h != m && an_expr_tainted(c, h, -1))
					return 1;
			}
		}
	}
	return 0;
}

static int def_tainted(an_ctx *c, int d)
{
	an_node *x = &c->nodes[d];
	if (an_ctl_tainted(c, d))
		return 1;
	switch (x->kind) {
	case CXCursor_VarDecl: {
		int e = an_var_init(c, d);
		return e >= 0 && an_expr_tainted(c, e, -1);
	}
	case CXCursor_BinaryOperator:
	case CXCursor_CompoundAssignOperator:
		return x->nkids == 2 && an_expr_tainted(c, x->kids[1], -1);
	case CXCursor_UnaryOperator:
		if (x->op == CXUnaryOperator_AddrOf)
			break;
		return 0;
	case CXCursor_DeclRefExpr:
		break;
	default:
		return 0;
	}
	/* &v or an array passed somewhere: a helper of the file stores what
	 * store_taint says into v; a builtin (`fract(x, &ip)`) whatever the
	 * call computes */
	for (int p = x->parent; p >= 0; p = c->nodes[p].parent)
		if (c->nodes[p].kind == CXCursor_CallExpr) {
			an_node *call = &c->nodes[p];
			return call->fn_ref >= 0 ? c->store_taint[call->fn_ref] : an_expr_tainted(c, p, -1);
		}
	return 0;
}

/* Does the call at node n pass a pointer to private or local memory? */
int an_passes_private_ptr(an_ctx *c, int n)
{
	an_node *x = &c->nodes[n];
	for (unsigned i = 1; i < x->nkids; i++) {
		int a = x->kids[i];
		if (an_node_is_ptr(c, a)) {
			unsigned as = an_type_as(an_node_pointee(c, a));
			if (as != AN_AS_GLOBAL && as != AN_AS_CONSTANT)
				return 1;
		}
	}
	return 0;
}

/* A store through a private or local pointer in function f writes what
 * its caller sees: one that depends on global memory taints f's callers'
 * variables passed by address. So do the helpers and builtins f passes
 * such a pointer on to. */
static int stores_tainted(an_ctx *c, int n)
{
	an_node *x = &c->nodes[n];
	if (x->ptr_store)
		return def_tainted(c, n);
	if (x->kind == CXCursor_CallExpr && an_passes_private_ptr(c, n))
		return x->fn_ref >= 0 ? c->store_taint[x->fn_ref]
		                      : an_expr_tainted(c, n, -1) || an_ctl_tainted(c, n);
	return 0;
}

void an_taint(an_ctx *c)
{
	an_program *p = c->p;
	c->ret_taint = an_xcalloc(p->nfuncs + 1, sizeof *c->ret_taint);
	c->fn_ctl_taint = an_xcalloc(p->nfuncs + 1, sizeof *c->fn_ctl_taint);
	c->store_taint = an_xcalloc(p->nfuncs + 1, sizeof *c->store_taint);
	/* Every round but the last sets one of these flags, so a round past
	 * their number that still changes something is a bug. */
	unsigned long limit = (unsigned long)c->nvars + 3ul * p->nfuncs + 1;
	for (unsigned long round = 0, changed = 1; changed; round++) {
		if (round > limit) {
			AN_INTERNAL(c, "taint does not converge");
			return;
		}
		changed = 0;
		for (unsigned d = 0; d < c->ndefs; d++) {
			an_var *v = &c->vars[c->defs[d].var];
			if (!v->tainted && def_tainted(c, c->defs[d].node)) {
				v->tainted = 1;
				changed = 1;
			}
		}
		for (unsigned n = 0; n < c->nnodes; n++) {
			an_node *x = &c->nodes[n];
			if (!c->store_taint[x->func] && stores_tainted(c, (int)n)) {
				c->store_taint[x->func] = 1;
				changed = 1;
			}
			if (x->kind == CXCursor_CallExpr && x->fn_ref >= 0) {
				int g = x->fn_ref;
				if (!c->fn_ctl_taint[g] && an_ctl_tainted(c, (int)n)) {
					c->fn_ctl_taint[g] = 1;
					changed = 1;
				}
				for (unsigned i = 1; i < x->nkids; i++) {
					int pv = an_param_var(c, g, i - 1);
					if (pv >= 0 && !c->vars[pv].tainted &&
					    an_expr_tainted(c, x->kids[i], -1)) {
						c->vars[pv].tainted = 1;
						changed = 1;
					}
				}
			} else if (x->kind == CXCursor_ReturnStmt && x->func >= 0 && !c->ret_taint[x->func]) {
				if ((x->nkids && an_expr_tainted(c, x->kids[0], -1)) || an_ctl_tainted(c, (int)n)) {
					c->ret_taint[x->func] = 1;
					changed = 1;
				}
			}
		}
	}
}
