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
	an_pointee_reads(c);
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

/* ---- reads through private pointers ---------------------------------- */

static int private_ptr_var(an_ctx *c, int var)
{
	an_var *v = &c->vars[var];
	return v->func >= 0 && v->is_ptr && v->pointee_as != AN_AS_GLOBAL &&
	       v->pointee_as != AN_AS_CONSTANT;
}

/* Does the subtree of n compute a value and nothing else: no assignment,
 * increment or call to a function of the file? */
static int pure_value(an_ctx *c, int n)
{
	for (int m = n; m <= c->nodes[n].last; m++) {
		an_node *x = &c->nodes[m];
		if (x->kind == CXCursor_CompoundAssignOperator ||
		    (x->kind == CXCursor_BinaryOperator && x->op == CXBinaryOperator_Assign) ||
		    (x->kind == CXCursor_UnaryOperator &&
		     (x->op == CXUnaryOperator_PostInc || x->op == CXUnaryOperator_PostDec ||
		      x->op == CXUnaryOperator_PreInc || x->op == CXUnaryOperator_PreDec)) ||
		    (x->kind == CXCursor_CallExpr && x->fn_ref >= 0))
			return 0;
	}
	return 1;
}

/* Pointer p (a DeclRefExpr) only names where a plain assignment stores:
 * `*p = e`, `p[i] = e`, `p[i].x = e`. */
static int store_target(an_ctx *c, int n)
{
	int l = an_up(c, n);
	if (l < 0)
		return 0;
	an_node *x = &c->nodes[l];
	if (!((x->kind == CXCursor_ArraySubscriptExpr && x->nkids == 2 &&
	       an_strip(c, x->kids[0]) == n) ||
	      (x->kind == CXCursor_UnaryOperator && x->op == CXUnaryOperator_Deref)))
		return 0;
	for (;;) {
		int u = an_up(c, l);
		if (u < 0)
			return 0;
		an_node *y = &c->nodes[u];
		if ((y->kind == CXCursor_MemberRefExpr && y->nkids && an_strip(c, y->kids[0]) == l &&
		     !an_node_is_ptr(c, y->kids[0])) ||
		    (y->kind == CXCursor_UnexposedExpr && !an_is_cast_like(c, u))) {
			l = u; /* a member or vector component of the element */
			continue;
		}
		return y->kind == CXCursor_BinaryOperator && y->op == CXBinaryOperator_Assign &&
		       y->nkids == 2 && an_strip(c, y->kids[0]) == l;
	}
}

/* Node n lies in the value a global store writes (`out[i] = d[k]`),
 * which no slice needs: the inspector marks the store's address and the
 * merge kernel copies its bytes. */
static int global_store_value(an_ctx *c, int n)
{
	for (int m = n, p = c->nodes[n].parent; p >= 0; m = p, p = c->nodes[p].parent) {
		an_node *y = &c->nodes[p];
		if (y->stmt != c->nodes[n].stmt)
			return 0;
		if ((y->kind == CXCursor_BinaryOperator && y->op == CXBinaryOperator_Assign) ||
		    y->kind == CXCursor_CompoundAssignOperator) {
			if (y->nkids != 2 || m != y->kids[1])
				return 0;
			int l = an_strip(c, y->kids[0]);
			return l >= 0 && c->nodes[l].access >= 0 &&
			       (c->p->accesses[c->nodes[l].access].mode & VAST_MODE_W) &&
			       pure_value(c, y->kids[1]);
		}
	}
	return 0;
}

/* A helper that never reads through its private pointers (it only stores
 * through them, or reads to store into a buffer: `globalStores8`) needs
 * nothing of what its callers' variables held: they pass `&v` without
 * v's value. Any other use of such a pointer (passed on, compared,
 * copied, read) counts as a read. */
void an_pointee_reads(an_ctx *c)
{
	c->pointee_read = an_xcalloc(c->p->nfuncs + 1, 1);
	for (unsigned n = 0; n < c->nnodes; n++) {
		an_node *x = &c->nodes[n];
		if (x->kind != CXCursor_DeclRefExpr || x->var < 0 || x->func < 0 ||
		    !private_ptr_var(c, x->var) || c->pointee_read[x->func])
			continue;
		if (!store_target(c, (int)n) && !global_store_value(c, (int)n))
			c->pointee_read[x->func] = 1;
	}
}

int an_private_root(an_ctx *c, int n)
{
	n = an_strip(c, n);
	if (n < 0)
		return -1;
	an_node *x = &c->nodes[n];
	if (x->kind == CXCursor_UnaryOperator && x->op == CXUnaryOperator_AddrOf && x->nkids) {
		n = an_strip(c, x->kids[0]);
		while (n >= 0) {
			an_node *y = &c->nodes[n];
			if (y->kind == CXCursor_DeclRefExpr)
				break;
			if (y->kind == CXCursor_ArraySubscriptExpr && y->nkids == 2) {
				int b = an_strip(c, y->kids[0]);
				if (b < 0 || c->nodes[b].kind != CXCursor_DeclRefExpr ||
				    c->nodes[b].var < 0 || !c->vars[c->nodes[b].var].is_array)
					return -1;
				n = b;
			} else if (y->kind == CXCursor_MemberRefExpr && y->nkids &&
			           !an_node_is_ptr(c, y->kids[0])) {
				n = an_strip(c, y->kids[0]);
			} else {
				return -1;
			}
		}
		if (n < 0)
			return -1;
		x = &c->nodes[n];
	} else if (x->kind != CXCursor_DeclRefExpr || x->var < 0 || !c->vars[x->var].is_array) {
		return -1;
	}
	if (x->kind != CXCursor_DeclRefExpr || x->var < 0)
		return -1;
	an_var *v = &c->vars[x->var];
	if (v->func < 0 || v->param >= 0 || v->is_ptr || v->as == AN_AS_LOCAL ||
	    v->is_local_mem)
		return -1;
	return x->var;
}

void an_note_out_needed(an_ctx *c, int v, int f, const char *inR)
{
	for (unsigned n = (unsigned)c->func_node[f]; n < an_func_end(c, f); n++) {
		an_node *x = &c->nodes[n];
		if (x->kind != CXCursor_CallExpr || x->fn_ref < 0 || c->out_needed[v][x->fn_ref])
			continue;
		for (unsigned i = 1; i < x->nkids; i++) {
			int a = x->kids[i];
			if (!an_node_is_ptr(c, a))
				continue;
			unsigned as = an_type_as(an_node_pointee(c, a));
			if (as == AN_AS_GLOBAL || as == AN_AS_CONSTANT)
				continue;
			int y = an_private_root(c, a);
			if (y < 0 || inR[y])
				c->out_needed[v][x->fn_ref] = 1;
		}
	}
}
