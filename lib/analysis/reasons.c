/* SPDX-License-Identifier: MIT */
/*
 * reasons.c - why a kernel cannot be virtualized, as points-to shows it.
 *
 * A kernel is refused (and runs natively when it fits) when a pointer to
 * a buffer escapes the analysis (stored into memory, turned into an
 * integer), when it has more buffers than a launch has slots or buffers
 * past the 32 bits of a points-to set, when it reaches a construct
 * access.c or slice.c marked bad, and when an access goes through a
 * pointer that points-to cannot trace to one of its arguments. The first
 * reason found is the one reported, so the checks run in this order;
 * a kernel that spins on global memory comes first, since that holds
 * whatever else the analysis could learn to follow.
 */
#include <stdarg.h>
#include <stdio.h>
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

/* Pointers to buffers stored into memory, or converted to integers,
 * escape the analysis. */
static void escapes(an_ctx *c, int kern)
{
	an_program *p = c->p;
	an_kfacts *k = &c->kf[kern];
	for (unsigned f = 0; f < p->nfuncs; f++) {
		if (!k->reach[f])
			continue;
		for (unsigned n = (unsigned)c->func_node[f]; n < an_func_end(c, (int)f); n++) {
			an_node *x = &c->nodes[n];
			if (x->kind == CXCursor_BinaryOperator && x->op == CXBinaryOperator_Assign &&
			    x->nkids == 2) {
				int mem;
				an_lhs_var(c, x->kids[0], &mem);
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

/* ---- spinning on global memory -------------------------------------- */

static int int_literal(an_ctx *c, int n, const char *val)
{
	n = an_strip(c, n);
	if (n < 0 || c->nodes[n].kind != CXCursor_IntegerLiteral)
		return 0;
	if (!val)
		return 1;
	size_t len = strlen(val);
	const char *t = c->p->text + c->nodes[n].begin;
	return c->nodes[n].end - c->nodes[n].begin >= len && !strncmp(t, val, len) &&
	       !(t[len] >= '0' && t[len] <= '9');
}

/* Node n reads global memory that only other work-items change: an
 * atomic on a __global object (OpenCL C 6.15.11-12, and the atomics of
 * 2.0, whose pointer is converted to the generic space and so is looked
 * at stripped) that reads without making progress of its own (a load,
 * `atomic_add(p, 0)`, a compare-and-swap or exchange of constants: a
 * lock), or a load of a volatile __global lvalue. An atomic_inc that
 * hands out work, or the compare-and-swap of a lock-free update whose
 * expected value it loaded, ends on its own: not a wait. *what names it
 * for the message, *ptr is the pointer operand. */
static int global_spin_read(an_ctx *c, int n, const char **what, int *ptr)
{
	an_node *x = &c->nodes[n];
	if (x->kind == CXCursor_CallExpr && x->callee && x->fn_ref < 0 && x->nkids >= 2 &&
	    (!strncmp(x->callee, "atomic_", 7) || !strncmp(x->callee, "atom_", 5))) {
		int a = an_strip(c, x->kids[1]);
		if (a < 0 || !an_node_is_ptr(c, a) || an_type_as(an_node_pointee(c, a)) != AN_AS_GLOBAL)
			return 0;
		const char *op = strchr(x->callee, '_') + 1;
		if (!strncmp(op, "fetch_", 6))
			op += 6;
		int arg2 = x->nkids >= 3 ? x->kids[2] : -1;
		int spin = !strncmp(op, "load", 4) ||
		           (!strcmp(op, "cmpxchg") && arg2 >= 0 && int_literal(c, arg2, NULL)) ||
		           ((!strncmp(op, "xchg", 4) || !strncmp(op, "exchange", 8)) && arg2 >= 0 &&
		            int_literal(c, arg2, NULL)) ||
		           ((!strncmp(op, "add", 3) || !strncmp(op, "sub", 3) || !strncmp(op, "or", 2) ||
		             !strncmp(op, "xor", 3)) && arg2 >= 0 && int_literal(c, arg2, "0"));
		if (!spin)
			return 0;
		*what = x->callee;
		*ptr = a;
		return 1;
	}
	if (x->access >= 0 && !(c->p->accesses[x->access].mode & VAST_MODE_W) &&
	    clang_isVolatileQualifiedType(an_node_type(c, n)) &&
	    an_type_as(an_node_type(c, n)) == AN_AS_GLOBAL) {
		int b = an_access_base(c, n);
		*what = "a volatile load";
		*ptr = b >= 0 ? an_strip(c, b) : n;
		return 1;
	}
	return 0;
}

/* A spin read in the subtree of n, or in what a private variable it
 * reads was last given inside the loop statement lp (`do v =
 * atomic_add(c, 0); while (v < n);`). */
static int spin_in(an_ctx *c, int n, const an_stmt *lp, const char **what, int *ptr)
{
	for (int m = n; m <= c->nodes[n].last; m++) {
		an_node *x = &c->nodes[m];
		if (global_spin_read(c, m, what, ptr))
			return 1;
		if (x->kind != CXCursor_DeclRefExpr || x->var < 0 || !lp)
			continue;
		for (unsigned d = 0; d < c->ndefs; d++) {
			int dn = c->defs[d].node;
			if (c->defs[d].var != x->var || !an_in(&lp->range, c->nodes[dn].begin,
			                                        c->nodes[dn].end))
				continue;
			an_node *y = &c->nodes[dn];
			int rhs = y->kind == CXCursor_VarDecl ? an_var_init(c, dn)
			        : (y->kind == CXCursor_BinaryOperator ||
			           y->kind == CXCursor_CompoundAssignOperator) && y->nkids == 2
			        ? y->kids[1] : -1;
			if (rhs >= 0 && spin_in(c, rhs, NULL, what, ptr))
				return 1;
		}
	}
	return 0;
}

/* A loop whose condition waits on global memory that other work-items
 * write (a spin lock, the counter or flag of a hand-made grid barrier)
 * waits for work-groups that a paged range may not run until it is done:
 * the runtime runs a launch as ranges of groups, one after another. */
static void spins(an_ctx *c, int kern)
{
	an_program *p = c->p;
	an_kfacts *k = &c->kf[kern];
	for (unsigned s = 0; s < p->nstmts; s++) {
		an_stmt *st = &p->stmts[s];
		if ((st->kind != AN_STMT_WHILE && st->kind != AN_STMT_DO && st->kind != AN_STMT_FOR) ||
		    !k->reach[st->func])
			continue;
		int sn = c->stmt_node[s];
		for (int n = sn; n <= c->nodes[sn].last; n++) {
			const char *what;
			int ptr;
			if (!c->nodes[n].header || c->nodes[n].stmt != (int)s ||
			    (c->nodes[n].parent >= 0 && c->nodes[c->nodes[n].parent].header &&
			     c->nodes[c->nodes[n].parent].stmt == (int)s))
				continue;
			if (!spin_in(c, n, st, &what, &ptr))
				continue;
			an_node *q = &c->nodes[ptr];
			unsigned len = q->end - q->begin;
			an_not_virtualizable(c, kern, an_node_loc(c, sn),
			                     "spins on a global mutex or flag ('%.*s', %s): work-groups "
			                     "wait for each other, which paged ranges cannot run",
			                     len > 40 ? 40 : (int)len, p->text + q->begin, what);
			return;
		}
	}
}

void an_kernel_refusals(an_ctx *c, int f)
{
	an_program *p = c->p;
	an_func *fn = &p->funcs[f];
	an_kfacts *k = &c->kf[f];
	spins(c, f);
	escapes(c, f);
	unsigned nbuf = 0;
	for (unsigned i = 0; i < fn->nparams; i++) {
		an_param *pa = &fn->params[i];
		if (pa->kind != VAST_PARAM_GLOBAL && pa->kind != VAST_PARAM_CONSTANT)
			continue;
		nbuf++;
		if (i >= 32)
			an_not_virtualizable(c, f, pa->loc,
			                     "buffer parameter '%s' comes after the 32nd parameter",
			                     pa->name);
	}
	if (nbuf > VAST_MAX_SLOTS)
		an_not_virtualizable(c, f, fn->loc, "more than %d buffer parameters",
		                     VAST_MAX_SLOTS);
	for (unsigned b = 0; b < c->nbad; b++)
		if (c->bad[b].func >= 0 && k->reach[c->bad[b].func])
			an_not_virtualizable(c, f, an_node_loc(c, c->bad[b].node), "%s",
			                     c->bad[b].reason);
	for (unsigned node = 0; node < c->nnodes; node++) {
		int ai = c->nodes[node].access;
		if (ai < 0 || !k->reach[c->nodes[node].func])
			continue;
		an_access *a = &p->accesses[ai];
		int base = an_access_base(c, (int)node);
		uint64_t bits = base >= 0 ? an_pts_expr(c, k, f, base) : AN_PT_UNKNOWN;
		if (bits & AN_PT_GLOBALVAR)
			an_not_virtualizable(c, f, a->loc, "a program-scope __global variable");
		else if (bits & AN_PT_CONSTVAR)
			an_not_virtualizable(c, f, a->loc,
			                     "a pointer that may point into a program-scope "
			                     "__constant variable");
		else if ((bits & AN_PT_UNKNOWN) || !(bits & AN_PT_PARAMS))
			an_not_virtualizable(c, f, a->loc,
			                     "a pointer vastcc cannot trace to a kernel argument");
	}
}
