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
	c->addr_taint = an_xcalloc(p->naccesses + 1, 1);
	for (unsigned n = 0; n < c->nnodes; n++) {
		an_node *x = &c->nodes[n];
		if (x->access < 0)
			continue;
		an_access *a = &p->accesses[x->access];
		c->addr_taint[x->access] = (unsigned char)addr_tainted(c, a, (int)n);
		if (c->addr_taint[x->access] || an_ctl_tainted(c, (int)n))
			a->pattern = VAST_PAT_INDIRECT;
		else if (addr_cls(c, a, (int)n) <= CLS_AFFINE)
			a->pattern = VAST_PAT_AFFINE;
		else
			a->pattern = VAST_PAT_DIRECT;
	}
}

/* ---- guards over covered accesses ------------------------------------ */

/* Variable v keeps one value through the function: never assigned after
 * its declaration, its address never taken, not declared inside a loop
 * (where each iteration has its own). Parameters and program-scope
 * constants qualify when never assigned. */
static int invariant_var(an_ctx *c, int v)
{
	an_var *x = &c->vars[v];
	if (x->func < 0)
		return x->as == AN_AS_CONSTANT;
	if (x->ndefs || x->addr_taken || x->is_array)
		return 0;
	return x->param >= 0 || (x->node >= 0 && !an_in_loop(c, x->node));
}

/* Node n is a pointer into memory other than __global or __constant:
 * private or __local memory, which the kernel's own stores (through any
 * alias: `*q = ...` with q == p) or other work-items' change without a
 * definition of the variable read. */
static int nonglobal_ptr(an_ctx *c, int n)
{
	if (n < 0 || !an_node_is_ptr(c, n))
		return 0;
	unsigned as = an_type_as(an_node_pointee(c, n));
	return as != AN_AS_GLOBAL && as != AN_AS_CONSTANT;
}

/* Access node n's address is the same wherever in the function it is
 * computed: built of invariant variables, literals and work-item ids,
 * with no load, call or assignment inside. Invariant variables are not
 * enough when the address reads memory through them: `a[*p]` changes
 * with `*q = i + 1;` though p is never assigned, so no dereference,
 * subscript or `->` through a private or __local pointer, and no __local
 * variable (another work-item may store it), may be part of it. */
static int invariant_address(an_ctx *c, int n)
{
	for (int m = n; m <= c->nodes[n].last; m++) {
		an_node *x = &c->nodes[m];
		if (m != n && x->access >= 0)
			return 0;
		if (x->kind == CXCursor_DeclRefExpr && x->var >= 0 &&
		    (!invariant_var(c, x->var) || c->vars[x->var].is_local_mem ||
		     c->vars[x->var].as == AN_AS_LOCAL))
			return 0;
		if (x->kind == CXCursor_CallExpr &&
		    (m != n || c->p->accesses[x->access].form != AN_FORM_ATOMIC) &&
		    (x->call < 0 || c->p->calls[x->call].builtin == AN_BI_NONE))
			return 0;
		if (x->kind == CXCursor_CompoundAssignOperator ||
		    (x->kind == CXCursor_BinaryOperator && x->op == CXBinaryOperator_Assign && m != n) ||
		    (x->kind == CXCursor_UnaryOperator &&
		     (x->op == CXUnaryOperator_PostInc || x->op == CXUnaryOperator_PostDec ||
		      x->op == CXUnaryOperator_PreInc || x->op == CXUnaryOperator_PreDec) && m != n))
			return 0;
		if (m == n)
			continue; /* the access itself: through a global pointer */
		if ((x->kind == CXCursor_UnaryOperator && x->op == CXUnaryOperator_Deref &&
		     x->nkids && nonglobal_ptr(c, x->kids[0])) ||
		    (x->kind == CXCursor_ArraySubscriptExpr && x->nkids == 2 &&
		     (nonglobal_ptr(c, x->kids[0]) || nonglobal_ptr(c, x->kids[1]))) ||
		    (x->kind == CXCursor_MemberRefExpr && x->nkids && nonglobal_ptr(c, x->kids[0])))
			return 0;
	}
	return 1;
}

/* The same tokens, whitespace aside. */
static int same_text(an_ctx *c, an_range a, an_range b)
{
	const char *t = c->p->text;
	unsigned i = a.begin, j = b.begin;
	for (;;) {
		while (i < a.end && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
			i++;
		while (j < b.end && (t[j] == ' ' || t[j] == '\t' || t[j] == '\n' || t[j] == '\r'))
			j++;
		if (i == a.end || j == b.end)
			return i == a.end && j == b.end;
		if (t[i++] != t[j++])
			return 0;
	}
}

/* Nodes a and b compute the same address: their subtrees match node by
 * node, the same kinds and operators, the same variables (by
 * declaration: `int i` in an inner block shadowing the outer one is
 * another variable though it reads the same), the same callees and
 * members, leaves of the same text (literals). Text alone would take the
 * shadowing `i` for the outer one. */
static int same_address(an_ctx *c, int a, int b)
{
	int na = c->nodes[a].last - a;
	if (na != c->nodes[b].last - b)
		return 0;
	for (int k = 0; k <= na; k++) {
		an_node *x = &c->nodes[a + k], *y = &c->nodes[b + k];
		if (x->kind != y->kind || x->op != y->op || x->nkids != y->nkids ||
		    x->var != y->var || x->fn_ref != y->fn_ref)
			return 0;
		if (x->nkids == 0 && !same_text(c, (an_range){ x->begin, x->end },
		                                (an_range){ y->begin, y->end }))
			return 0;
		if ((x->callee || y->callee) &&
		    (!x->callee || !y->callee || strcmp(x->callee, y->callee)))
			return 0;
		if (x->kind == CXCursor_MemberRefExpr &&
		    !clang_equalCursors(clang_getCursorReferenced(x->cur),
		                        clang_getCursorReferenced(y->cur)))
			return 0;
		/* the tree's shape: each kid at the same place */
		for (unsigned i = 0; i < x->nkids; i++)
			if (x->kids[i] - (a + k) != y->kids[i] - (b + k))
				return 0;
	}
	return 1;
}

/* Node n runs whenever its statement does: it is in no arm of a ?: and
 * no right operand of && or || there. */
static int unconditional_in_stmt(an_ctx *c, int n)
{
	int s = c->nodes[n].stmt;
	for (int m = n, q = c->nodes[n].parent; q >= 0 && c->nodes[q].stmt == s;
	     m = q, q = c->nodes[q].parent) {
		an_node *y = &c->nodes[q];
		if ((y->kind == CXCursor_ConditionalOperator && y->nkids == 3 && m != y->kids[0]) ||
		    (y->kind == CXCursor_BinaryOperator && y->nkids == 2 && m == y->kids[1] &&
		     (y->op == CXBinaryOperator_LAnd || y->op == CXBinaryOperator_LOr)))
			return 0;
	}
	return 1;
}

/* Access node b runs, before statement t, every time t runs: b is in an
 * expression or declaration statement of a block that also holds t, or
 * in blocks nested in it with nothing conditional around b, and comes
 * first. No `switch` around that block may jump past it. */
static int runs_before(an_ctx *c, int b, int t)
{
	an_program *p = c->p;
	int sb = c->nodes[b].stmt;
	if (sb < 0 || c->nodes[b].header || c->nodes[b].end > p->stmts[t].range.begin ||
	    (p->stmts[sb].kind != AN_STMT_EXPR && p->stmts[sb].kind != AN_STMT_DECL) ||
	    !unconditional_in_stmt(c, b))
		return 0;
	for (int s = p->stmts[sb].parent; s >= 0; s = p->stmts[s].parent) {
		if (p->stmts[s].kind != AN_STMT_COMPOUND)
			return 0;
		int holds_t = 0;
		for (int u = t; u >= 0; u = p->stmts[u].parent)
			if (u == s)
				holds_t = 1;
		if (!holds_t)
			continue;
		for (int u = p->stmts[s].parent; u >= 0; u = p->stmts[u].parent)
			if (p->stmts[u].kind == AN_STMT_SWITCH)
				return 0;
		return 1;
	}
	return 0;
}

/* Access node a (inside statement t) is covered: an access at the same
 * address that runs before t whenever t runs (for the merge kernel, a
 * store of the same bytes, since the merge copies what is stored). For
 * the inspector that may be t's own condition, which runs whenever t
 * does. */
static int covered(an_ctx *c, int v, int a, int t)
{
	an_program *p = c->p;
	an_access *x = &p->accesses[c->nodes[a].access];
	if (v == AN_V_MERGE && !(x->mode & VAST_MODE_W))
		return 1; /* dropped with the guard: the merge copies stores only */
	if ((x->mode & VAST_MODE_ATOMIC) || x->part_size || c->nodes[a].partial ||
	    !invariant_address(c, a))
		return 0;
	for (unsigned b = (unsigned)c->func_node[x->func]; b < an_func_end(c, x->func); b++) {
		an_node *y = &c->nodes[b];
		if (y->access < 0 || (int)b == a)
			continue;
		an_access *z = &p->accesses[y->access];
		/* ptr_type may be NULL (render.c): unknown, not the same */
		if (z->form != x->form || z->size != x->size || !z->ptr_type || !x->ptr_type ||
		    strcmp(z->ptr_type, x->ptr_type) ||
		    (z->mode & VAST_MODE_ATOMIC) || y->partial ||
		    (v == AN_V_MERGE && !(z->mode & VAST_MODE_W)))
			continue;
		int in_cond = v == AN_V_INSPECT && y->header && y->stmt == t &&
		              unconditional_in_stmt(c, (int)b);
		/* b's address must be invariant too: what it reads may
		 * otherwise change between b and t */
		if (same_address(c, a, (int)b) && invariant_address(c, (int)b) &&
		    (in_cond || runs_before(c, (int)b, t)))
			return 1;
	}
	return 0;
}

/* An `if` whose condition depends on loaded data need not be computed
 * by the slice of variant v when every access it guards (its condition's
 * too) is covered: marking them all, unconditionally, marks the pages the
 * covering accesses mark anyway (merge: copies what they copy), so
 * dropping it is exact. The condition may read what the kernel writes
 * (`if (std[j] <= eps) std[j] = 1.0f;` after `std[j] = ...`): the
 * footprint does not depend on it. It must guard no helper call, whose
 * accesses are not looked at here, and no goto may enter it. */
int an_guard_covered(an_ctx *c, int v, int t)
{
	an_program *p = c->p;
	an_stmt *st = &p->stmts[t];
	if (st->kind != AN_STMT_IF)
		return 0;
	int sn = c->stmt_node[t], tainted = 0;
	for (int n = sn; n <= c->nodes[sn].last && !tainted; n++)
		if (c->nodes[n].header && c->nodes[n].stmt == t && an_expr_tainted(c, n, -1))
			tainted = 1;
	if (!tainted)
		return 0;
	for (unsigned s = 0; s < p->nstmts; s++)
		if (p->stmts[s].func == st->func &&
		    (p->stmts[s].kind == AN_STMT_GOTO || p->stmts[s].kind == AN_STMT_LABEL))
			return 0;
	for (int n = sn; n <= c->nodes[sn].last; n++) {
		an_node *x = &c->nodes[n];
		if (x->kind == CXCursor_CallExpr && x->fn_ref >= 0)
			return 0;
		/* the condition's own accesses run whenever t does */
		if (x->access >= 0 && !(x->header && x->stmt == t && unconditional_in_stmt(c, n)) &&
		    !covered(c, v, n, t))
			return 0;
	}
	return 1;
}
