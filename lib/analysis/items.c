/* SPDX-License-Identifier: MIT */
/*
 * items.c - whether a kernel's work-items are independent of their
 * work-group: nothing a work-item computes depends on which other
 * work-items share its group, or how many do. Then any subset of a
 * work-group runs with the same results as the whole group, and the
 * runtime may cut a launch between the work-items of a group that alone
 * does not fit the device (runtime/launch/launch.c, docs/runtime.md), launching
 * them with a smaller local size.
 *
 * Decided conservatively, over the kernel and every function it reaches:
 * no barrier or other work-group or sub-group function (OpenCL C 1.2
 * §6.12.8, §6.12.10; 2.0 §6.13.15), no __local memory (which covers
 * atomics on it), and no work-item function whose value depends on the
 * local size (get_local_id, get_group_id, get_local_size, get_num_groups,
 * get_enqueued_local_size, get_local_linear_id), except in the global id
 * written out: get_group_id(d) * get_local_size(d) + get_local_id(d),
 * which is get_global_id(d) - get_global_offset(d) whatever the local
 * size. The first reason found is kept for the report.
 */
#include <stdio.h>
#include <string.h>
#include "internal.h"

/* Calls that make work-items of a group depend on each other. */
static const char *group_call(const char *name)
{
	static const char *const exact[] = {
		"barrier", "wait_group_events", "get_num_sub_groups",
		"get_enqueued_num_sub_groups", "get_max_sub_group_size",
		"enqueue_kernel", /* its ndrange_t may be the parent's */
	};
	static const char *const prefix[] = {
		"work_group_", "sub_group_", "async_work_group_", "get_sub_group_",
		"intel_sub_group_", "get_kernel_sub_group_",
	};
	for (unsigned i = 0; i < sizeof exact / sizeof *exact; i++)
		if (!strcmp(name, exact[i]))
			return exact[i];
	for (unsigned i = 0; i < sizeof prefix / sizeof *prefix; i++)
		if (!strncmp(name, prefix[i], strlen(prefix[i])))
			return name;
	return NULL;
}

/* The work-item call at n (stripped) with builtin bi and the same
 * dimension argument text as dim; 1 when it is. */
static int is_call(an_ctx *c, int n, enum an_builtin bi, const char *dim, unsigned dlen)
{
	n = an_strip(c, n);
	if (n < 0 || c->nodes[n].call < 0 || c->p->calls[c->nodes[n].call].builtin != bi ||
	    c->nodes[n].nkids != 2)
		return 0;
	int a = an_strip(c, c->nodes[n].kids[1]);
	if (a < 0 || c->nodes[a].kind != CXCursor_IntegerLiteral)
		return 0;
	return c->nodes[a].end - c->nodes[a].begin == dlen &&
	       !memcmp(c->p->text + c->nodes[a].begin, dim, dlen);
}

/* The binary operator op around n (through parentheses and casts), and
 * its other operand; -1 when n is not an operand of one. */
static int other_operand(an_ctx *c, int n, int op, int *parent)
{
	int p = an_up(c, n);
	while (p >= 0 && c->nodes[p].kind == CXCursor_CStyleCastExpr)
		p = an_up(c, p);
	*parent = p;
	if (p < 0 || c->nodes[p].kind != CXCursor_BinaryOperator || c->nodes[p].op != op ||
	    c->nodes[p].nkids != 2)
		return -1;
	int a = c->nodes[p].kids[0], b = c->nodes[p].kids[1];
	return a <= n && n <= c->nodes[a].last ? b : a; /* the one n is not in */
}

/* Call node n (get_local_id, get_group_id or get_local_size, with a
 * literal dimension) is a term of get_group_id(d) * get_local_size(d) +
 * get_local_id(d), in any order of the operands. */
static int in_global_id(an_ctx *c, int n)
{
	enum an_builtin bi = c->p->calls[c->nodes[n].call].builtin;
	if (c->nodes[n].nkids != 2)
		return 0;
	int a = an_strip(c, c->nodes[n].kids[1]);
	if (a < 0 || c->nodes[a].kind != CXCursor_IntegerLiteral)
		return 0;
	const char *dim = c->p->text + c->nodes[a].begin;
	unsigned dl = c->nodes[a].end - c->nodes[a].begin;
	int p, q;
	if (bi == AN_BI_LOCAL_ID) {
		int o = an_strip(c, other_operand(c, n, CXBinaryOperator_Add, &p));
		if (o < 0 || c->nodes[o].kind != CXCursor_BinaryOperator ||
		    c->nodes[o].op != CXBinaryOperator_Mul || c->nodes[o].nkids != 2)
			return 0;
		int x = c->nodes[o].kids[0], y = c->nodes[o].kids[1];
		return (is_call(c, x, AN_BI_GROUP_ID, dim, dl) &&
		        is_call(c, y, AN_BI_LOCAL_SIZE, dim, dl)) ||
		       (is_call(c, y, AN_BI_GROUP_ID, dim, dl) &&
		        is_call(c, x, AN_BI_LOCAL_SIZE, dim, dl));
	}
	enum an_builtin want = bi == AN_BI_GROUP_ID ? AN_BI_LOCAL_SIZE
	                     : bi == AN_BI_LOCAL_SIZE ? AN_BI_GROUP_ID : AN_BI_NONE;
	if (want == AN_BI_NONE)
		return 0;
	int o = other_operand(c, n, CXBinaryOperator_Mul, &p);
	if (o < 0 || !is_call(c, o, want, dim, dl))
		return 0;
	o = other_operand(c, p, CXBinaryOperator_Add, &q);
	return o >= 0 && is_call(c, o, AN_BI_LOCAL_ID, dim, dl);
}

static void set_reason(an_func *fn, an_loc loc, const char *fmt, const char *name)
{
	char *buf = fn->items_reason;
	size_t cap = sizeof fn->items_reason;
	snprintf(buf, cap, fmt, name);
	size_t n = strlen(buf);
	if (loc.line)
		snprintf(buf + n, cap - n, " at line %u", loc.line);
	fn->items_independent = 0;
}

void an_items(an_ctx *c)
{
	an_program *p = c->p;
	for (unsigned f = 0; f < p->nfuncs; f++) {
		an_func *fn = &p->funcs[f];
		if (!fn->is_kernel)
			continue;
		const unsigned char *reach = c->kf[f].reach;
		fn->items_independent = 1;
		for (unsigned i = 0; i < fn->nparams && fn->items_independent; i++)
			if (fn->params[i].kind == VAST_PARAM_LOCAL)
				set_reason(fn, fn->params[i].loc, "parameter '%s' is __local memory",
				           fn->params[i].name);
		for (unsigned v = 0; v < c->nvars && fn->items_independent; v++)
			if (c->vars[v].func >= 0 && reach[c->vars[v].func] && c->vars[v].param < 0 &&
			    c->vars[v].is_local_mem)
				set_reason(fn, c->vars[v].node >= 0 ? an_node_loc(c, c->vars[v].node)
				                                    : (an_loc){0},
				           "'%s' is __local memory", c->vars[v].name);
		for (unsigned n = 0; n < c->nnodes && fn->items_independent; n++) {
			an_node *x = &c->nodes[n];
			if (x->kind != CXCursor_CallExpr || x->func < 0 || !reach[x->func] ||
			    !x->callee || x->fn_ref >= 0)
				continue;
			const char *g = group_call(x->callee);
			if (g) {
				set_reason(fn, an_node_loc(c, (int)n), "calls '%s'", x->callee);
				continue;
			}
			if (x->call < 0)
				continue;
			switch (p->calls[x->call].builtin) {
			case AN_BI_LOCAL_ID:
			case AN_BI_GROUP_ID:
			case AN_BI_LOCAL_SIZE:
				if (in_global_id(c, (int)n))
					break;
				/* fall through */
			case AN_BI_NUM_GROUPS:
			case AN_BI_ENQUEUED_LOCAL_SIZE:
			case AN_BI_LOCAL_LINEAR_ID:
				set_reason(fn, an_node_loc(c, (int)n), "calls '%s'", x->callee);
				break;
			default:
				break;
			}
		}
	}
}
