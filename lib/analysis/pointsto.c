/* SPDX-License-Identifier: MIT */
/*
 * pointsto.c - which buffer parameters each pointer and access may reach.
 *
 * Points-to is flow-insensitive and context-insensitive, computed per
 * kernel over the functions it reaches: each pointer variable, helper
 * parameter and helper return value gets a bit set of the kernel's buffer
 * parameters (bit i = parameter i) plus AN_PT_UNKNOWN for anything vastcc
 * cannot follow (integer casts, pointers loaded from memory). Constraints
 * are iterated to a fixed point; extra bits are safe, missing ones are not.
 * The reasons a kernel cannot be virtualized that points-to reveals are
 * reasons.c's.
 */
#include <stdlib.h>
#include "internal.h"

static int scalar_type(CXType t)
{
	t = clang_getCanonicalType(t);
	return (t.kind >= CXType_Void && t.kind <= CXType_LongDouble) || t.kind == CXType_Half ||
	       t.kind == CXType_ExtVector || t.kind == CXType_Vector || t.kind == CXType_Enum;
}

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

int an_lhs_var(an_ctx *c, int lhs, int *mem)
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
	for (unsigned n = (unsigned)c->func_node[f]; n < an_func_end(c, f); n++)
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
	/* Every round but the last adds a bit to some set (of nvars + nfuncs
	 * sets of 64 bits), so it converges within `limit` rounds; one more
	 * is a bug. */
	unsigned long limit = ((unsigned long)c->nvars + p->nfuncs + 1) * 64;
	for (unsigned long round = 0, changed = 1; changed; round++) {
		if (round > limit) {
			AN_INTERNAL(c, "points-to of kernel '%s' does not converge",
			            p->funcs[kern].name);
			return;
		}
		changed = 0;
		for (unsigned f = 0; f < p->nfuncs; f++) {
			if (!k->reach[f])
				continue;
			for (unsigned n = (unsigned)c->func_node[f]; n < an_func_end(c, (int)f); n++) {
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
					int v = an_lhs_var(c, x->kids[0], &mem);
					uint64_t r = an_pts_expr(c, k, kern, x->kids[1]);
					if (v >= 0)
						changed |= or_into(&k->pts[v], r);
				} else if (x->kind == CXCursor_CallExpr && x->fn_ref >= 0) {
					for (unsigned i = 1; i < x->nkids; i++) {
						int pv = an_param_var(c, x->fn_ref, i - 1);
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
}

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
		an_kernel_refusals(c, (int)f);
		/* Points-to sets have 32 bits: past them nothing is known,
		 * so assume the widest mode its address space allows. */
		for (unsigned i = 32; i < p->funcs[f].nparams; i++) {
			an_param *pa = &p->funcs[f].params[i];
			if (pa->kind == VAST_PARAM_GLOBAL || pa->kind == VAST_PARAM_CONSTANT)
				pa->mode |= pa->kind == VAST_PARAM_GLOBAL ? VAST_MODE_RW : VAST_MODE_R;
		}
		for (unsigned node = 0; node < c->nnodes; node++) {
			int ai = c->nodes[node].access;
			if (ai < 0 || !k->reach[c->nodes[node].func])
				continue;
			an_access *a = &p->accesses[ai];
			int base = an_access_base(c, (int)node);
			uint64_t bits = base >= 0 ? an_pts_expr(c, k, (int)f, base) : AN_PT_UNKNOWN;
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
