/* SPDX-License-Identifier: MIT */
/*
 * access.c - every access to global or constant memory, and its mode.
 *
 * Type-based: an lvalue p[i], *e, p->f or s.f whose type is in the
 * __global or __constant address space (OpenCL C 6.5) is an access unless
 * its address is only taken (&, sizeof, array decay) or it is the prefix of
 * a longer lvalue (the struct of s.f is not accessed, s.f is). A vector
 * component (p[i].x, p[i].s01, p[i][0]) accesses the whole element p[i].
 * The builtins vloadN/vstoreN and the half variants (OpenCL C 6.15.7) and
 * atomic_* and atom_* (6.15.11-12) are accesses through their pointer
 * argument. Lookups in program-scope __constant tables are not buffer
 * accesses and are left alone on purpose: that data is part of the
 * program. Any other lvalue in global memory is recorded as a reason the
 * kernel cannot be virtualized, never skipped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

void an_add_bad(an_ctx *c, int node, const char *reason)
{
	an_bad *b = AN_PUSH(c->bad, c->nbad, c->capbad);
	b->func = c->nodes[node].func;
	b->node = node;
	b->reason = reason;
}

static int is_vector(CXType t)
{
	return clang_getCanonicalType(t).kind == CXType_ExtVector;
}

static int is_array(CXType t)
{
	enum CXTypeKind k = clang_getCanonicalType(t).kind;
	return k == CXType_ConstantArray || k == CXType_IncompleteArray ||
	       k == CXType_VariableArray || k == CXType_DependentSizedArray;
}

static int is_buffer_as(unsigned as)
{
	return as == AN_AS_GLOBAL || as == AN_AS_CONSTANT;
}

/* The pointer operand of an access node (unstripped), or -1. */
int an_access_base(an_ctx *c, int n)
{
	for (;;) {
		an_node *x = &c->nodes[n];
		switch (x->kind) {
		case CXCursor_ArraySubscriptExpr:
			if (x->nkids != 2)
				return -1;
			if (an_node_is_ptr(c, x->kids[0]))
				return x->kids[0];
			if (an_node_is_ptr(c, x->kids[1]))
				return x->kids[1];
			return -1;
		case CXCursor_UnaryOperator:
			return x->nkids ? x->kids[0] : -1;
		case CXCursor_MemberRefExpr:
			if (!x->nkids)
				return -1;
			if (an_node_is_ptr(c, x->kids[0]))
				return x->kids[0];
			n = an_strip(c, x->kids[0]);
			if (n < 0)
				return -1;
			continue;
		case CXCursor_CallExpr:
			if (x->access >= 0) {
				an_access *a = &c->p->accesses[x->access];
				for (unsigned i = 1; i < x->nkids; i++)
					if (c->nodes[x->kids[i]].begin == a->ptr.begin &&
					    c->nodes[x->kids[i]].end == a->ptr.end)
						return x->kids[i];
			}
			return -1;
		default:
			return -1;
		}
	}
}

/* Does the pointer operand b of an access lie in a program-scope
 * __constant variable? Its own lvalue chain is followed down through
 * arrays that decay (`lut[1]` of `lut[2][4]`, `t.row` of a struct) to
 * the variable; a pointer value stops it, since what it points to is not
 * known here. */
static int in_constant_table(an_ctx *c, int b)
{
	for (int n = an_strip(c, b); n >= 0;) {
		an_node *x = &c->nodes[n];
		if (x->kind == CXCursor_DeclRefExpr)
			return x->var >= 0 && c->vars[x->var].func < 0 &&
			       c->vars[x->var].as == AN_AS_CONSTANT;
		if (x->kind == CXCursor_ArraySubscriptExpr || x->kind == CXCursor_MemberRefExpr) {
			if (x->kind == CXCursor_ArraySubscriptExpr && !is_array(an_node_type(c, n)))
				return 0;
			int up = an_access_base(c, n);
			if (up < 0 && x->kind == CXCursor_MemberRefExpr && x->nkids)
				up = x->kids[0]; /* s.f: the struct itself */
			if (up < 0)
				return 0;
			int s = an_strip(c, up);
			if (s < 0 || (!is_array(an_node_type(c, s)) &&
			              clang_getCanonicalType(an_node_type(c, s)).kind != CXType_Record))
				return 0;
			n = s;
			continue;
		}
		return 0;
	}
	return 0;
}

/* The form of an lvalue chain's root: s[i].a.b is a subscript. */
static int root_form(an_ctx *c, int n, int *form)
{
	for (;;) {
		an_node *x = &c->nodes[n];
		if (x->kind == CXCursor_ArraySubscriptExpr) {
			*form = AN_FORM_SUBSCRIPT;
			return 1;
		}
		if (x->kind == CXCursor_UnaryOperator && x->op == CXUnaryOperator_Deref) {
			*form = AN_FORM_DEREF;
			return 1;
		}
		if (x->kind == CXCursor_MemberRefExpr && x->nkids) {
			if (an_node_is_ptr(c, x->kids[0])) {
				*form = AN_FORM_ARROW;
				return 1;
			}
			n = an_strip(c, x->kids[0]);
			if (n < 0)
				return 0;
			continue;
		}
		return 0;
	}
}

/* "__global const float *" from an lvalue type in global/constant space. */
static char *ptr_type_of(CXType lv)
{
	extern char *an_elem_type(CXType);
	char *e = an_elem_type(lv);
	int cst = an_type_as(lv) == AN_AS_CONSTANT && strncmp(e, "const ", 6) &&
	          !strstr(e, " const");
	size_t n = strlen(e) + 32;
	char *s = an_xmalloc(n);
	/* A pointer element's own qualifiers follow its '*':
	 * "__global float *__global *", not "__global __global float **". */
	if (strchr(e, '*'))
		snprintf(s, n, "%s %s__global *", e, cst ? "const " : "");
	else
		snprintf(s, n, "__global %s%s *", cst ? "const " : "", e);
	free(e);
	return s;
}

/* The components of a vector of nelem elements that the accessor text
 * `.y`, `.s23`, `.hi`, `[2]` names (OpenCL C 6.1.7) as a bit set, 0 when
 * unknown (a non-constant index). */
static unsigned component_bits(const char *s, size_t n, unsigned nelem)
{
	size_t i = 0;
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == ')'))
		i++;
	if (i < n && s[i] == '[') {
		char *end;
		unsigned long k = strtoul(s + i + 1, &end, 0);
		while (*end == ' ' || *end == 'u' || *end == 'U')
			end++;
		if (end == s + i + 1 || *end != ']' || k >= nelem)
			return 0;
		return 1u << k;
	}
	if (i >= n || s[i] != '.')
		return 0;
	i++;
	size_t b = i;
	while (i < n && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
	                 (s[i] >= '0' && s[i] <= '9')))
		i++;
	size_t len = i - b;
	const char *w = s + b;
	unsigned half = (nelem == 3 ? 4 : nelem) / 2, bits = 0;
	if (len == 2 && !memcmp(w, "lo", 2))
		return ((1u << half) - 1);
	if (len == 2 && !memcmp(w, "hi", 2))
		return ((1u << half) - 1) << half;
	if ((len == 4 && !memcmp(w, "even", 4)) || (len == 3 && !memcmp(w, "odd", 3))) {
		for (unsigned k = w[0] == 'o'; k < 2 * half; k += 2)
			bits |= 1u << k;
		return bits;
	}
	if (len > 1 && (w[0] == 's' || w[0] == 'S')) {
		for (size_t k = 1; k < len; k++) {
			char ch = w[k];
			unsigned d = ch >= '0' && ch <= '9' ? (unsigned)(ch - '0')
			           : ch >= 'a' && ch <= 'f' ? (unsigned)(ch - 'a' + 10)
			           : ch >= 'A' && ch <= 'F' ? (unsigned)(ch - 'A' + 10) : 99;
			if (d >= 16)
				return 0;
			bits |= 1u << d;
		}
		return bits;
	}
	for (size_t k = 0; k < len; k++) {
		const char *x = strchr("xyzw", w[k]), *r = strchr("rgba", w[k]);
		if (!w[k] || (!x && !r))
			return 0;
		bits |= 1u << (x ? x - "xyzw" : r - "rgba");
	}
	return bits;
}

/* The bytes of the vector element at node el that the component
 * expression comp names, if they are one run: off, size. */
static void component_bytes(an_ctx *c, int el, int comp, unsigned *off, unsigned *size)
{
	*off = *size = 0;
	CXType vt = clang_getCanonicalType(an_node_type(c, el));
	long long esz = clang_Type_getSizeOf(clang_getElementType(vt));
	long long ne = clang_getNumElements(vt);
	an_node *x = &c->nodes[comp];
	if (esz <= 0 || ne <= 0 || ne > 16 || x->end < c->nodes[el].end)
		return;
	unsigned bits = component_bits(c->p->text + c->nodes[el].end,
	                               x->end - c->nodes[el].end, (unsigned)ne);
	if (!bits)
		return;
	unsigned lo = (unsigned)__builtin_ctz(bits), hi = 31u - (unsigned)__builtin_clz(bits);
	if (bits != ((hi == 31 ? ~0u : (1u << (hi + 1)) - 1) & ~((1u << lo) - 1)))
		return; /* not one run: .xz, .even */
	*off = lo * (unsigned)esz;
	*size = (hi - lo + 1) * (unsigned)esz;
}

/* Mode from the context of the lvalue at node n. */
static unsigned mode_of(an_ctx *c, int n)
{
	int partial = 0, layers = 0, first = -1;
	int child = n;
	int p = c->nodes[n].parent;
	while (p >= 0) {
		an_node *x = &c->nodes[p];
		if (x->kind == CXCursor_ParenExpr) {
			child = p;
			p = x->parent;
			continue;
		}
		/* vector components: p[i].x, p[i].s01, p[i][0] */
		if ((x->kind == CXCursor_UnexposedExpr && !an_is_cast_like(c, p)) ||
		    (x->kind == CXCursor_MemberRefExpr && !an_node_is_ptr(c, child)) ||
		    (x->kind == CXCursor_ArraySubscriptExpr && x->nkids == 2 &&
		     an_strip(c, x->kids[0]) == child && is_vector(an_node_type(c, child)))) {
			partial = 1;
			if (!layers++)
				first = p;
			child = p;
			p = x->parent;
			continue;
		}
		break;
	}
	if (p < 0)
		return VAST_MODE_R;
	an_node *x = &c->nodes[p];
	int lhs = x->nkids >= 1 && x->kids[0] == child;
	if (partial && layers == 1 && lhs)
		component_bytes(c, n, first, &c->nodes[n].part_off, &c->nodes[n].part_size);
	/* a store to some components of a vector element writes only those
	 * bytes: the element is not a unit the merge kernel may copy */
	if (x->kind == CXCursor_BinaryOperator && x->op == CXBinaryOperator_Assign && lhs) {
		c->nodes[n].partial = partial;
		return partial ? VAST_MODE_RW : VAST_MODE_W;
	}
	if ((x->kind == CXCursor_CompoundAssignOperator && lhs) ||
	    (x->kind == CXCursor_UnaryOperator &&
	     (x->op == CXUnaryOperator_PostInc || x->op == CXUnaryOperator_PostDec ||
	      x->op == CXUnaryOperator_PreInc || x->op == CXUnaryOperator_PreDec))) {
		c->nodes[n].partial = partial;
		return VAST_MODE_RW;
	}
	return VAST_MODE_R;
}

static an_access *new_access(an_ctx *c, int n, enum an_form form)
{
	an_program *p = c->p;
	an_node *x = &c->nodes[n];
	an_access *a = AN_PUSH(p->accesses, p->naccesses, c->capacc);
	memset(a, 0, sizeof *a);
	a->form = form;
	a->expr.begin = x->begin;
	a->expr.end = x->end;
	a->func = x->func;
	a->stmt = x->stmt;
	a->loc = an_node_loc(c, n);
	x->access = (int)p->naccesses - 1;
	return a;
}

/* Is the lvalue at n only a prefix or an address (not itself accessed)? */
static int not_accessed(an_ctx *c, int n)
{
	CXType t = an_node_type(c, n);
	if (is_array(t))
		return 1; /* decays to a pointer */
	int up = an_up(c, n);
	if (up < 0)
		return 0;
	an_node *u = &c->nodes[up];
	if (u->kind == CXCursor_UnaryOperator && u->op == CXUnaryOperator_AddrOf)
		return 1;
	if (u->kind == CXCursor_UnaryExpr)
		return 1; /* sizeof, alignof, vec_step */
	if (u->kind == CXCursor_MemberRefExpr && u->nkids && an_strip(c, u->kids[0]) == n &&
	    !is_vector(t))
		return 1; /* s.f: the member is the access */
	return 0;
}

/* A subscript or member whose base is a vector is a component. */
static int is_component(an_ctx *c, int n)
{
	an_node *x = &c->nodes[n];
	if ((x->kind == CXCursor_ArraySubscriptExpr || x->kind == CXCursor_MemberRefExpr) &&
	    x->nkids >= 1) {
		int b = an_strip(c, x->kids[0]);
		return b >= 0 && is_vector(an_node_type(c, b));
	}
	return 0;
}

/* Elements per vector for "vload16", "vstore_half4_rte", "vloada_half3". */
static int parse_vec(const char *s, unsigned *vec, int *half, int *aligned)
{
	*half = *aligned = 0;
	if (!strncmp(s, "a_half", 6)) {
		*half = *aligned = 1;
		s += 6;
	} else if (!strncmp(s, "_half", 5)) {
		*half = 1;
		s += 5;
	}
	unsigned n = 0;
	while (*s >= '0' && *s <= '9')
		n = n * 10 + (unsigned)(*s++ - '0');
	if (!n) {
		if (!*half)
			return 0;
		n = 1;
	}
	if (*s && strcmp(s, "_rte") && strcmp(s, "_rtz") && strcmp(s, "_rtp") && strcmp(s, "_rtn"))
		return 0;
	*vec = n;
	return 1;
}

static void builtin_access(an_ctx *c, int n)
{
	an_node *x = &c->nodes[n];
	const char *name = x->callee;
	if (!name || x->fn_ref >= 0)
		return;
	int is_load = !strncmp(name, "vload", 5), is_store = !strncmp(name, "vstore", 6);
	int is_atomic = !strncmp(name, "atomic_", 7) || !strncmp(name, "atom_", 5);
	int is_async = !strcmp(name, "async_work_group_copy") ||
	               !strcmp(name, "async_work_group_strided_copy") || !strcmp(name, "prefetch");
	unsigned nargs = x->nkids ? x->nkids - 1 : 0;
	if (is_async) {
		for (unsigned i = 1; i < x->nkids; i++) {
			if (an_node_is_ptr(c, x->kids[i]) &&
			    is_buffer_as(an_type_as(an_node_pointee(c, x->kids[i])))) {
				an_add_bad(c, n, "async copies and prefetch of global memory are not supported");
				break;
			}
		}
		return;
	}
	if (!is_load && !is_store && !is_atomic)
		return;
	int ptr_arg = is_atomic ? 1 : is_load ? 2 : 3;
	if (nargs < (unsigned)ptr_arg)
		return;
	int pn = x->kids[ptr_arg];
	if (!an_node_is_ptr(c, pn))
		return;
	CXType pointee = an_node_pointee(c, pn);
	unsigned as = an_type_as(pointee);
	if (as == AN_AS_GENERIC) {
		an_add_bad(c, n, "an access through a generic address space pointer");
		return;
	}
	if (!is_buffer_as(as))
		return;
	unsigned vec = 1;
	int half = 0, aligned = 0;
	if (!is_atomic && !parse_vec(name + (is_load ? 5 : 6), &vec, &half, &aligned)) {
		an_add_bad(c, n, "an unknown vector load or store builtin");
		return;
	}
	an_access *a = new_access(c, n, is_atomic ? AN_FORM_ATOMIC : is_load ? AN_FORM_VLOAD
	                                                                     : AN_FORM_VSTORE);
	an_node *pnode = &c->nodes[pn];
	a->ptr.begin = pnode->begin;
	a->ptr.end = pnode->end;
	long long esz = clang_Type_getSizeOf(clang_getCanonicalType(pointee));
	if (is_atomic) {
		a->mode = VAST_MODE_W | VAST_MODE_ATOMIC;
		a->size = esz > 0 ? (unsigned)esz : 0;
	} else {
		an_node *on = &c->nodes[x->kids[ptr_arg - 1]];
		a->off.begin = on->begin;
		a->off.end = on->end;
		a->mode = is_load ? VAST_MODE_R : VAST_MODE_W;
		a->vec = (aligned && vec == 3) ? 4 : vec;
		a->size = half ? 2 * vec : (unsigned)(esz > 0 ? esz : 0) * vec;
	}
	a->ptr_type = ptr_type_of(pointee);
}

static void find(an_ctx *c, int n)
{
	an_node *x = &c->nodes[n];
	if (x->kind == CXCursor_CallExpr)
		builtin_access(c, n);
	else if (clang_isExpression(x->kind)) {
		CXType t = an_node_type(c, n);
		unsigned as = an_type_as(t);
		int lv = x->kind == CXCursor_ArraySubscriptExpr ||
		         (x->kind == CXCursor_UnaryOperator && x->op == CXUnaryOperator_Deref) ||
		         x->kind == CXCursor_MemberRefExpr;
		if ((is_buffer_as(as) || as == AN_AS_GENERIC) && lv && !is_component(c, n) &&
		    !not_accessed(c, n)) {
			int form;
			int base = an_access_base(c, n);
			if (as == AN_AS_GENERIC) {
				an_add_bad(c, n, "an access through a generic address space pointer");
			} else if (base >= 0 && as == AN_AS_CONSTANT && in_constant_table(c, base)) {
				/* a program-scope __constant table, of any rank: part
				 * of the program */
			} else if (!root_form(c, n, &form)) {
				an_add_bad(c, n, "a global memory access vastcc cannot classify");
			} else {
				an_access *a = new_access(c, n, (enum an_form)form);
				a->mode = mode_of(c, n);
				a->part_off = c->nodes[n].part_off;
				a->part_size = c->nodes[n].part_size;
				long long sz = clang_Type_getSizeOf(clang_getCanonicalType(t));
				a->size = sz > 0 ? (unsigned)sz : 0;
				a->ptr_type = ptr_type_of(t);
				if (sz <= 0)
					an_add_bad(c, n, "a global memory access of unknown size");
			}
		} else if (x->kind == CXCursor_DeclRefExpr && x->var >= 0 &&
		           c->vars[x->var].func < 0 && c->vars[x->var].as == AN_AS_GLOBAL) {
			an_add_bad(c, n, "a program-scope __global variable");
		}
	}
}

void an_find_accesses(an_ctx *c)
{
	for (unsigned n = 0; n < c->nnodes; n++)
		find(c, (int)n);
	/* pre-order: a parent's encl is known before its children's */
	for (unsigned n = 0; n < c->nnodes; n++) {
		int p = c->nodes[n].parent;
		if (p >= 0)
			c->nodes[n].encl = c->nodes[p].access >= 0 || c->nodes[p].call >= 0
			                           ? p
			                           : c->nodes[p].encl;
	}
}
