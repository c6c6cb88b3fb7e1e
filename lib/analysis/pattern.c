/* SPDX-License-Identifier: MIT */
/*
 * pattern.c - the address pattern of every access (DESIGN 2.1).
 *
 * An access is indirect when its address or an enclosing condition is
 * tainted (taint.c); affine when its address is built from work-item ids,
 * constants, scalar parameters and loop induction variables with + - and
 * multiplication by invariants; direct otherwise. Helper parameters take
 * the join of the classes their call sites pass, iterated to a fixed
 * point. A variable's class is computed once per round (memoized in the
 * context), so a chain of definitions is followed to its end whatever
 * its length, and one that reaches itself is OTHER, never cut off at an
 * arbitrary depth.
 */
#include <string.h>

#include "internal.h"

enum { CLS_CONST, CLS_AFFINE, CLS_OTHER };

static int max2(int a, int b) { return a > b ? a : b; }

static int cls(an_ctx *c, int n);

static int induction(an_ctx *c, int v)
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
			init_cls = max2(init_cls, e >= 0 ? cls(c, e) : CLS_OTHER);
		} else if (x->kind == CXCursor_BinaryOperator && x->nkids == 2) {
			init_cls = max2(init_cls, cls(c, x->kids[1]));
		} else if (x->kind == CXCursor_CompoundAssignOperator && x->nkids == 2) {
			if ((x->op != CXBinaryOperator_AddAssign && x->op != CXBinaryOperator_SubAssign) ||
			    cls(c, x->kids[1]) != CLS_CONST)
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
static int reassigned_cls(an_ctx *c, int v, int given)
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
			m = max2(m, cls(c, x->kids[1]));
		else if (x->kind == CXCursor_BinaryOperator && x->op == CXBinaryOperator_Assign &&
		         x->nkids == 2)
			m = max2(m, cls(c, x->kids[1]));
		else if (x->kind != CXCursor_UnaryOperator || x->op == CXUnaryOperator_AddrOf)
			return CLS_OTHER;
	}
	return m;
}

static int var_cls_of(an_ctx *c, int v)
{
	an_var *x = &c->vars[v];
	if (x->func < 0)
		return CLS_CONST;
	if (x->param >= 0) {
		int given = c->p->funcs[x->func].is_kernel ? CLS_CONST
		          : (x->cls < 0 ? CLS_CONST : x->cls);
		if (x->ndefs == 0)
			return given;
		if (x->addr_taken)
			return CLS_OTHER;
		return reassigned_cls(c, v, given);
	}
	if (x->addr_taken || x->is_array)
		return CLS_OTHER;
	if (x->ndefs == 0 && x->has_init && x->node >= 0) {
		int e = an_var_init(c, x->node);
		return e >= 0 ? cls(c, e) : CLS_OTHER;
	}
	int ind = induction(c, v);
	return ind >= 0 ? ind : CLS_OTHER;
}

/* A variable's class, computed once per round (c->cls_memo): a chain of
 * definitions of any length is followed to its end. One that reaches
 * itself (`p = q; q = p;` of reassigned parameters) is OTHER. */
static int var_cls(an_ctx *c, int v)
{
	signed char *m = &c->cls_memo[v];
	if (*m < 0)
		return CLS_OTHER;
	if (*m == 0) {
		*m = -1;
		*m = (signed char)(var_cls_of(c, v) + 1);
	}
	return *m - 1;
}

static int cls(an_ctx *c, int n)
{
	if (n < 0)
		return CLS_OTHER;
	an_node *x = &c->nodes[n];
	switch (x->kind) {
	case CXCursor_IntegerLiteral:
	case CXCursor_FloatingLiteral:
	case CXCursor_CharacterLiteral:
	case CXCursor_UnaryExpr:
		return CLS_CONST;
	case CXCursor_DeclRefExpr:
		return x->var >= 0 ? var_cls(c, x->var) : CLS_CONST;
	case CXCursor_ParenExpr:
	case CXCursor_UnexposedExpr:
	case CXCursor_CStyleCastExpr:
		return x->nkids ? cls(c, x->kids[x->nkids - 1]) : CLS_OTHER;
	case CXCursor_BinaryOperator: {
		if (x->nkids != 2)
			return CLS_OTHER;
		int a = cls(c, x->kids[0]), b = cls(c, x->kids[1]);
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
			return cls(c, x->kids[0]);
		if (x->op == CXUnaryOperator_AddrOf) {
			/* &p[i], &s->f: the address of an lvalue */
			int l = an_strip(c, x->kids[0]);
			if (l < 0 || c->nodes[l].kind == CXCursor_DeclRefExpr)
				return CLS_OTHER;
			int m = CLS_CONST;
			for (unsigned i = 0; i < c->nodes[l].nkids; i++)
				m = max2(m, cls(c, c->nodes[l].kids[i]));
			return m;
		}
		if (x->op == CXUnaryOperator_Not || x->op == CXUnaryOperator_LNot)
			return cls(c, x->kids[0]) == CLS_CONST ? CLS_CONST : CLS_OTHER;
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
			m = max2(m, cls(c, x->kids[i]));
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
				m = max2(m, cls(c, x->kids[i]));
		}
		return m;
	}
	if (x->kind == CXCursor_MemberRefExpr && x->nkids &&
	    !an_node_is_ptr(c, x->kids[0]))
		return addr_cls(c, a, an_strip(c, x->kids[0]));
	int m = CLS_CONST;
	for (unsigned i = 0; i < x->nkids; i++)
		m = max2(m, cls(c, x->kids[i]));
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
			    an_expr_tainted(c, x->kids[i], -1))
				return 1;
		}
		return 0;
	}
	return an_expr_tainted(c, n, n);
}

void an_patterns(an_ctx *c)
{
	an_program *p = c->p;
	an_taint(c);
	/* helper parameter classes: join over the call sites, from CONST up */
	for (unsigned v = 0; v < c->nvars; v++)
		if (c->vars[v].param >= 0)
			c->vars[v].cls = CLS_CONST;
	/* Classes only rise, each of nvars at most twice: a round past
	 * that which still changes something is a bug. */
	c->cls_memo = an_xcalloc(c->nvars + 1, 1);
	for (unsigned long round = 0, changed = 1; changed; round++) {
		if (round > 2ul * c->nvars + 1) {
			AN_INTERNAL(c, "helper parameter classes do not converge");
			return;
		}
		changed = 0;
		/* the parameters' classes may have risen: recompute */
		memset(c->cls_memo, 0, c->nvars + 1);
		for (unsigned n = 0; n < c->nnodes; n++) {
			an_node *x = &c->nodes[n];
			if (x->kind != CXCursor_CallExpr || x->fn_ref < 0)
				continue;
			for (unsigned i = 1; i < x->nkids; i++) {
				int pv = an_param_var(c, x->fn_ref, i - 1);
				if (pv < 0)
					continue;
				int k = cls(c, x->kids[i]);
				if (k > c->vars[pv].cls) {
					c->vars[pv].cls = k;
					changed = 1;
				}
			}
		}
	}
	memset(c->cls_memo, 0, c->nvars + 1);
	for (unsigned n = 0; n < c->nnodes; n++) {
		an_node *x = &c->nodes[n];
		if (x->access < 0)
			continue;
		an_access *a = &p->accesses[x->access];
		if (addr_tainted(c, a, (int)n) || an_ctl_tainted(c, (int)n))
			a->pattern = VAST_PAT_INDIRECT;
		else if (addr_cls(c, a, (int)n) <= CLS_AFFINE)
			a->pattern = VAST_PAT_AFFINE;
		else
			a->pattern = VAST_PAT_DIRECT;
	}
}
