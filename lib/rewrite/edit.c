/* SPDX-License-Identifier: MIT */
/*
 * edit.c - the source edit buffer (rewrite.h has the contract).
 *
 * Edits are collected in any order. Rendering first sorts them into a
 * forest by nesting: sorted by begin, insertions before replacements at the
 * same offset, longer ranges first, then in the order added; one pass with
 * a stack of open replacements gives every edit its parent. Rendering a
 * range then walks one sibling list: text between edits is copied, an edit
 * inside the range is emitted piece by piece (a source piece renders the
 * edit's own children over the piece's range), and an edit that encloses
 * the whole range is looked into.
 */
#define _GNU_SOURCE /* vasprintf */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rewrite.h"

typedef struct piece {
	char *lit;      /* literal text, or NULL for the source range b..e */
	unsigned b, e;
} piece;

typedef struct edit {
	unsigned b, e;  /* b == e: an insertion */
	unsigned seq;   /* order added */
	piece *pieces;
	unsigned npieces, cap;
	int child, next; /* the nesting forest, built by build() */
} edit;

struct rw_edits {
	const char *text;
	size_t len;
	edit *v;
	unsigned n, cap;
	int cur;        /* the edit pieces go to, -1 before any */
	int root;       /* first top-level edit */
	int built;      /* the forest matches v */
	int failed;     /* an internal error was reported */
};

rw_edits *rw_edits_create(const char *text, size_t len)
{
	rw_edits *ed = calloc(1, sizeof *ed);
	if (!ed) {
		RW_INTERNAL("out of memory");
		return NULL;
	}
	ed->text = text;
	ed->len = len;
	ed->cur = -1;
	ed->root = -1;
	return ed;
}

void rw_edits_destroy(rw_edits *ed)
{
	if (!ed)
		return;
	for (unsigned i = 0; i < ed->n; i++) {
		for (unsigned j = 0; j < ed->v[i].npieces; j++)
			free(ed->v[i].pieces[j].lit);
		free(ed->v[i].pieces);
	}
	free(ed->v);
	free(ed);
}

static void fail(rw_edits *ed)
{
	ed->failed = 1;
}

void rw_edit_begin(rw_edits *ed, unsigned b, unsigned e)
{
	if (b > e || e > ed->len) {
		RW_INTERNAL("edit [%u, %u) outside the text (%zu bytes)", b, e,
		            ed->len);
		fail(ed);
		ed->cur = -1;
		return;
	}
	if (ed->n == ed->cap) {
		unsigned cap = ed->cap ? 2 * ed->cap : 32;
		edit *v = realloc(ed->v, cap * sizeof *v);
		if (!v) {
			RW_INTERNAL("out of memory");
			fail(ed);
			ed->cur = -1;
			return;
		}
		ed->v = v;
		ed->cap = cap;
	}
	edit *x = &ed->v[ed->n];
	memset(x, 0, sizeof *x);
	x->b = b;
	x->e = e;
	x->seq = ed->n;
	x->child = x->next = -1;
	ed->cur = (int)ed->n++;
	ed->built = 0;
}

static void add_piece(rw_edits *ed, char *lit, unsigned b, unsigned e)
{
	if (ed->cur < 0) {
		if (!ed->failed)
			RW_INTERNAL("edit piece without an edit");
		fail(ed);
		free(lit);
		return;
	}
	edit *x = &ed->v[ed->cur];
	if (!lit && (b > e || b < x->b || e > x->e)) {
		RW_INTERNAL("source piece [%u, %u) outside its edit [%u, %u)", b,
		            e, x->b, x->e);
		fail(ed);
		return;
	}
	if (x->npieces == x->cap) {
		unsigned cap = x->cap ? 2 * x->cap : 4;
		piece *v = realloc(x->pieces, cap * sizeof *v);
		if (!v) {
			RW_INTERNAL("out of memory");
			fail(ed);
			free(lit);
			return;
		}
		x->pieces = v;
		x->cap = cap;
	}
	x->pieces[x->npieces++] = (piece){lit, b, e};
}

void rw_edit_lit(rw_edits *ed, const char *s)
{
	char *lit = strdup(s);
	if (!lit) {
		RW_INTERNAL("out of memory");
		fail(ed);
		return;
	}
	add_piece(ed, lit, 0, 0);
}

void rw_edit_litf(rw_edits *ed, const char *fmt, ...)
{
	va_list ap;
	char *lit = NULL;
	va_start(ap, fmt);
	int n = vasprintf(&lit, fmt, ap);
	va_end(ap);
	if (n < 0) {
		RW_INTERNAL("out of memory");
		fail(ed);
		return;
	}
	add_piece(ed, lit, 0, 0);
}

void rw_edit_src(rw_edits *ed, unsigned b, unsigned e)
{
	add_piece(ed, NULL, b, e);
}

void rw_edit_replace(rw_edits *ed, unsigned b, unsigned e, const char *s)
{
	rw_edit_begin(ed, b, e);
	rw_edit_lit(ed, s);
}

void rw_edit_insert(rw_edits *ed, unsigned at, const char *s)
{
	rw_edit_replace(ed, at, at, s);
}

/* ---- the nesting forest ---- */

static const edit *sort_base;

static int cmp_edit(const void *pa, const void *pb)
{
	const edit *a = &sort_base[*(const int *)pa];
	const edit *b = &sort_base[*(const int *)pb];
	int ra = a->b != a->e, rb = b->b != b->e;
	if (a->b != b->b)
		return a->b < b->b ? -1 : 1;
	if (ra != rb)
		return ra - rb; /* insertions first */
	if (a->e != b->e)
		return a->e > b->e ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int contains(const edit *t, const edit *x)
{
	if (t->b == t->e)
		return 0;
	if (x->b == x->e)
		return t->b < x->b && x->b < t->e;
	return t->b <= x->b && x->e <= t->e;
}

static int build(rw_edits *ed)
{
	if (ed->built)
		return 0;
	int *ord = malloc((ed->n + 1) * sizeof *ord);
	int *stack = malloc((ed->n + 1) * sizeof *stack);
	int *last = malloc((ed->n + 1) * sizeof *last); /* last child */
	int ret = 0, sp = 0, root_last = -1;
	if (!ord || !stack || !last) {
		RW_INTERNAL("out of memory");
		ret = -1;
		goto out;
	}
	for (unsigned i = 0; i < ed->n; i++) {
		ord[i] = (int)i;
		ed->v[i].child = ed->v[i].next = -1;
		last[i] = -1;
	}
	sort_base = ed->v;
	qsort(ord, ed->n, sizeof *ord, cmp_edit);
	ed->root = -1;
	for (unsigned k = 0; k < ed->n; k++) {
		int i = ord[k];
		edit *x = &ed->v[i];
		while (sp > 0 && !contains(&ed->v[stack[sp - 1]], x)) {
			edit *t = &ed->v[stack[sp - 1]];
			if (x->b != x->e && t->b != t->e && x->b < t->e &&
			    x->e > t->e) {
				RW_INTERNAL("overlapping edits [%u, %u) and [%u, %u)",
				            t->b, t->e, x->b, x->e);
				ret = -1;
				goto out;
			}
			sp--;
		}
		if (sp == 0) {
			if (root_last < 0)
				ed->root = i;
			else
				ed->v[root_last].next = i;
			root_last = i;
		} else {
			int t = stack[sp - 1];
			if (last[t] < 0)
				ed->v[t].child = i;
			else
				ed->v[last[t]].next = i;
			last[t] = i;
		}
		if (x->b != x->e)
			stack[sp++] = i;
	}
	ed->built = 1;
out:
	free(ord);
	free(stack);
	free(last);
	return ret;
}

/* ---- rendering ---- */

static unsigned count_nl(const char *s, size_t n)
{
	unsigned k = 0;
	for (size_t i = 0; i < n; i++)
		k += s[i] == '\n';
	return k;
}

static void render_list(rw_edits *ed, int first, unsigned b, unsigned e,
                        rw_buf *out);

static void emit_edit(rw_edits *ed, const edit *x, rw_buf *out)
{
	size_t start = out->len;
	for (unsigned j = 0; j < x->npieces; j++) {
		const piece *pc = &x->pieces[j];
		if (pc->lit)
			rw_buf_puts(out, pc->lit);
		else
			render_list(ed, x->child, pc->b, pc->e, out);
	}
	if (out->oom)
		return;
	unsigned want = count_nl(ed->text + x->b, x->e - x->b);
	unsigned have = count_nl(out->s ? out->s + start : "", out->len - start);
	for (; have < want; have++)
		rw_buf_put(out, "\n", 1);
}

/* Render [b, e) against the sibling list starting at first. */
static void render_list(rw_edits *ed, int first, unsigned b, unsigned e,
                        rw_buf *out)
{
	unsigned pos = b;
	if (b >= e)
		return;
	for (int i = first; i >= 0; i = ed->v[i].next) {
		const edit *x = &ed->v[i];
		if (x->b == x->e) {
			if (x->b < b)
				continue;
			if (x->b >= e)
				break;
		} else {
			if (x->e <= b)
				continue;
			if (x->b >= e)
				break;
			if (x->b < b || x->e > e) {
				if (x->b <= b && x->e >= e) {
					/* The range lies inside x: look into it. */
					render_list(ed, x->child, pos, e, out);
					return;
				}
				if (!ed->failed)
					RW_INTERNAL("range [%u, %u) cuts edit [%u, %u)",
					            b, e, x->b, x->e);
				fail(ed);
				return;
			}
		}
		rw_buf_put(out, ed->text + pos, x->b - pos);
		emit_edit(ed, x, out);
		pos = x->e;
	}
	rw_buf_put(out, ed->text + pos, e - pos);
}

int rw_edits_render(rw_edits *ed, unsigned b, unsigned e, rw_buf *out)
{
	if (!ed || ed->failed)
		return -1;
	if (b > e || e > ed->len) {
		RW_INTERNAL("render [%u, %u) outside the text (%zu bytes)", b, e,
		            ed->len);
		return -1;
	}
	if (build(ed) < 0) {
		fail(ed);
		return -1;
	}
	render_list(ed, ed->root, b, e, out);
	return ed->failed ? -1 : 0;
}
