/* SPDX-License-Identifier: MIT */
/*
 * pattern.c - points-to sets, data taint, address patterns, and the
 * reasons a kernel cannot be virtualized.
 *
 * Points-to is flow-insensitive and context-insensitive, computed per
 * kernel over the functions it reaches: each pointer variable, helper
 * parameter and helper return value gets a bit set of the kernel's buffer
 * parameters (bit i = parameter i) plus AN_PT_UNKNOWN for anything vastcc
 * cannot follow (integer casts, pointers loaded from memory). Constraints
 * are iterated to a fixed point; extra bits are safe, missing ones are not.
 *
 * Taint marks variables whose value depends on data loaded from global
 * memory, through assignments and through the branches around them
 * (an implicit flow changes addresses just as well). An access is
 * indirect when its address or an enclosing condition is tainted; affine
 * when its address is built from work-item ids, constants, scalar
 * parameters and loop induction variables with + - and multiplication by
 * invariants (DESIGN 2.1); direct otherwise.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

void an_not_virtualizable(an_ctx *c, int kern, an_loc loc, const char *fmt, ...)
{
	an_func *f = &c->p->funcs[kern];
	if (!f->virtualizable)
		return;
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	f->virtualizable = 0;
	f->reason = an_xstrdup(buf);
	f->reason_loc = loc;
}

static unsigned func_end(an_ctx *c, int f)
{
	return (unsigned)f + 1 < c->p->nfuncs ? (unsigned)c->func_node[f + 1] : c->nnodes;
}

static int param_var(an_ctx *c, int f, unsigned i)
{
	an_node *x = &c->nodes[c->func_node[f]];
	for (unsigned k = 0; k < x->nkids; k++) {
		an_node *y = &c->nodes[x->kids[k]];
		if (y->kind == CXCursor_ParmDecl && y->var >= 0 && c->vars[y->var].param == (int)i)
			return y->var;
	}
	return -1;
}

static int scalar_type(CXType t)
{
	t = clang_getCanonicalType(t);
	return (t.kind >= CXType_Void && t.kind <= CXType_LongDouble) || t.kind == CXType_Half ||
	       t.kind == CXType_ExtVector || t.kind == CXType_Vector || t.kind == CXType_Enum;
}

/* ---- points-to -------------------------------------------------------- */

static uint64_t pts_lvalue(an_ctx *c, an_kfacts *k, int kern, int n, int addr);

static int is_array_type(CXType t)
{
	enum CXTypeKind kd = clang_getCanonicalType(t).kind;
	return kd == CXType_ConstantArray || kd == CXType_IncompleteArray ||
	       kd == CXType_VariableArray;
}

/* An array-typed lvalue (`s[i].arr`, `p->arr`, `m[i]` of a 2-D array)
 * decays to its own address (C99 6.3.2.1p3): the buffers it lies in,
 * which are those of the access chain's base pointer. An array member of
 * a private struct lies in private memory. */
static uint64_t pts_array(an_ctx *c, an_kfacts *k, int kern, int n)
{
	int b = an_access_base(c, n);
	if (b >= 0)
		return an_pts_expr(c, k, kern, b);
	int m = an_strip(c, n);
	while (m >= 0 && (c->nodes[m].kind == CXCursor_MemberRefExpr ||
	                  c->nodes[m].kind == CXCursor_ArraySubscriptExpr) &&
	       c->nodes[m].nkids)
		m = an_strip(c, c->nodes[m].kids[0]);
	if (m >= 0 && c->nodes[m].kind == CXCursor_DeclRefExpr && c->nodes[m].var >= 0) {
		an_var *v = &c->vars[c->nodes[m].var];
		if (v->func < 0)
			return an_pts_expr(c, k, kern, m);
		if (v->param < 0 && !v->is_ptr)
			return 0; /* a private variable */
	}
	return AN_PT_UNKNOWN;
}

/* A loop, not a recursion, down the one operand that carries the pointer
 * (`a + 1 + 1 + ...` may have thousands). */
/* A loop, not a recursion, down the one operand that carries the pointer
 * (`a + 1 + 1 + ...` may have thousands) and down the last arm of ?:. */
uint64_t an_pts_expr(an_ctx *c, an_kfacts *k, int kern, int n)
{
	uint64_t acc = 0; /* of the ?: arms left behind */
	for (;;) {
		if (n < 0)
			return acc;
		an_node *x = &c->nodes[n];
		CXType t = an_node_type(c, n);
		if (x->kind != CXCursor_DeclRefExpr && scalar_type(t))
			return acc;
		switch (x->kind) {
		case CXCursor_DeclRefExpr: {
			if (x->var < 0)
				return acc;
			an_var *v = &c->vars[x->var];
			if (v->func < 0)
				return acc | (v->as == AN_AS_CONSTANT ? AN_PT_CONSTVAR
				            : v->as == AN_AS_GLOBAL ? AN_PT_GLOBALVAR : 0);
			if (v->func == kern && v->param >= 0) {
				unsigned kind = c->p->funcs[kern].params[v->param].kind;
				if (kind == VAST_PARAM_GLOBAL || kind == VAST_PARAM_CONSTANT)
					return acc | (v->param < 32 ? 1ull << v->param : AN_PT_UNKNOWN);
				return acc;
			}
			return acc | k->pts[x->var];
		}
		case CXCursor_ParenExpr:
		case CXCursor_UnexposedExpr:
		case CXCursor_CStyleCastExpr: {
			if (!x->nkids)
				return acc | (an_type_is_ptr(t) ? AN_PT_UNKNOWN : 0);
			int ch = x->kids[x->nkids - 1];
			CXType ct = clang_getCanonicalType(an_node_type(c, ch));
			if (an_type_is_ptr(t) && ct.kind >= CXType_Bool && ct.kind <= CXType_Int128) {
				if (c->nodes[an_strip(c, ch)].kind == CXCursor_IntegerLiteral)
					return acc; /* a null pointer */
				return acc | AN_PT_UNKNOWN;
			}
			n = ch;
			continue;
		}
		case CXCursor_BinaryOperator:
			if (x->nkids != 2)
				return acc;
			if (x->op == CXBinaryOperator_Assign || x->op == CXBinaryOperator_Comma) {
				n = x->kids[1];
				continue;
			}
			if (x->op == CXBinaryOperator_Add || x->op == CXBinaryOperator_Sub) {
				/* p + i, i + p, p - i: one pointer operand (C99
				 * 6.5.6; p - q is an integer, scalar above) */
				n = an_node_is_ptr(c, x->kids[0]) ? x->kids[0] : x->kids[1];
				if (!an_node_is_ptr(c, n))
					return acc;
				continue;
			}
			return acc | (an_type_is_ptr(t) ? AN_PT_UNKNOWN : 0);
		case CXCursor_CompoundAssignOperator:
			if (!x->nkids)
				return acc;
			n = x->kids[0];
			continue;
		case CXCursor_UnaryOperator:
			if (!x->nkids)
				return acc;
			if (x->op == CXUnaryOperator_AddrOf)
				return acc | pts_lvalue(c, k, kern, x->kids[0], 1);
			if (x->op == CXUnaryOperator_Deref)
				return acc | pts_lvalue(c, k, kern, n, 0);
			n = x->kids[0];
			continue;
		case CXCursor_ConditionalOperator:
			/* `c1 ? p : c2 ? q : ...` nests in the last arm */
			if (x->nkids != 3)
				return acc | AN_PT_UNKNOWN;
			acc |= an_pts_expr(c, k, kern, x->kids[1]);
			n = x->kids[2];
			continue;
		case CXCursor_CallExpr: {
			if (x->fn_ref >= 0)
				return acc | k->ret[x->fn_ref];
			uint64_t r = 0; /* to_global() and friends return their argument */
			for (unsigned i = 1; i < x->nkids; i++)
				if (an_node_is_ptr(c, x->kids[i]))
					r |= an_pts_expr(c, k, kern, x->kids[i]);
			return acc | (r ? r : AN_PT_UNKNOWN);
		}
		case CXCursor_ArraySubscriptExpr:
		case CXCursor_MemberRefExpr:
			if (is_array_type(t))
				return acc | pts_array(c, k, kern, n);
			return acc | pts_lvalue(c, k, kern, n, 0);
		case CXCursor_InitListExpr: {
			uint64_t r = 0;
			for (unsigned i = 0; i < x->nkids; i++)
				r |= an_pts_expr(c, k, kern, x->kids[i]);
			return acc | r;
		}
		default:
			return acc | AN_PT_UNKNOWN;
		}
	}
}

/* The value stored in the lvalue n: pointers kept in private arrays and
 * structs are followed through their variable; pointers loaded from any
 * other memory are unknown. With addr, for &E (called on E, in whatever
 * parentheses: `&(a[i])`, `&((a))[i]`), the buffers E lies in. */
static uint64_t pts_lvalue(an_ctx *c, an_kfacts *k, int kern, int n, int addr)
{
	n = an_strip(c, n);
	if (n < 0)
		return AN_PT_UNKNOWN;
	an_node *x = &c->nodes[n];
	if (x->kind == CXCursor_DeclRefExpr) {
		if (x->var < 0)
			return 0;
		an_var *v = &c->vars[x->var];
		if (addr)
			return v->func < 0 ? an_pts_expr(c, k, kern, n) : 0;
		return an_pts_expr(c, k, kern, n);
	}
	if (addr) {
		int b = an_access_base(c, n);
		if (b >= 0)
			return an_pts_expr(c, k, kern, b);
		if (x->kind == CXCursor_MemberRefExpr && x->nkids)
			return pts_lvalue(c, k, kern, x->kids[0], 1) & ~AN_PT_UNKNOWN;
		return AN_PT_UNKNOWN;
	}
	/* a pointer loaded from an lvalue: follow private variables */
	int through = 0, m = n;
	for (;;) {
		an_node *y = &c->nodes[m];
		if (y->kind == CXCursor_DeclRefExpr)
			break;
		if (y->kind == CXCursor_ArraySubscriptExpr && y->nkids == 2) {
			int b = an_strip(c, y->kids[0]);
			if (b >= 0 && c->nodes[b].kind == CXCursor_DeclRefExpr && c->nodes[b].var >= 0 &&
			    c->vars[c->nodes[b].var].is_array) {
				m = b;
				continue;
			}
			through = 1;
			break;
		}
		if (y->kind == CXCursor_MemberRefExpr && y->nkids &&
		    !an_node_is_ptr(c, y->kids[0])) {
			m = an_strip(c, y->kids[0]);
			if (m < 0)
				return AN_PT_UNKNOWN;
			continue;
		}
		through = 1;
		break;
	}
	if (through || c->nodes[m].var < 0 || c->vars[c->nodes[m].var].func < 0)
		return AN_PT_UNKNOWN;
	return k->pts[c->nodes[m].var];
}

static int lhs_var(an_ctx *c, int lhs, int *mem)
{
	*mem = 0;
	int n = an_strip(c, lhs);
	while (n >= 0) {
		an_node *y = &c->nodes[n];
		if (y->kind == CXCursor_DeclRefExpr)
			return y->var >= 0 && c->vars[y->var].func >= 0 ? y->var : -1;
		if (y->kind == CXCursor_ArraySubscriptExpr && y->nkids == 2) {
			int b = an_strip(c, y->kids[0]);
			if (b >= 0 && c->nodes[b].kind == CXCursor_DeclRefExpr && c->nodes[b].var >= 0 &&
			    c->vars[c->nodes[b].var].is_array) {
				n = b;
				continue;
			}
		} else if (y->kind == CXCursor_MemberRefExpr && y->nkids &&
		           !an_node_is_ptr(c, y->kids[0])) {
			n = an_strip(c, y->kids[0]);
			continue;
		}
		break;
	}
	*mem = 1;
	return -1;
}

static void reach(an_ctx *c, unsigned char *r, int f)
{
	if (r[f])
		return;
	r[f] = 1;
	for (unsigned n = (unsigned)c->func_node[f]; n < func_end(c, f); n++)
		if (c->nodes[n].fn_ref >= 0)
			reach(c, r, c->nodes[n].fn_ref);
}

static int or_into(uint64_t *dst, uint64_t v)
{
	if ((*dst | v) == *dst)
		return 0;
	*dst |= v;
	return 1;
}

static void kernel_points_to(an_ctx *c, int kern)
{
	an_program *p = c->p;
	an_kfacts *k = &c->kf[kern];
	k->pts = an_xcalloc(c->nvars + 1, sizeof *k->pts);
	k->ret = an_xcalloc(p->nfuncs, sizeof *k->ret);
	k->reach = an_xcalloc(p->nfuncs, 1);
	k->acc_bits = an_xcalloc(p->naccesses + 1, sizeof *k->acc_bits);
	reach(c, k->reach, kern);
	int changed = 1, rounds = 0;
	while (changed && rounds++ < 100) {
		changed = 0;
		for (unsigned f = 0; f < p->nfuncs; f++) {
			if (!k->reach[f])
				continue;
			for (unsigned n = (unsigned)c->func_node[f]; n < func_end(c, (int)f); n++) {
				an_node *x = &c->nodes[n];
				if (x->kind == CXCursor_VarDecl && x->var >= 0) {
					int e = an_var_init(c, (int)n);
					if (e >= 0)
						changed |= or_into(&k->pts[x->var], an_pts_expr(c, k, kern, e));
				} else if ((x->kind == CXCursor_BinaryOperator && x->op == CXBinaryOperator_Assign) ||
				           x->kind == CXCursor_CompoundAssignOperator) {
					if (x->nkids != 2)
						continue;
					int mem;
					int v = lhs_var(c, x->kids[0], &mem);
					uint64_t r = an_pts_expr(c, k, kern, x->kids[1]);
					if (v >= 0)
						changed |= or_into(&k->pts[v], r);
				} else if (x->kind == CXCursor_CallExpr && x->fn_ref >= 0) {
					for (unsigned i = 1; i < x->nkids; i++) {
						int pv = param_var(c, x->fn_ref, i - 1);
						if (pv >= 0)
							changed |= or_into(&k->pts[pv],
							                   an_pts_expr(c, k, kern, x->kids[i]));
					}
				} else if (x->kind == CXCursor_ReturnStmt && x->nkids) {
					changed |= or_into(&k->ret[f], an_pts_expr(c, k, kern, x->kids[0]));
				}
			}
		}
	}
	/* pointers to buffers stored into memory escape the analysis */
	for (unsigned f = 0; f < p->nfuncs; f++) {
		if (!k->reach[f])
			continue;
		for (unsigned n = (unsigned)c->func_node[f]; n < func_end(c, (int)f); n++) {
			an_node *x = &c->nodes[n];
			if (x->kind == CXCursor_BinaryOperator && x->op == CXBinaryOperator_Assign &&
			    x->nkids == 2) {
				int mem;
				lhs_var(c, x->kids[0], &mem);
				uint64_t r = an_pts_expr(c, k, kern, x->kids[1]);
				if (mem && (r & (AN_PT_PARAMS | AN_PT_GLOBALVAR)))
					an_not_virtualizable(c, kern, an_node_loc(c, (int)n),
					                     "a pointer to global memory is stored into memory");
			} else if (x->kind == CXCursor_CStyleCastExpr && x->nkids) {
				/* `(ulong)p`: in the paged kernel p is a virtual address,
				 * so the integer differs from the native run's */
				int ch = x->kids[x->nkids - 1];
				CXType t = clang_getCanonicalType(an_node_type(c, (int)n));
				if (t.kind >= CXType_Bool && t.kind <= CXType_Int128 &&
				    an_node_is_ptr(c, ch) &&
				    (an_pts_expr(c, k, kern, ch) & (AN_PT_PARAMS | AN_PT_GLOBALVAR)))
					an_not_virtualizable(c, kern, an_node_loc(c, (int)n),
					                     "a pointer to global memory is converted to an integer");
			}
		}
	}
}

/* ---- taint ------------------------------------------------------------ */

/* Per function: its return value, whether it runs under a tainted
 * condition, and whether it may store data that depends on global memory
 * through a private or local pointer (into its caller's variables). */
static int *ret_taint, *fn_ctl_taint, *store_taint;

/* Does the value of expression n (less node self) depend on global data? */
static int expr_tainted(an_ctx *c, int n, int self)
{
	for (int m = n; m <= c->nodes[n].last; m++) {
		an_node *x = &c->nodes[m];
		if (m == self)
			continue;
		if (x->access >= 0)
			return 1;
		if (x->kind == CXCursor_DeclRefExpr && x->var >= 0 && c->vars[x->var].tainted)
			return 1;
		if (x->kind == CXCursor_CallExpr && x->fn_ref >= 0 && ret_taint[x->fn_ref])
			return 1;
	}
	return 0;
}

/* Conditions that decide whether node n runs: the headers of the control
 * statements around it and the ?: && || conditions inside its statement. */
static int ctl_tainted(an_ctx *c, int n)
{
	an_node *x = &c->nodes[n];
	if (x->func >= 0 && fn_ctl_taint[x->func])
		return 1;
	for (int m = n, p = x->parent; p >= 0; m = p, p = c->nodes[p].parent) {
		an_node *y = &c->nodes[p];
		if (y->kind == CXCursor_ConditionalOperator && y->nkids == 3 && m != y->kids[0]) {
			if (expr_tainted(c, y->kids[0], -1))
				return 1;
		} else if (y->kind == CXCursor_BinaryOperator && y->nkids == 2 && m == y->kids[1] &&
		           (y->op == CXBinaryOperator_LAnd || y->op == CXBinaryOperator_LOr)) {
			if (expr_tainted(c, y->kids[0], -1))
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
				if (c->nodes[h].header && h != m && expr_tainted(c, h, -1))
					return 1;
			}
		}
	}
	return 0;
}

static int def_tainted(an_ctx *c, int d)
{
	an_node *x = &c->nodes[d];
	if (ctl_tainted(c, d))
		return 1;
	switch (x->kind) {
	case CXCursor_VarDecl: {
		int e = an_var_init(c, d);
		return e >= 0 && expr_tainted(c, e, -1);
	}
	case CXCursor_BinaryOperator:
	case CXCursor_CompoundAssignOperator:
		return x->nkids == 2 && expr_tainted(c, x->kids[1], -1);
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
			return call->fn_ref >= 0 ? store_taint[call->fn_ref] : expr_tainted(c, p, -1);
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
		return x->fn_ref >= 0 ? store_taint[x->fn_ref]
		                      : expr_tainted(c, n, -1) || ctl_tainted(c, n);
	return 0;
}

static void taint(an_ctx *c)
{
	an_program *p = c->p;
	ret_taint = an_xcalloc(p->nfuncs + 1, sizeof *ret_taint);
	fn_ctl_taint = an_xcalloc(p->nfuncs + 1, sizeof *fn_ctl_taint);
	store_taint = an_xcalloc(p->nfuncs + 1, sizeof *store_taint);
	int changed = 1;
	while (changed) {
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
			if (!store_taint[x->func] && stores_tainted(c, (int)n)) {
				store_taint[x->func] = 1;
				changed = 1;
			}
			if (x->kind == CXCursor_CallExpr && x->fn_ref >= 0) {
				int g = x->fn_ref;
				if (!fn_ctl_taint[g] && ctl_tainted(c, (int)n)) {
					fn_ctl_taint[g] = 1;
					changed = 1;
				}
				for (unsigned i = 1; i < x->nkids; i++) {
					int pv = param_var(c, g, i - 1);
					if (pv >= 0 && !c->vars[pv].tainted &&
					    expr_tainted(c, x->kids[i], -1)) {
						c->vars[pv].tainted = 1;
						changed = 1;
					}
				}
			} else if (x->kind == CXCursor_ReturnStmt && x->func >= 0 && !ret_taint[x->func]) {
				if ((x->nkids && expr_tainted(c, x->kids[0], -1)) || ctl_tainted(c, (int)n)) {
					ret_taint[x->func] = 1;
					changed = 1;
				}
			}
		}
	}
}

/* ---- affine classes --------------------------------------------------- */

enum { CLS_CONST, CLS_AFFINE, CLS_OTHER };

static int max2(int a, int b) { return a > b ? a : b; }

static int cls(an_ctx *c, int n, int depth);

static int induction(an_ctx *c, int v, int depth)
{
	/* every definition in the header of one for statement */
	int stmt = -1, init_cls = CLS_CONST;
	for (unsigned d = 0; d < c->ndefs; d++) {
		if (c->defs[d].var != v)
			continue;
		an_node *x = &c->nodes[c->defs[d].node];
		if (!x->header || c->p->stmts[x->stmt].kind != AN_STMT_FOR)
			return -1;
		if (stmt >= 0 && stmt != x->stmt)
			return -1;
		stmt = x->stmt;
		if (x->kind == CXCursor_VarDecl) {
			int e = an_var_init(c, c->defs[d].node);
			init_cls = max2(init_cls, e >= 0 ? cls(c, e, depth + 1) : CLS_OTHER);
		} else if (x->kind == CXCursor_BinaryOperator && x->nkids == 2) {
			init_cls = max2(init_cls, cls(c, x->kids[1], depth + 1));
		} else if (x->kind == CXCursor_CompoundAssignOperator && x->nkids == 2) {
			if ((x->op != CXBinaryOperator_AddAssign && x->op != CXBinaryOperator_SubAssign) ||
			    cls(c, x->kids[1], depth + 1) != CLS_CONST)
				return -1;
		} else if (x->kind != CXCursor_UnaryOperator) {
			return -1;
		}
	}
	if (stmt < 0 || init_cls == CLS_OTHER)
		return -1;
	return CLS_AFFINE;
}

/* The node runs inside a loop of its function (header or body). */
int an_in_loop(an_ctx *c, int n)
{
	for (int s = c->nodes[n].stmt; s >= 0; s = c->p->stmts[s].parent) {
		enum an_stmt_kind k = c->p->stmts[s].kind;
		if (k == AN_STMT_FOR || k == AN_STMT_WHILE || k == AN_STMT_DO)
			return 1;
	}
	return 0;
}

/* A parameter the function reassigns (`p += get_local_id(0);`): the join
 * of what it is given and of every value assigned to it, as long as no
 * assignment repeats in a loop. */
static int reassigned_cls(an_ctx *c, int v, int given, int depth)
{
	int m = given;
	for (unsigned d = 0; d < c->ndefs && m < CLS_OTHER; d++) {
		if (c->defs[d].var != v)
			continue;
		int n = c->defs[d].node;
		an_node *x = &c->nodes[n];
		if (an_in_loop(c, n))
			return CLS_OTHER;
		if (x->kind == CXCursor_CompoundAssignOperator && x->nkids == 2 &&
		    (x->op == CXBinaryOperator_AddAssign || x->op == CXBinaryOperator_SubAssign))
			m = max2(m, cls(c, x->kids[1], depth + 1));
		else if (x->kind == CXCursor_BinaryOperator && x->op == CXBinaryOperator_Assign &&
		         x->nkids == 2)
			m = max2(m, cls(c, x->kids[1], depth + 1));
		else if (x->kind != CXCursor_UnaryOperator || x->op == CXUnaryOperator_AddrOf)
			return CLS_OTHER;
	}
	return m;
}

static int var_cls(an_ctx *c, int v, int depth)
{
	an_var *x = &c->vars[v];
	if (x->func < 0)
		return CLS_CONST;
	if (x->param >= 0) {
		int given = c->p->funcs[x->func].is_kernel ? CLS_CONST
		          : (x->cls < 0 ? CLS_CONST : x->cls);
		if (x->ndefs == 0)
			return given;
		if (x->addr_taken || depth > 20)
			return CLS_OTHER;
		return reassigned_cls(c, v, given, depth);
	}
	if (x->addr_taken || x->is_array || depth > 20)
		return CLS_OTHER;
	if (x->ndefs == 0 && x->has_init && x->node >= 0) {
		int e = an_var_init(c, x->node);
		return e >= 0 ? cls(c, e, depth + 1) : CLS_OTHER;
	}
	int ind = induction(c, v, depth);
	return ind >= 0 ? ind : CLS_OTHER;
}

static int cls(an_ctx *c, int n, int depth)
{
	if (n < 0 || depth > 40)
		return CLS_OTHER;
	an_node *x = &c->nodes[n];
	switch (x->kind) {
	case CXCursor_IntegerLiteral:
	case CXCursor_FloatingLiteral:
	case CXCursor_CharacterLiteral:
	case CXCursor_UnaryExpr:
		return CLS_CONST;
	case CXCursor_DeclRefExpr:
		return x->var >= 0 ? var_cls(c, x->var, depth) : CLS_CONST;
	case CXCursor_ParenExpr:
	case CXCursor_UnexposedExpr:
	case CXCursor_CStyleCastExpr:
		return x->nkids ? cls(c, x->kids[x->nkids - 1], depth + 1) : CLS_OTHER;
	case CXCursor_BinaryOperator: {
		if (x->nkids != 2)
			return CLS_OTHER;
		int a = cls(c, x->kids[0], depth + 1), b = cls(c, x->kids[1], depth + 1);
		switch (x->op) {
		case CXBinaryOperator_Add:
		case CXBinaryOperator_Sub:
			return max2(a, b);
		case CXBinaryOperator_Mul:
			return a == CLS_CONST ? b : b == CLS_CONST ? a : CLS_OTHER;
		case CXBinaryOperator_Shl:
			return b == CLS_CONST ? a : CLS_OTHER;
		default:
			return max2(a, b) == CLS_CONST && x->op != CXBinaryOperator_Assign &&
			       x->op < CXBinaryOperator_Assign ? CLS_CONST : CLS_OTHER;
		}
	}
	case CXCursor_UnaryOperator:
		if (!x->nkids)
			return CLS_OTHER;
		if (x->op == CXUnaryOperator_Plus || x->op == CXUnaryOperator_Minus)
			return cls(c, x->kids[0], depth + 1);
		if (x->op == CXUnaryOperator_AddrOf) {
			/* &p[i], &s->f: the address of an lvalue */
			int l = an_strip(c, x->kids[0]);
			if (l < 0 || c->nodes[l].kind == CXCursor_DeclRefExpr)
				return CLS_OTHER;
			int m = CLS_CONST;
			for (unsigned i = 0; i < c->nodes[l].nkids; i++)
				m = max2(m, cls(c, c->nodes[l].kids[i], depth + 1));
			return m;
		}
		if (x->op == CXUnaryOperator_Not || x->op == CXUnaryOperator_LNot)
			return cls(c, x->kids[0], depth + 1) == CLS_CONST ? CLS_CONST : CLS_OTHER;
		return CLS_OTHER;
	case CXCursor_CallExpr:
		if (x->call >= 0) {
			switch (c->p->calls[x->call].builtin) {
			case AN_BI_GLOBAL_ID: case AN_BI_LOCAL_ID: case AN_BI_GROUP_ID:
			case AN_BI_GLOBAL_LINEAR_ID: case AN_BI_LOCAL_LINEAR_ID:
				return CLS_AFFINE;
			case AN_BI_NONE:
				return CLS_OTHER;
			default:
				return CLS_CONST;
			}
		}
		return CLS_OTHER;
	case CXCursor_ConditionalOperator: {
		int m = CLS_CONST;
		for (unsigned i = 0; i < x->nkids; i++)
			m = max2(m, cls(c, x->kids[i], depth + 1));
		return m == CLS_CONST ? CLS_CONST : CLS_OTHER;
	}
	default:
		return CLS_OTHER;
	}
}

/* The nodes that make an access's address. */
static int addr_cls(an_ctx *c, an_access *a, int n)
{
	an_node *x = &c->nodes[n];
	if (x->kind == CXCursor_CallExpr) {
		int m = CLS_CONST;
		for (unsigned i = 1; i < x->nkids; i++) {
			an_node *y = &c->nodes[x->kids[i]];
			if ((y->begin == a->ptr.begin && y->end == a->ptr.end) ||
			    (a->off.end && y->begin == a->off.begin && y->end == a->off.end))
				m = max2(m, cls(c, x->kids[i], 0));
		}
		return m;
	}
	if (x->kind == CXCursor_MemberRefExpr && x->nkids &&
	    !an_node_is_ptr(c, x->kids[0]))
		return addr_cls(c, a, an_strip(c, x->kids[0]));
	int m = CLS_CONST;
	for (unsigned i = 0; i < x->nkids; i++)
		m = max2(m, cls(c, x->kids[i], 0));
	return m;
}

static int addr_tainted(an_ctx *c, an_access *a, int n)
{
	an_node *x = &c->nodes[n];
	if (x->kind == CXCursor_CallExpr) {
		for (unsigned i = 1; i < x->nkids; i++) {
			an_node *y = &c->nodes[x->kids[i]];
			if (((y->begin == a->ptr.begin && y->end == a->ptr.end) ||
			     (a->off.end && y->begin == a->off.begin && y->end == a->off.end)) &&
			    expr_tainted(c, x->kids[i], -1))
				return 1;
		}
		return 0;
	}
	return expr_tainted(c, n, n);
}

/* ---- the passes ------------------------------------------------------- */

/* An access through a pointer vastcc cannot follow may reach any buffer
 * argument: every __global one when it writes (the kernel runs natively,
 * and the runtime must bring back all it may have written, read and
 * written since bytes it does not write keep their values), every
 * __global and __constant one when it reads. */
static uint64_t untraced(an_ctx *c, int kern, unsigned mode)
{
	an_func *fn = &c->p->funcs[kern];
	uint64_t bits = 0;
	for (unsigned i = 0; i < fn->nparams && i < 32; i++) {
		an_param *pa = &fn->params[i];
		if (pa->kind == VAST_PARAM_GLOBAL && (mode & VAST_MODE_W))
			pa->mode |= VAST_MODE_RW;
		if (pa->kind == VAST_PARAM_GLOBAL ||
		    (pa->kind == VAST_PARAM_CONSTANT && !(mode & VAST_MODE_W)))
			bits |= 1ull << i;
	}
	return bits;
}

void an_points_to(an_ctx *c)
{
	an_program *p = c->p;
	c->kf = an_xcalloc(p->nfuncs + 1, sizeof *c->kf);
	for (unsigned f = 0; f < p->nfuncs; f++) {
		if (!p->funcs[f].is_kernel)
			continue;
		kernel_points_to(c, (int)f);
		an_kfacts *k = &c->kf[f];
		unsigned nbuf = 0;
		for (unsigned i = 0; i < p->funcs[f].nparams; i++) {
			unsigned kind = p->funcs[f].params[i].kind;
			if (kind == VAST_PARAM_GLOBAL || kind == VAST_PARAM_CONSTANT) {
				nbuf++;
				if (i >= 32) {
					/* Points-to sets have 32 bits: past them
					 * nothing is known, so assume the widest
					 * mode its address space allows. */
					an_param *pa = &p->funcs[f].params[i];
					pa->mode |= kind == VAST_PARAM_GLOBAL ? VAST_MODE_RW : VAST_MODE_R;
					an_not_virtualizable(c, (int)f, pa->loc,
					                     "buffer parameter '%s' comes after the 32nd parameter",
					                     pa->name);
				}
			}
		}
		if (nbuf > VAST_MAX_SLOTS)
			an_not_virtualizable(c, (int)f, p->funcs[f].loc,
			                     "more than %d buffer parameters", VAST_MAX_SLOTS);
		for (unsigned b = 0; b < c->nbad; b++)
			if (c->bad[b].func >= 0 && k->reach[c->bad[b].func])
				an_not_virtualizable(c, (int)f, an_node_loc(c, c->bad[b].node), "%s",
				                     c->bad[b].reason);
		for (unsigned node = 0; node < c->nnodes; node++) {
			int ai = c->nodes[node].access;
			if (ai < 0 || !k->reach[c->nodes[node].func])
				continue;
			an_access *a = &p->accesses[ai];
			int base = an_access_base(c, (int)node);
			uint64_t bits = base >= 0 ? an_pts_expr(c, k, (int)f, base) : AN_PT_UNKNOWN;
			if (bits & AN_PT_GLOBALVAR)
				an_not_virtualizable(c, (int)f, a->loc, "a program-scope __global variable");
			else if (bits & AN_PT_CONSTVAR)
				an_not_virtualizable(c, (int)f, a->loc,
				                     "a pointer that may point into a program-scope "
				                     "__constant variable");
			else if ((bits & AN_PT_UNKNOWN) || !(bits & AN_PT_PARAMS))
				an_not_virtualizable(c, (int)f, a->loc,
				                     "a pointer vastcc cannot trace to a kernel argument");
			if ((bits & AN_PT_UNKNOWN) || !bits)
				bits |= untraced(c, (int)f, a->mode);
			k->acc_bits[ai] = (unsigned)(bits & AN_PT_PARAMS);
			a->params |= (unsigned)(bits & AN_PT_PARAMS);
			/* the merge kernel copies a component store's bytes
			 * (part_off/part_size) alone; other partial stores
			 * (`.xz`, `v[i][k]`) would copy the whole element */
			if ((a->mode & VAST_MODE_ATOMIC) ||
			    (c->nodes[node].partial && !a->part_size))
				p->funcs[f].merge_exact = 0;
		}
	}
}

void an_patterns(an_ctx *c)
{
	an_program *p = c->p;
	taint(c);
	/* helper parameter classes: join over the call sites, from CONST up */
	for (unsigned v = 0; v < c->nvars; v++)
		if (c->vars[v].param >= 0)
			c->vars[v].cls = CLS_CONST;
	for (int round = 0, changed = 1; changed && round < 10; round++) {
		changed = 0;
		for (unsigned n = 0; n < c->nnodes; n++) {
			an_node *x = &c->nodes[n];
			if (x->kind != CXCursor_CallExpr || x->fn_ref < 0)
				continue;
			for (unsigned i = 1; i < x->nkids; i++) {
				int pv = param_var(c, x->fn_ref, i - 1);
				if (pv < 0)
					continue;
				int k = cls(c, x->kids[i], 0);
				if (k > c->vars[pv].cls) {
					c->vars[pv].cls = k;
					changed = 1;
				}
			}
		}
	}
	for (unsigned n = 0; n < c->nnodes; n++) {
		an_node *x = &c->nodes[n];
		if (x->access < 0)
			continue;
		an_access *a = &p->accesses[x->access];
		if (addr_tainted(c, a, (int)n) || ctl_tainted(c, (int)n))
			a->pattern = VAST_PAT_INDIRECT;
		else if (addr_cls(c, a, (int)n) <= CLS_AFFINE)
			a->pattern = VAST_PAT_AFFINE;
		else
			a->pattern = VAST_PAT_DIRECT;
	}
	free(ret_taint);
	free(fn_ctl_taint);
	free(store_taint);
	ret_taint = fn_ctl_taint = store_taint = NULL;
}
