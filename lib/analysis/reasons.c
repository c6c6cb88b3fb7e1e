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
 * reason found is the one reported, so the checks run in this order.
 */
#include <stdarg.h>
#include <stdio.h>
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

void an_kernel_refusals(an_ctx *c, int f)
{
	an_program *p = c->p;
	an_func *fn = &p->funcs[f];
	an_kfacts *k = &c->kf[f];
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
