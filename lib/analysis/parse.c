/* SPDX-License-Identifier: MIT */
/*
 * parse.c - the preprocessed text through libclang, and the small helpers
 * over cursors and types the other passes share.
 *
 * The text is parsed as an unsaved file named like the user's file, with
 * `-x cl -cl-std=.. -Xclang -finclude-default-header -Xclang
 * -fdeclare-opencl-builtins` (the builtin declarations come from clang's
 * tables instead of the 18,000-line opencl-c.h: same AST, a tenth of the
 * time). Diagnostics of severity error or worse are printed at their
 * presumed location, which follows the #line directives back to the
 * user's file and line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

unsigned an_offset(CXSourceLocation l)
{
	unsigned off = 0;
	clang_getFileLocation(l, NULL, NULL, NULL, &off);
	return off;
}

an_loc an_loc_of(an_ctx *c, CXSourceLocation l)
{
	CXString f;
	unsigned line = 0, col = 0;
	clang_getPresumedLocation(l, &f, &line, &col);
	char *name = an_cxstr(f);
	an_loc loc = { an_intern_name(c->p, name[0] ? name : c->path), line, col };
	free(name);
	return loc;
}

an_loc an_node_loc(an_ctx *c, int n)
{
	CXCursor cur = c->nodes[n].cur;
	/* the operator's or name's location reads best: p[i] at p, a->b at b */
	return an_loc_of(c, clang_getRangeStart(clang_getCursorExtent(cur)));
}

int an_parse(an_ctx *c, const char *cl_std)
{
	char stdarg[64];
	snprintf(stdarg, sizeof stdarg, "-cl-std=%s", cl_std);
	const char *args[] = { "-x", "cl", stdarg, "-Xclang",
	                       "-finclude-default-header", "-Xclang",
	                       "-fdeclare-opencl-builtins", "-w" };
	struct CXUnsavedFile uf = { c->path, c->p->text, (unsigned long)c->p->len };
	c->index = clang_createIndex(0, 0);
	enum CXErrorCode err = clang_parseTranslationUnit2(
		c->index, c->path, args, sizeof args / sizeof *args, &uf, 1,
		CXTranslationUnit_KeepGoing, &c->tu);
	if (err != CXError_Success || !c->tu) {
		an_diag_error((an_loc){0}, "cannot parse '%s' (libclang error %d)",
		              c->path, (int)err);
		return 0;
	}
	int bad = 0;
	unsigned nd = clang_getNumDiagnostics(c->tu);
	for (unsigned i = 0; i < nd; i++) {
		CXDiagnostic d = clang_getDiagnostic(c->tu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
		if (sev >= CXDiagnostic_Error) {
			an_loc loc = an_loc_of(c, clang_getDiagnosticLocation(d));
			char *msg = an_cxstr(clang_getDiagnosticSpelling(d));
			an_diag_error(loc, "%s", msg);
			free(msg);
			bad = 1;
		}
		clang_disposeDiagnostic(d);
	}
	return !bad;
}

CXType an_node_type(an_ctx *c, int n)
{
	return clang_getCursorType(c->nodes[n].cur);
}

/* clang_getAddressSpace() crashes on invalid types. */
unsigned an_type_as(CXType t)
{
	if (t.kind == CXType_Invalid)
		return 0;
	return clang_getAddressSpace(t);
}

int an_type_is_ptr(CXType t)
{
	t = clang_getCanonicalType(t);
	return t.kind == CXType_Pointer;
}

char *an_type_str(CXType t)
{
	return an_cxstr(clang_getTypeSpelling(t));
}

/* Implicit casts are UnexposedExprs with their child's extent; other
 * unexposed expressions (vector components) are wider than the child. */
int an_is_cast_like(an_ctx *c, int n)
{
	an_node *x = &c->nodes[n];
	if (x->kind == CXCursor_ParenExpr)
		return 1;
	if (x->kind == CXCursor_UnexposedExpr && x->nkids == 1) {
		an_node *k = &c->nodes[x->kids[0]];
		return k->begin == x->begin && k->end == x->end;
	}
	return 0;
}

int an_strip(an_ctx *c, int n)
{
	while (n >= 0 && (an_is_cast_like(c, n) ||
	                  c->nodes[n].kind == CXCursor_CStyleCastExpr) &&
	       c->nodes[n].nkids >= 1) {
		an_node *x = &c->nodes[n];
		n = x->kids[x->nkids - 1];
	}
	return n;
}

int an_up(an_ctx *c, int n)
{
	int p = c->nodes[n].parent;
	while (p >= 0 && an_is_cast_like(c, p))
		p = c->nodes[p].parent;
	return p;
}
