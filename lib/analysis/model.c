/* SPDX-License-Identifier: MIT */
/*
 * model.c - functions, parameters, variables, statements and calls.
 *
 * The cursor tree of every function defined in the main file is copied
 * into c->nodes (pre-order, so source order) with parent and child links;
 * the later passes walk that array instead of calling back into libclang.
 * Variables are identified by the offset of their name in the text, calls
 * to functions of the file by the offset of the definition's name.
 *
 * Statements are the nodes in statement position: children of a compound,
 * the branches of if, loop bodies, the body of switch, the sub-statement
 * of case/default/label. The headers of for/while/do/if/switch and the
 * value of a case are not statements: they are the own text of their
 * control statement (node.header set), rendered or dropped with it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* The nodes whose children are being visited, innermost last: libclang
 * walks expressions with a work list of its own (CXChildVisit_Recurse), so
 * a 20,000-term sum costs no stack here or there; the callback finds the
 * parent of each cursor on this stack. */
typedef struct visit_ctx {
	an_ctx *c;
	int func;
	int *open; unsigned nopen, capopen;
} visit_ctx;

/* An operator spans its operands: Clang's extent of a binary or
 * conditional operator is its first operand's start and its last one's
 * end, found by walking down that operand; asked of every node of a
 * 40,000-term sum, that walk is quadratic. Such a node takes its extent
 * from its children's once they are known (an_build_model). */
static int operands_extent(enum CXCursorKind k)
{
	return k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator ||
	       k == CXCursor_ConditionalOperator;
}

/* A construct that decides whether some of its children run. */
static int is_control(const an_node *x)
{
	switch (x->kind) {
	case CXCursor_IfStmt:
	case CXCursor_ForStmt:
	case CXCursor_WhileStmt:
	case CXCursor_DoStmt:
	case CXCursor_SwitchStmt:
	case CXCursor_ConditionalOperator:
		return 1;
	case CXCursor_BinaryOperator:
		return x->op == CXBinaryOperator_LAnd || x->op == CXBinaryOperator_LOr;
	default:
		return 0;
	}
}

static int add_node(an_ctx *c, CXCursor cur, int parent, int func)
{
	an_node *n = AN_PUSH(c->nodes, c->nnodes, c->capnodes);
	memset(n, 0, sizeof *n);
	n->kind = clang_getCursorKind(cur);
	n->cur = cur;
	if (!operands_extent(n->kind)) {
		CXSourceRange r = clang_getCursorExtent(cur);
		n->begin = an_offset(clang_getRangeStart(r));
		n->end = an_offset(clang_getRangeEnd(r));
	}
	n->parent = parent;
	n->func = func;
	n->stmt = -1;
	n->var = -1;
	n->fn_ref = -1;
	n->access = -1;
	n->call = -1;
	n->op = -1;
	int idx = (int)c->nnodes - 1;
	n->last = idx; /* until its subtree is known: an_build_model */
	n->ctl = -1;
	n->encl = -1;
	if (parent >= 0) {
		an_node *p = &c->nodes[parent];
		*AN_PUSH(p->kids, p->nkids, p->capkids) = idx;
		n->ctl = is_control(p) ? idx : p->ctl;
	}
	if (n->kind == CXCursor_BinaryOperator || n->kind == CXCursor_CompoundAssignOperator)
		n->op = clang_getCursorBinaryOperatorKind(cur);
	else if (n->kind == CXCursor_UnaryOperator)
		n->op = clang_getCursorUnaryOperatorKind(cur);
	return idx;
}

static enum CXChildVisitResult visit(CXCursor cur, CXCursor parent, CXClientData data)
{
	visit_ctx *v = data;
	an_ctx *c = v->c;
	while (v->nopen > 1 && !clang_equalCursors(c->nodes[v->open[v->nopen - 1]].cur, parent))
		v->nopen--;
	int idx = add_node(c, cur, v->open[v->nopen - 1], v->func);
	*AN_PUSH(v->open, v->nopen, v->capopen) = idx;
	return CXChildVisit_Recurse;
}

/* ---- variables -------------------------------------------------------- */

int an_var_of_cursor(an_ctx *c, CXCursor decl)
{
	CXSourceLocation l = clang_getCursorLocation(decl);
	if (!clang_Location_isFromMainFile(l))
		return -1;
	unsigned off = an_offset(l);
	if (off > c->p->len)
		return -1;
	return c->var_at[off] - 1;
}

static int add_var(an_ctx *c, CXCursor decl, int func, int param, int node)
{
	unsigned off = an_offset(clang_getCursorLocation(decl));
	if (off <= c->p->len && c->var_at[off])
		return c->var_at[off] - 1;
	an_var *v = AN_PUSH(c->vars, c->nvars, c->capvars);
	memset(v, 0, sizeof *v);
	v->name = an_cxstr(clang_getCursorSpelling(decl));
	v->key = off;
	v->func = func;
	v->param = param;
	v->node = node;
	v->cls = -1;
	CXType t = clang_getCursorType(decl);
	v->as = an_type_as(t);
	CXType ct = clang_getCanonicalType(t);
	v->is_ptr = ct.kind == CXType_Pointer;
	v->is_array = ct.kind == CXType_ConstantArray || ct.kind == CXType_IncompleteArray ||
	              ct.kind == CXType_VariableArray;
	if (v->is_ptr)
		v->pointee_as = an_type_as(clang_getPointeeType(ct));
	if (v->is_array && param >= 0) {
		/* `float b[]` declares a pointer (C99 6.7.5.3p7) */
		v->is_array = 0;
		v->is_ptr = 1;
		v->pointee_as = an_type_as(clang_getArrayElementType(t));
	}
	v->is_local_mem = v->as == AN_AS_LOCAL || (v->is_ptr && v->pointee_as == AN_AS_LOCAL);
	if (off <= c->p->len)
		c->var_at[off] = (int)c->nvars;
	return (int)c->nvars - 1;
}

/* ---- types ------------------------------------------------------------ */

/* Drops the type's own address-space words from its spelling: "__global
 * const float" -> "const float". A pointer type's own qualifiers follow
 * its last '*'; those before it belong to the pointee and stay:
 * "__global float *__global" -> "__global float *". */
static char *strip_as(const char *s)
{
	static const char *const words[] = { "__global", "__constant", "__local",
	                                     "__private", "__generic", "global",
	                                     "constant", "local", "private", "generic" };
	size_t n = strlen(s);
	char *out = an_xmalloc(n + 1);
	const char *star = strrchr(s, '*');
	size_t from = star ? (size_t)(star - s) : 0, j = 0;
	for (size_t i = 0; i < n;) {
		int hit = 0;
		if (i >= from &&
		    (i == 0 || s[i - 1] == ' ' || s[i - 1] == '*' || s[i - 1] == '(')) {
			for (unsigned w = 0; w < sizeof words / sizeof *words; w++) {
				size_t wl = strlen(words[w]);
				if (!strncmp(s + i, words[w], wl) &&
				    (s[i + wl] == ' ' || s[i + wl] == 0)) {
					i += wl;
					while (s[i] == ' ')
						i++;
					hit = 1;
					break;
				}
			}
		}
		if (!hit)
			out[j++] = s[i++];
	}
	while (j > 0 && out[j - 1] == ' ')
		j--;
	out[j] = 0;
	return out;
}

char *an_elem_type(CXType pointee);
char *an_elem_type(CXType pointee)
{
	char *s = an_type_str(pointee);
	char *r = strip_as(s);
	free(s);
	return r;
}

/* A parameter's type as written, without the parameter's own implicit
 * __private: "__global float *__private" -> "__global float *". */
static char *param_type(CXType t)
{
	char *s = an_type_str(t);
	size_t n = strlen(s);
	const char *suf = " __private";
	if (n >= 10 && !strcmp(s + n - 10, suf))
		s[n - 10] = 0;
	else if (n >= 9 && !strcmp(s + n - 9, "__private"))
		s[n - 9] = 0;
	n = strlen(s);
	while (n && s[n - 1] == ' ')
		s[--n] = 0;
	if (!strncmp(s, "__private ", 10))
		memmove(s, s + 10, strlen(s + 10) + 1);
	return s;
}

static int is_array_param_type(CXType t)
{
	return t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray ||
	       t.kind == CXType_VariableArray;
}

/* The pointee of a pointer type (or the element of an array parameter's
 * type, which is the adjusted pointer's pointee), through typedefs of the pointer
 * (`typedef __global float *fptr`) but keeping the pointee's own
 * spelling (`__global rec *` -> rec, not the struct behind it). */
static CXType pointee_sugared(CXType t)
{
	for (int i = 0; i < 32; i++) {
		CXType pt = clang_getPointeeType(t);
		if (pt.kind != CXType_Invalid)
			return pt;
		if (is_array_param_type(t))
			return clang_getArrayElementType(t);
		if (t.kind == CXType_Typedef)
			t = clang_getTypedefDeclUnderlyingType(clang_getTypeDeclaration(t));
		else if (t.kind == CXType_Elaborated)
			t = clang_Type_getNamedType(t);
		else
			break;
	}
	t = clang_getCanonicalType(t);
	if (is_array_param_type(t))
		return clang_getArrayElementType(t);
	return clang_getPointeeType(t);
}

static unsigned param_kind(CXType t)
{
	CXType ct = clang_getCanonicalType(t);
	if (ct.kind == CXType_Pointer || is_array_param_type(ct)) {
		/* the canonical array type holds the address space, not its
		 * element: ask the element as written */
		switch (an_type_as(pointee_sugared(ct.kind == CXType_Pointer ? ct : t))) {
		case AN_AS_GLOBAL: return VAST_PARAM_GLOBAL;
		case AN_AS_CONSTANT: return VAST_PARAM_CONSTANT;
		case AN_AS_LOCAL: return VAST_PARAM_LOCAL;
		default: return VAST_PARAM_OTHER;
		}
	}
	if (ct.kind >= CXType_OCLImage1dRO && ct.kind <= CXType_OCLImage3dRW)
		return VAST_PARAM_IMAGE;
	if (ct.kind == CXType_OCLSampler)
		return VAST_PARAM_SAMPLER;
	if (ct.kind == CXType_Pipe || ct.kind == CXType_OCLEvent || ct.kind == CXType_OCLQueue)
		return VAST_PARAM_OTHER;
	return VAST_PARAM_SCALAR;
}

/* ---- statements ------------------------------------------------------- */

static enum an_stmt_kind stmt_kind(enum CXCursorKind k)
{
	switch (k) {
	case CXCursor_CompoundStmt: return AN_STMT_COMPOUND;
	case CXCursor_DeclStmt: return AN_STMT_DECL;
	case CXCursor_IfStmt: return AN_STMT_IF;
	case CXCursor_ForStmt: return AN_STMT_FOR;
	case CXCursor_WhileStmt: return AN_STMT_WHILE;
	case CXCursor_DoStmt: return AN_STMT_DO;
	case CXCursor_SwitchStmt: return AN_STMT_SWITCH;
	case CXCursor_CaseStmt: return AN_STMT_CASE;
	case CXCursor_DefaultStmt: return AN_STMT_DEFAULT;
	case CXCursor_ReturnStmt: return AN_STMT_RETURN;
	case CXCursor_BreakStmt: return AN_STMT_BREAK;
	case CXCursor_ContinueStmt: return AN_STMT_CONTINUE;
	case CXCursor_GotoStmt: return AN_STMT_GOTO;
	case CXCursor_LabelStmt: return AN_STMT_LABEL;
	case CXCursor_NullStmt: return AN_STMT_NULL;
	default:
		if (clang_isExpression(k))
			return AN_STMT_EXPR;
		return AN_STMT_OTHER;
	}
}

/* Which children of statement node n are statements themselves. */
static int is_stmt_child(an_ctx *c, int n, unsigned i)
{
	an_node *x = &c->nodes[n];
	unsigned last = x->nkids - 1;
	switch (x->kind) {
	case CXCursor_CompoundStmt: return 1;
	case CXCursor_IfStmt: return i >= 1;
	case CXCursor_ForStmt:
	case CXCursor_SwitchStmt:
	case CXCursor_CaseStmt:
	case CXCursor_LabelStmt: return i == last;
	case CXCursor_WhileStmt: return i == last;
	case CXCursor_DoStmt: return i == 0;
	case CXCursor_DefaultStmt: return i == 0;
	default: return 0;
	}
}

static void mark_nodes(an_ctx *c, int n, int stmt, int header)
{
	for (int m = n; m <= c->nodes[n].last; m++) {
		c->nodes[m].stmt = stmt;
		c->nodes[m].header = header;
	}
}

/* `#pragma unroll`, `__attribute__((opencl_unroll_hint))` and other
 * statement attributes wrap their statement in an AttributedStmt, an
 * UnexposedStmt to libclang, whose extent starts at the pragma. The inner
 * statement, or -1 when n is no such wrapper. */
static int attributed_inner(an_ctx *c, int n)
{
	an_node *x = &c->nodes[n];
	if (x->kind != CXCursor_UnexposedStmt)
		return -1;
	int inner = -1;
	for (unsigned i = 0; i < x->nkids; i++) {
		enum CXCursorKind k = c->nodes[x->kids[i]].kind;
		if (clang_isAttribute(k))
			continue;
		if (inner >= 0 || !(clang_isStatement(k) || clang_isExpression(k)))
			return -1;
		inner = x->kids[i];
	}
	return inner;
}

static void add_stmt(an_ctx *c, int n, int parent, int func)
{
	an_program *p = c->p;
	an_stmt *s = AN_PUSH(p->stmts, p->nstmts, c->capstmts);
	int si = (int)p->nstmts - 1;
	memset(s, 0, sizeof *s);
	s->range.begin = c->nodes[n].begin;
	/* One statement for the wrapper and the statement it wraps: the
	 * pragma must stay with its loop whether the loop is kept or dropped
	 * (a pragma before an item does not compile). */
	for (int in; (in = attributed_inner(c, n)) >= 0; n = in) {
		c->nodes[n].stmt = si;
		c->nodes[n].header = 0;
	}
	an_node *x = &c->nodes[n];
	s->kind = stmt_kind(x->kind);
	s->range.end = x->end;
	s->parent = parent;
	s->func = func;
	c->stmt_node = realloc(c->stmt_node, c->capstmts * sizeof *c->stmt_node);
	c->stmt_node[si] = n;
	/* libclang's extents of these stop before the ';' */
	if (s->kind == AN_STMT_EXPR || s->kind == AN_STMT_RETURN || s->kind == AN_STMT_BREAK ||
	    s->kind == AN_STMT_CONTINUE || s->kind == AN_STMT_GOTO || s->kind == AN_STMT_DO ||
	    s->kind == AN_STMT_OTHER) {
		/* ... and some stop short of the end: `(float4)(0.0f)` ends at
		 * its last literal, so look for the ';' past closing parens */
		unsigned e = s->range.end;
		while (e < p->len && p->text[e] != ';' && p->text[e] != '{' && p->text[e] != '}')
			e++;
		if (e < p->len && p->text[e] == ';')
			s->range.end = e + 1;
	}
	enum an_stmt_kind kind = s->kind; /* s moves as stmts grow */
	int hdr = kind != AN_STMT_EXPR && kind != AN_STMT_DECL && kind != AN_STMT_RETURN &&
	          kind != AN_STMT_OTHER;
	x->stmt = si;
	x->header = 0;
	for (unsigned i = 0; i < x->nkids; i++) {
		int k = x->kids[i];
		if (is_stmt_child(c, n, i))
			add_stmt(c, k, si, func);
		else
			mark_nodes(c, k, si, hdr);
	}
}

/* ---- builtins --------------------------------------------------------- */

static enum an_builtin builtin_of(const char *name)
{
	static const struct { const char *n; enum an_builtin b; } tab[] = {
		{ "get_global_id", AN_BI_GLOBAL_ID }, { "get_local_id", AN_BI_LOCAL_ID },
		{ "get_group_id", AN_BI_GROUP_ID }, { "get_num_groups", AN_BI_NUM_GROUPS },
		{ "get_global_size", AN_BI_GLOBAL_SIZE }, { "get_local_size", AN_BI_LOCAL_SIZE },
		{ "get_enqueued_local_size", AN_BI_ENQUEUED_LOCAL_SIZE },
		{ "get_global_offset", AN_BI_GLOBAL_OFFSET }, { "get_work_dim", AN_BI_WORK_DIM },
		{ "get_global_linear_id", AN_BI_GLOBAL_LINEAR_ID },
		{ "get_local_linear_id", AN_BI_LOCAL_LINEAR_ID },
	};
	for (unsigned i = 0; i < sizeof tab / sizeof *tab; i++)
		if (!strcmp(tab[i].n, name))
			return tab[i].b;
	return AN_BI_NONE;
}

/* ---- definitions ------------------------------------------------------ */

static void add_def(an_ctx *c, int var, int node)
{
	if (var < 0)
		return;
	an_def *d = AN_PUSH(c->defs, c->ndefs, c->capdefs);
	d->var = var;
	d->node = node;
	c->vars[var].ndefs++;
}

/* The variable an lvalue is rooted in when it is private or local memory
 * (v, v[i], v.f, v[i].f); -1 for memory reached through a pointer. */
static int lvalue_root(an_ctx *c, int n, int *through_ptr)
{
	*through_ptr = 0;
	for (;;) {
		n = an_strip(c, n);
		if (n < 0)
			return -1;
		an_node *x = &c->nodes[n];
		if (x->kind == CXCursor_DeclRefExpr)
			return x->var;
		if (x->kind == CXCursor_ArraySubscriptExpr && x->nkids == 2) {
			int b = an_strip(c, x->kids[0]);
			if (b >= 0 && c->nodes[b].kind == CXCursor_DeclRefExpr &&
			    c->nodes[b].var >= 0 && c->vars[c->nodes[b].var].is_array) {
				n = b;
				continue;
			}
			/* a vector component v[i] of a vector variable */
			if (b >= 0 && clang_getCanonicalType(an_node_type(c, b)).kind == CXType_ExtVector) {
				n = b;
				continue;
			}
			*through_ptr = 1;
			return an_strip(c, x->kids[0]) >= 0 ? c->nodes[an_strip(c, x->kids[0])].var : -1;
		}
		if (x->kind == CXCursor_MemberRefExpr && x->nkids >= 1) {
			int b = x->kids[0];
			if (an_node_is_ptr(c, b)) {
				*through_ptr = 1;
				int bs = an_strip(c, b);
				return bs >= 0 ? c->nodes[bs].var : -1;
			}
			n = b;
			continue;
		}
		if (x->kind == CXCursor_UnexposedExpr && x->nkids == 1) {
			n = x->kids[0]; /* vector component: v.x */
			continue;
		}
		if (x->kind == CXCursor_UnaryOperator && x->op == CXUnaryOperator_Deref) {
			*through_ptr = 1;
			int bs = an_strip(c, x->kids[0]);
			return bs >= 0 ? c->nodes[bs].var : -1;
		}
		return -1;
	}
}

/* The initializer of the VarDecl at node n, or -1. The sizes in its type
 * (`float *p[4]`, `float (*m)[4]`) are expression children too, before
 * the initializer. */
int an_var_init(an_ctx *c, int n)
{
	an_node *x = &c->nodes[n];
	if (clang_Cursor_isNull(clang_Cursor_getVarDeclInitializer(x->cur)) || !x->nkids)
		return -1;
	int e = x->kids[x->nkids - 1];
	return clang_isExpression(c->nodes[e].kind) ? e : -1;
}

/* Assignments through non-global pointers are marked (ptr_store) and
 * resolved once addr_taken is known: they may write any variable whose
 * address escaped. */
static void note_write(an_ctx *c, int lhs, int node)
{
	int through;
	int v = lvalue_root(c, lhs, &through);
	if (!through) {
		add_def(c, v, node);
		return;
	}
	/* through a pointer: only private/local memory is a variable */
	unsigned as = an_type_as(an_node_type(c, an_strip(c, lhs) >= 0 ? an_strip(c, lhs) : lhs));
	if (as == AN_AS_GLOBAL || as == AN_AS_CONSTANT)
		return;
	add_def(c, v, node);
	c->nodes[node].ptr_store = 1;
}

static void collect_def(an_ctx *c, int n)
{
	an_node *x = &c->nodes[n];
	switch (x->kind) {
	case CXCursor_VarDecl:
		if (x->var >= 0 && an_var_init(c, n) >= 0) {
			c->vars[x->var].has_init = 1;
			add_def(c, x->var, n);
			c->vars[x->var].ndefs--; /* the declaration itself */
		}
		break;
	case CXCursor_BinaryOperator:
		if (x->op == CXBinaryOperator_Assign && x->nkids == 2)
			note_write(c, x->kids[0], n);
		break;
	case CXCursor_CompoundAssignOperator:
		if (x->nkids == 2)
			note_write(c, x->kids[0], n);
		break;
	case CXCursor_UnaryOperator:
		if (x->nkids >= 1 && (x->op == CXUnaryOperator_PostInc || x->op == CXUnaryOperator_PostDec ||
		                      x->op == CXUnaryOperator_PreInc || x->op == CXUnaryOperator_PreDec))
			note_write(c, x->kids[0], n);
		if (x->nkids >= 1 && x->op == CXUnaryOperator_AddrOf) {
			int through;
			int v = lvalue_root(c, x->kids[0], &through);
			if (v >= 0 && !through) {
				c->vars[v].addr_taken = 1;
				add_def(c, v, n);
			}
		}
		break;
	case CXCursor_DeclRefExpr:
		/* an array decays to a pointer unless it is subscripted */
		if (x->var >= 0 && c->vars[x->var].is_array) {
			int up = an_up(c, n);
			int sub = up >= 0 && c->nodes[up].kind == CXCursor_ArraySubscriptExpr &&
			          an_strip(c, c->nodes[up].kids[0]) == n;
			int mem = up >= 0 && c->nodes[up].kind == CXCursor_UnaryExpr; /* sizeof */
			if (!sub && !mem) {
				c->vars[x->var].addr_taken = 1;
				add_def(c, x->var, n);
			}
		}
		break;
	default:
		break;
	}
}

/* ---- the pass --------------------------------------------------------- */

static int attr_is_kernel(an_ctx *c, int n)
{
	an_node *x = &c->nodes[n];
	const char *t = c->p->text + x->begin;
	unsigned len = x->end - x->begin;
	if ((len == 8 && !strncmp(t, "__kernel", 8)) || (len == 6 && !strncmp(t, "kernel", 6)))
		return 1;
	for (unsigned i = 0; i + 13 <= len; i++)
		if (!strncmp(t + i, "opencl_kernel", 13))
			return 1;
	return 0;
}

static void resolve_ref(an_ctx *c, int n)
{
	an_node *x = &c->nodes[n];
	if (x->kind == CXCursor_DeclRefExpr || x->kind == CXCursor_MemberRefExpr) {
		if (x->kind == CXCursor_DeclRefExpr) {
			CXCursor ref = clang_getCursorReferenced(x->cur);
			enum CXCursorKind rk = clang_getCursorKind(ref);
			if (rk == CXCursor_VarDecl || rk == CXCursor_ParmDecl)
				x->var = an_var_of_cursor(c, ref);
		}
	} else if (x->kind == CXCursor_VarDecl && x->func >= 0) {
		x->var = add_var(c, x->cur, x->func, -1, n);
	} else if (x->kind == CXCursor_CallExpr) {
		x->callee = an_cxstr(clang_getCursorSpelling(x->cur));
		CXCursor ref = clang_getCursorReferenced(x->cur);
		if (!clang_Cursor_isNull(ref) && clang_getCursorKind(ref) == CXCursor_FunctionDecl) {
			CXCursor def = clang_getCursorDefinition(ref);
			if (!clang_Cursor_isNull(def) &&
			    clang_Location_isFromMainFile(clang_getCursorLocation(def))) {
				unsigned off = an_offset(clang_getCursorLocation(def));
				if (off <= c->p->len)
					x->fn_ref = c->fn_at[off] - 1;
			}
		}
	}
}

static void add_call(an_ctx *c, int n)
{
	an_node *x = &c->nodes[n];
	an_program *p = c->p;
	if (x->kind == CXCursor_CallExpr && x->callee) {
		enum an_builtin bi = x->fn_ref >= 0 ? AN_BI_NONE : builtin_of(x->callee);
		if (x->fn_ref >= 0 || bi != AN_BI_NONE) {
			an_call *k = AN_PUSH(p->calls, p->ncalls, c->capcalls);
			memset(k, 0, sizeof *k);
			k->expr.begin = x->begin;
			k->expr.end = x->end;
			k->callee.begin = x->begin;
			k->callee.end = x->begin;
			if (x->nkids >= 1) {
				int cal = x->kids[0];
				k->callee.end = c->nodes[cal].end;
			}
			unsigned lp = k->callee.end;
			while (lp < x->end && p->text[lp] != '(')
				lp++;
			k->lparen = lp;
			int na = clang_Cursor_getNumArguments(x->cur);
			k->nargs = na > 0 ? (unsigned)na : 0;
			k->target = x->fn_ref;
			k->builtin = bi;
			k->func = x->func;
			k->stmt = x->stmt;
			x->call = (int)p->ncalls - 1;
		}
	}
}

static enum CXChildVisitResult top_visit(CXCursor cur, CXCursor parent, CXClientData data)
{
	(void)parent;
	an_ctx *c = data;
	if (!clang_Location_isFromMainFile(clang_getCursorLocation(cur)))
		return CXChildVisit_Continue;
	enum CXCursorKind k = clang_getCursorKind(cur);
	if (k == CXCursor_FunctionDecl && clang_isCursorDefinition(cur)) {
		an_program *p = c->p;
		an_func *f = AN_PUSH(p->funcs, p->nfuncs, c->capfuncs);
		memset(f, 0, sizeof *f);
		int fi = (int)p->nfuncs - 1;
		c->func_node = realloc(c->func_node, c->capfuncs * sizeof *c->func_node);
		int idx = add_node(c, cur, -1, fi);
		c->func_node[fi] = idx;
		visit_ctx v = { c, fi, NULL, 0, 0 };
		*AN_PUSH(v.open, v.nopen, v.capopen) = idx;
		clang_visitChildren(cur, visit, &v);
		free(v.open);
		unsigned off = an_offset(clang_getCursorLocation(cur));
		if (off <= p->len)
			c->fn_at[off] = fi + 1;
	} else if (k == CXCursor_VarDecl) {
		/* program-scope variables: __constant tables, CL2.0 __global */
		add_var(c, cur, -1, -1, -1);
	}
	return CXChildVisit_Continue;
}

static void build_func(an_ctx *c, int fi)
{
	an_program *p = c->p;
	an_func *f = &p->funcs[fi];
	int fn = c->func_node[fi];
	an_node *x = &c->nodes[fn];
	CXCursor cur = x->cur;
	f->name = an_cxstr(clang_getCursorSpelling(cur));
	f->range.begin = x->begin;
	f->range.end = x->end;
	unsigned nb = an_offset(clang_getCursorLocation(cur));
	f->name_range.begin = nb;
	f->name_range.end = nb + (unsigned)strlen(f->name);
	unsigned lp = f->name_range.end;
	while (lp < x->end && p->text[lp] != '(')
		lp++;
	f->lparen = lp;
	int depth = 0;
	unsigned rp = lp;
	for (; rp < x->end; rp++) {
		if (p->text[rp] == '(')
			depth++;
		else if (p->text[rp] == ')' && --depth == 0)
			break;
	}
	f->rparen = rp;
	f->ret_type = an_type_str(clang_getResultType(clang_getCursorType(cur)));
	f->loc = an_loc_of(c, clang_getRangeStart(clang_getCursorExtent(cur)));
	f->body_stmt = -1;
	f->merge_exact = 1;
	f->virtualizable = 1;
	unsigned np = 0;
	for (unsigned i = 0; i < x->nkids; i++) {
		an_node *k = &c->nodes[x->kids[i]];
		if (k->kind == CXCursor_ParmDecl)
			np++;
		else if (k->kind == CXCursor_UnexposedAttr && attr_is_kernel(c, x->kids[i]))
			f->is_kernel = 1;
	}
	f->params = an_xcalloc(np ? np : 1, sizeof *f->params);
	for (unsigned i = 0; i < x->nkids; i++) {
		int kn = x->kids[i];
		an_node *k = &c->nodes[kn];
		if (k->kind == CXCursor_ParmDecl) {
			an_param *pa = &f->params[f->nparams];
			CXType t = clang_getCursorType(k->cur);
			pa->name = an_cxstr(clang_getCursorSpelling(k->cur));
			pa->range.begin = k->begin;
			pa->range.end = k->end;
			pa->kind = param_kind(t);
			pa->type = param_type(t);
			if (is_array_param_type(clang_getCanonicalType(t))) {
				/* spelled as the adjusted pointer: the rewrite declares
				 * a variable of this type */
				char *e = an_type_str(clang_getArrayElementType(t));
				size_t el = strlen(e) + 3;
				free(pa->type);
				pa->type = an_xmalloc(el);
				snprintf(pa->type, el, "%s *", e);
				free(e);
			}
			if (pa->kind == VAST_PARAM_GLOBAL || pa->kind == VAST_PARAM_CONSTANT ||
			    pa->kind == VAST_PARAM_LOCAL) {
				CXType pt = pointee_sugared(clang_getCanonicalType(t));
				pa->elem_type = an_elem_type(pointee_sugared(t));
				long long sz = clang_Type_getSizeOf(pt);
				pa->elem_size = sz > 0 ? (unsigned)sz : 0;
			} else {
				pa->elem_type = an_xstrdup("");
			}
			pa->loc = an_loc_of(c, clang_getRangeStart(clang_getCursorExtent(k->cur)));
			k->var = add_var(c, k->cur, fi, (int)f->nparams, kn);
			f->nparams++;
		} else if (k->kind == CXCursor_CompoundStmt) {
			f->body.begin = k->begin;
			f->body.end = k->end;
			f->body_stmt = (int)p->nstmts;
			add_stmt(c, kn, -1, fi);
		}
	}
}

int an_build_model(an_ctx *c)
{
	an_program *p = c->p;
	c->var_at = an_xcalloc(p->len + 2, sizeof *c->var_at);
	c->fn_at = an_xcalloc(p->len + 2, sizeof *c->fn_at);
	clang_visitChildren(clang_getTranslationUnitCursor(c->tu), top_visit, c);
	/* pre-order: a node's subtree is [n, last]; children come after
	 * their parent, so one backward pass finds every last */
	for (unsigned n = c->nnodes; n-- > 0;) {
		an_node *x = &c->nodes[n];
		if (operands_extent(x->kind)) {
			/* its children's extents are known: they come after it */
			unsigned want = x->kind == CXCursor_ConditionalOperator ? 3 : 2;
			if (x->nkids == want) {
				x->begin = c->nodes[x->kids[0]].begin;
				x->end = c->nodes[x->kids[want - 1]].end;
			} else { /* an invalid program's operator: Clang's own */
				CXSourceRange r = clang_getCursorExtent(x->cur);
				x->begin = an_offset(clang_getRangeStart(r));
				x->end = an_offset(clang_getRangeEnd(r));
			}
		}
		int par = x->parent;
		if (par >= 0 && c->nodes[par].last < x->last)
			c->nodes[par].last = x->last;
	}
	for (unsigned i = 0; i < p->nfuncs; i++)
		build_func(c, (int)i);
	/* a statement ends no earlier than its last sub-statement's ';' */
	for (unsigned s = p->nstmts; s-- > 0;) {
		int par = p->stmts[s].parent;
		if (par >= 0 && p->stmts[par].range.end < p->stmts[s].range.end)
			p->stmts[par].range.end = p->stmts[s].range.end;
	}
	/* each pass over every function's nodes in source order (a
	 * declaration before its uses) */
	for (unsigned n = 0; n < c->nnodes; n++)
		resolve_ref(c, (int)n);
	for (unsigned n = 0; n < c->nnodes; n++)
		add_call(c, (int)n);
	for (unsigned n = 0; n < c->nnodes; n++)
		collect_def(c, (int)n);
	/* a store through a private or local pointer may write any variable
	 * of the function whose address escaped */
	for (unsigned n = 0; n < c->nnodes; n++) {
		if (!c->nodes[n].ptr_store)
			continue;
		int f = c->nodes[n].func;
		for (unsigned v = 0; v < c->nvars; v++)
			if (c->vars[v].func == f && c->vars[v].addr_taken)
				add_def(c, (int)v, (int)n);
	}
	free(c->var_at);
	free(c->fn_at);
	c->var_at = c->fn_at = NULL;
	return 1;
}

unsigned an_func_end(an_ctx *c, int f)
{
	return (unsigned)f + 1 < c->p->nfuncs ? (unsigned)c->func_node[f + 1] : c->nnodes;
}

int an_ctl_next(an_ctx *c, int m)
{
	return c->nodes[c->nodes[m].parent].ctl;
}

int an_param_var(an_ctx *c, int f, unsigned i)
{
	an_node *x = &c->nodes[c->func_node[f]];
	for (unsigned k = 0; k < x->nkids; k++) {
		an_node *y = &c->nodes[x->kids[k]];
		if (y->kind == CXCursor_ParmDecl && y->var >= 0 && c->vars[y->var].param == (int)i)
			return y->var;
	}
	return -1;
}

int an_in(const an_range *r, unsigned b, unsigned e)
{
	return b >= r->begin && e <= r->end;
}
