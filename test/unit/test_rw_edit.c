/* SPDX-License-Identifier: MIT */
/*
 * test_rw_edit.c - the source edit buffer of lib/rewrite/edit.c: plain
 * replacement, nesting (wrapping A[B[i]]), insertions at one offset and at
 * the edges of replacements, newline preservation, replacements inside
 * replacements, identical ranges, rendering sub-ranges, and the internal
 * errors for overlapping edits and bad ranges.
 */
#include "test_rw_model.h"

static char *render(rw_edits *ed, unsigned b, unsigned e)
{
	rw_buf out = {0};
	if (rw_edits_render(ed, b, e, &out) < 0) {
		rw_buf_free(&out);
		return NULL;
	}
	return rw_buf_take(&out);
}

static unsigned at(const char *text, const char *needle)
{
	return (unsigned)(strstr(text, needle) - text);
}

static void test_plain(void)
{
	const char *t = "int x = a + b;";
	rw_edits *ed = rw_edits_create(t, strlen(t));
	char *s = render(ed, 0, (unsigned)strlen(t));
	CHECK_STR(s, t); /* no edits: the text itself */
	free(s);
	rw_edit_replace(ed, at(t, "a"), at(t, "a") + 1, "alpha");
	s = render(ed, 0, (unsigned)strlen(t));
	CHECK_STR(s, "int x = alpha + b;");
	free(s);
	/* a sub-range that holds no edit, and one that holds it */
	s = render(ed, 0, 3);
	CHECK_STR(s, "int");
	free(s);
	s = render(ed, at(t, "a"), at(t, ";"));
	CHECK_STR(s, "alpha + b");
	free(s);
	rw_edits_destroy(ed);
}

/* A[B[i]]: both wrapped, the inner one inside the outer one's address,
 * whichever order they were added in. */
static void test_nesting(void)
{
	const char *t = "x = A[B[i]];";
	unsigned ob = at(t, "A"), oe = at(t, ";");
	unsigned ib = at(t, "B"), ie = at(t, "]]") + 1;
	for (int order = 0; order < 2; order++) {
		rw_edits *ed = rw_edits_create(t, strlen(t));
		for (int k = 0; k < 2; k++) {
			if ((k == 0) == (order == 0)) {
				rw_edit_begin(ed, ob, oe);
				rw_edit_lit(ed, "T(&(");
				rw_edit_src(ed, ob, oe);
				rw_edit_lit(ed, "))");
			} else {
				rw_edit_begin(ed, ib, ie);
				rw_edit_lit(ed, "L(&(");
				rw_edit_src(ed, ib, ie);
				rw_edit_lit(ed, "))");
			}
		}
		char *s = render(ed, 0, (unsigned)strlen(t));
		CHECK_STR(s, "x = T(&(A[L(&(B[i]))]));");
		free(s);
		rw_edits_destroy(ed);
	}
}

/* Insertions at one offset come out in the order added; an insertion at
 * a replacement's first offset goes before it, at its end after it, and
 * strictly inside it only where a source piece covers it. */
static void test_insertions(void)
{
	const char *t = "f(a);";
	unsigned lp = at(t, "(");
	rw_edits *ed = rw_edits_create(t, strlen(t));
	rw_edit_insert(ed, lp + 1, "c, ");
	rw_edit_insert(ed, lp + 1, "d, ");
	rw_edit_replace(ed, 0, 1, "g");
	rw_edit_insert(ed, 0, "/*0*/");
	rw_edit_insert(ed, 1, "/*1*/");
	char *s = render(ed, 0, (unsigned)strlen(t));
	CHECK_STR(s, "/*0*/g/*1*/(c, d, a);");
	free(s);
	/* an insertion at the end of the rendered range is not inside it */
	s = render(ed, 0, lp + 1);
	CHECK_STR(s, "/*0*/g/*1*/(");
	free(s);
	rw_edits_destroy(ed);

	/* f() with no arguments: the insertion sits on ')' */
	const char *u = "y = f();";
	ed = rw_edits_create(u, strlen(u));
	unsigned cb = at(u, "f"), ce = at(u, ";");
	rw_edit_replace(ed, cb, cb + 1, "vast_paged_f");
	rw_edit_insert(ed, at(u, ")"), "vast_c");
	/* a wrapper around the whole call holds both */
	rw_edit_begin(ed, cb, ce);
	rw_edit_lit(ed, "(void)");
	rw_edit_src(ed, cb, ce);
	s = render(ed, 0, (unsigned)strlen(u));
	CHECK_STR(s, "y = (void)vast_paged_f(vast_c);");
	free(s);
	rw_edits_destroy(ed);

	/* an insertion inside a replacement with no source piece is gone */
	ed = rw_edits_create(t, strlen(t));
	rw_edit_insert(ed, lp + 1, "c, ");
	rw_edit_replace(ed, 0, (unsigned)strlen(t), ";");
	s = render(ed, 0, (unsigned)strlen(t));
	CHECK_STR(s, ";");
	free(s);
	rw_edits_destroy(ed);
}

/* A replacement keeps the line count of what it replaced. */
static void test_newlines(void)
{
	const char *t = "a;\nif (x) {\n  y;\n  z;\n}\nb;\n";
	unsigned b = at(t, "if"), e = at(t, "}") + 1;
	rw_edits *ed = rw_edits_create(t, strlen(t));
	rw_edit_replace(ed, b, e, ";");
	char *s = render(ed, 0, (unsigned)strlen(t));
	CHECK_STR(s, "a;\n;\n\n\n\nb;\n");
	free(s);
	rw_edits_destroy(ed);

	/* Newlines carried by source pieces count: nothing is added. */
	ed = rw_edits_create(t, strlen(t));
	rw_edit_begin(ed, b, e);
	rw_edit_lit(ed, "{ ");
	rw_edit_src(ed, at(t, "y"), at(t, "z") + 2);
	rw_edit_lit(ed, " }");
	s = render(ed, 0, (unsigned)strlen(t));
	CHECK_STR(s, "a;\n{ y;\n  z; }\n\n\nb;\n");
	free(s);
	rw_edits_destroy(ed);

	/* A literal longer in lines than the original adds nothing. */
	ed = rw_edits_create(t, strlen(t));
	rw_edit_replace(ed, 0, 2, "1;\n2;\n3;");
	s = render(ed, 0, 3);
	CHECK_STR(s, "1;\n2;\n3;\n");
	free(s);
	rw_edits_destroy(ed);
}

/* A dropped statement replaced by items whose addresses hold rewritten
 * accesses: a replacement inside a replacement inside a replacement. */
static void test_replacement_in_replacement(void)
{
	const char *t = "{ x = A[B[i]] + g(C[j]);\n}";
	rw_edits *ed = rw_edits_create(t, strlen(t));
	unsigned sb = at(t, "x"), se = at(t, ";") + 1;
	unsigned ab = at(t, "A"), ae = at(t, "] +") + 1;
	unsigned bb = at(t, "B"), be = at(t, "]]") + 1;
	unsigned gb = at(t, "g"), ge = at(t, ");") + 1;
	unsigned cb = at(t, "C"), ce = at(t, "j]") + 2;
	rw_edit_begin(ed, sb, se); /* the statement */
	rw_edit_lit(ed, "{ touch(&(");
	rw_edit_src(ed, ab, ae);
	rw_edit_lit(ed, ")); (void)");
	rw_edit_src(ed, gb, ge);
	rw_edit_lit(ed, "; }");
	rw_edit_begin(ed, bb, be); /* a load feeding A's address */
	rw_edit_lit(ed, "L(");
	rw_edit_src(ed, bb, be);
	rw_edit_lit(ed, ")");
	rw_edit_begin(ed, cb, ce); /* a load in g's argument */
	rw_edit_lit(ed, "L(");
	rw_edit_src(ed, cb, ce);
	rw_edit_lit(ed, ")");
	rw_edit_replace(ed, gb, gb + 1, "vast_inspect_g");
	rw_edit_insert(ed, gb + 2, "vast_c, ");
	char *s = render(ed, 0, (unsigned)strlen(t));
	CHECK_STR(s, "{ { touch(&(A[L(B[i])])); (void)vast_inspect_g(vast_c, "
	             "L(C[j])); }\n}");
	free(s);
	/* rendering a range inside the statement looks into its edit */
	s = render(ed, ab, ae);
	CHECK_STR(s, "A[L(B[i])]");
	free(s);
	rw_edits_destroy(ed);
}

/* Two edits of one range: the one added first is outside. */
static void test_identical_ranges(void)
{
	const char *t = "p[i]";
	rw_edits *ed = rw_edits_create(t, 4);
	rw_edit_begin(ed, 0, 4);
	rw_edit_lit(ed, "outer(");
	rw_edit_src(ed, 0, 4);
	rw_edit_lit(ed, ")");
	rw_edit_begin(ed, 0, 4);
	rw_edit_lit(ed, "inner(");
	rw_edit_src(ed, 0, 4);
	rw_edit_lit(ed, ")");
	char *s = render(ed, 0, 4);
	CHECK_STR(s, "outer(inner(p[i]))");
	free(s);
	rw_edits_destroy(ed);
}

/* Overlap and bad ranges are internal errors, never silent. */
static void test_errors(void)
{
	const char *t = "abcdef";
	fprintf(stderr, "(internal errors expected below)\n");
	rw_edits *ed = rw_edits_create(t, 6);
	rw_edit_replace(ed, 0, 3, "x");
	rw_edit_replace(ed, 2, 5, "y");
	char *s = render(ed, 0, 6);
	CHECK(s == NULL);
	rw_edits_destroy(ed);

	ed = rw_edits_create(t, 6);
	rw_edit_begin(ed, 1, 3);
	rw_edit_src(ed, 0, 3); /* outside its edit */
	s = render(ed, 0, 6);
	CHECK(s == NULL);
	rw_edits_destroy(ed);

	ed = rw_edits_create(t, 6);
	rw_edit_replace(ed, 4, 9, "z"); /* past the end */
	s = render(ed, 0, 6);
	CHECK(s == NULL);
	rw_edits_destroy(ed);

	ed = rw_edits_create(t, 6);
	rw_edit_replace(ed, 1, 4, "z");
	s = render(ed, 2, 6); /* cuts the edit */
	CHECK(s == NULL);
	rw_edits_destroy(ed);
}

int main(void)
{
	test_plain();
	test_nesting();
	test_insertions();
	test_newlines();
	test_replacement_in_replacement();
	test_identical_ranges();
	test_errors();
	return tm_report("test_rw_edit");
}
