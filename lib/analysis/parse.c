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
 *
 * The device compiler, not vastcc, judges what is valid OpenCL C: clang 19
 * made implicit int (`const x = 2;`) and int-conversion errors by default,
 * which the device compilers (PoCL's clang 15, vendor compilers) accept
 * with a warning, so we downgrade those two to the warnings `-w` hides.
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
	int named = name[0] != 0;
	free(name);
	if (c->cm && named) {
		/* clang -E ran: columns are those of the expanded text */
		CXFile file;
		unsigned off;
		clang_getFileLocation(l, &file, NULL, NULL, &off);
		if (!c->main_file && c->tu)
			c->main_file = clang_getFile(c->tu, c->path);
		if (file && c->main_file && clang_File_isEqual(file, c->main_file))
			loc = an_colmap_loc(c, loc, off);
	}
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
	                       "-fdeclare-opencl-builtins", "-w",
	                       "-Wno-error=implicit-int", "-Wno-error=int-conversion" };
	struct CXUnsavedFile uf = { c->path, c->p->text, (unsigned long)c->p->len };
	c->index = clang_createIndex(0, 0);
	enum CXErrorCode err = clang_parseTranslationUnit2(
		c->index, c->path, args, sizeof args / sizeof *args, &uf, 1,
		CXTranslationUnit_KeepGoing, &c->tu);
	if (err != CXError_Success || !c->tu) {
		/* No translation unit, so none of clang's diagnostics: the
		 * error belongs to the whole file. Clang 19 crashes on a few
		 * invalid programs (an unparsable operand of as_uint()); its
		 * crash recovery returns CXError_Crashed. */
		an_loc file = { an_intern_name(c->p, c->path), 1, 1 };
		if (err == CXError_Crashed)
			an_error_at(c, file, "clang crashed while parsing this file; vastcc cannot compile it (clang -fsyntax-only shows its errors)");
		else
			an_error_at(c, file, "cannot parse this file (libclang error %d)", (int)err);
		return 0;
	}
	int bad = 0;
	/* A few of clang's diagnostics have no location, "too many errors
	 * emitted, stopping now" among them: they are given the place of the
	 * error before them (where clang stopped), or the file's start. */
	an_loc last = { an_intern_name(c->p, c->path), 1, 1 };
	unsigned nd = clang_getNumDiagnostics(c->tu);
	for (unsigned i = 0; i < nd; i++) {
		CXDiagnostic d = clang_getDiagnostic(c->tu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
		if (sev >= CXDiagnostic_Error) {
			an_loc loc = an_loc_of(c, clang_getDiagnosticLocation(d));
			/* A column says there is a place (the line may be 0
			 * after `#line 0`, see diag.c). */
			if (loc.col)
				last = loc;
			char *msg = an_cxstr(clang_getDiagnosticSpelling(d));
			an_error_at(c, loc.col ? loc : last, "%s", msg);
			free(msg);
			bad = 1;
		}
		clang_disposeDiagnostic(d);
	}
	return !bad;
}

static int is_array_kind(enum CXTypeKind k)
{
	return k == CXType_ConstantArray || k == CXType_IncompleteArray ||
	       k == CXType_VariableArray || k == CXType_DependentSizedArray;
}

CXType an_node_type(an_ctx *c, int n)
{
	return clang_getCursorType(c->nodes[n].cur);
}

/* A parameter declared as an array is a pointer (C99 6.7.5.3p7), but
 * libclang shows the adjusted ("decayed") type as the array written, on
 * the ParmDecl, its DeclRefExprs and their implicit casts alike, and has
 * no way to make the pointer type. So pointer-ness is asked of nodes:
 * such a reference is a pointer to the array's element type. */
static int array_param_ref(an_ctx *c, int n)
{
	CXType t = an_node_type(c, n);
	if (t.kind == CXType_Pointer || !is_array_kind(clang_getCanonicalType(t).kind))
		return 0;
	/* the sugar spreads to what is computed from it: b + i, (b), c ? b : d;
	 * each step goes down to a child, so the walk ends, however deep */
	for (;;) {
		an_node *x = &c->nodes[n];
		switch (x->kind) {
		case CXCursor_DeclRefExpr:
			return x->var >= 0 && c->vars[x->var].param >= 0;
		case CXCursor_UnexposedExpr:
		case CXCursor_ParenExpr:
		case CXCursor_BinaryOperator:
		case CXCursor_CompoundAssignOperator:
		case CXCursor_UnaryOperator:
		case CXCursor_ConditionalOperator: {
			int next = -1;
			for (unsigned i = 0; i < x->nkids && next < 0; i++) {
				CXType kt = an_node_type(c, x->kids[i]);
				if (kt.kind != CXType_Pointer &&
				    is_array_kind(clang_getCanonicalType(kt).kind))
					next = x->kids[i];
			}
			if (next < 0)
				return 0;
			n = next;
			continue;
		}
		default:
			return 0;
		}
	}
}

int an_node_is_ptr(an_ctx *c, int n)
{
	return an_type_is_ptr(an_node_type(c, n)) || array_param_ref(c, n);
}

CXType an_node_pointee(an_ctx *c, int n)
{
	CXType t = an_node_type(c, n);
	if (array_param_ref(c, n)) {
		/* the canonical array keeps the address space on itself, not on
		 * its element: ask the array as written first */
		CXType e = clang_getArrayElementType(t);
		return e.kind != CXType_Invalid ? e
		     : clang_getArrayElementType(clang_getCanonicalType(t));
	}
	return clang_getPointeeType(t);
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
