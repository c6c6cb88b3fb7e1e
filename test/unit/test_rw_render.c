/* SPDX-License-Identifier: MIT */
/*
 * test_rw_render.c - function bodies rendered per variant
 * (lib/rewrite/render.c) on the hand-built sample model: each access form
 * in the paged kernel, inspector LOADs through vast_load, TOUCH/COPY/EFFECT
 * items of dropped statements, nested accesses inside item addresses,
 * renamed calls to clones and work-item functions, `return e;` in clones
 * returning void; then the clones and kernel variants of the whole program
 * (naming, argument lists, prologues, #line directives).
 */
#include "test_rw_model.h"

static void test_paged(const an_program *p, const tm_sample_ids *id)
{
	char *s = tm_body(p, id->k, RW_PAGED);
	CHECK_HAS(s, "int i = vast_get_global_id(vast_c, 0);");
	CHECK_HAS(s, "if (i >= n)\n\t\treturn;");
	/* accesses reaching one buffer parameter use its hoisted run */
	CHECK_HAS(s, "float4 v = vload4(0, (__global const float *)vast_trp("
	             "vast_c, (ulong)((in) + (size_t)(i) * 4), vast_run_in));");
	CHECK_HAS(s, "vstore4(v, 0, (__global float *)vast_trp(vast_c, "
	             "(ulong)((out) + (size_t)(i) * 4), vast_run_out));");
	/* A[B[i]]: the inner access inside the outer one's address */
	CHECK_HAS(s, "(*(__global float *)vast_trp(vast_c, (ulong)&(out["
	             "(*(__global const int *)vast_trp(vast_c, (ulong)&(idx[i]), "
	             "vast_run_idx))]), vast_run_out)) = "
	             "vast_paged_helper(vast_c, in, i);");
	CHECK_HAS(s, "atomic_add((__global int *)vast_trp(vast_c, (ulong)("
	             "(__global int *)out), vast_run_out), 1);");
	CHECK_HAS(s, "(*(__global float *)vast_trp(vast_c, (ulong)&(*out), "
	             "vast_run_out)) = (*(__global const float *)vast_trp(vast_c, "
	             "(ulong)&(in[0]), vast_run_in));");
	CHECK_NOT(s, "vast_tr(");
	CHECK_HAS(s, "tmp[0] = 1.0f;"); /* local memory: untouched */
	free(s);

	s = tm_body(p, id->s, RW_PAGED);
	CHECK_HAS(s, "(*(__global pt *)vast_trp(vast_c, (ulong)&(pts[g]), "
	             "vast_run_pts)).x");
	CHECK_HAS(s, "(*(__global float *)vast_trp(vast_c, (ulong)&((pts + g)->y), "
	             "vast_run_pts))");
	free(s);

	/* the helper clone keeps its value in the paged variant */
	s = tm_body(p, id->helper, RW_PAGED);
	CHECK_STR(s, "{\n\treturn (*(__global const float *)vast_tr(vast_c, "
	             "(ulong)&(p[i]))) * 2.0f;\n}");
	free(s);
}

static void test_inspect(const an_program *p, const tm_sample_ids *id)
{
	char *s = tm_body(p, id->k, RW_INSPECT);
	CHECK_HAS(s, "int i = vast_get_global_id(vast_c, 0);");
	CHECK_HAS(s, "if (i >= n)\n\t\treturn;");
	CHECK_HAS(s, "\t{ vast_touch(vast_c, (ulong)((in) + (size_t)(i) * 4), 16); }\n");
	/* the data argument of a vstore is not rendered */
	CHECK_HAS(s, "\t{ vast_touch(vast_c, (ulong)((out) + (size_t)(i) * 4), 16); }\n");
	/* a LOAD feeding the address is read through vast_load; the call to
	 * the helper is an EFFECT item */
	CHECK_HAS(s, "\t{ vast_touch(vast_c, (ulong)&(out[(*(__global const int *)"
	             "vast_load(vast_c, (ulong)&(idx[i]), 4))]), 4); "
	             "(void)vast_inspect_helper(vast_c, in, i); }\n");
	CHECK_HAS(s, "{ vast_touch(vast_c, (ulong)((__global int *)out), 4); }");
	CHECK_HAS(s, "{ vast_touch(vast_c, (ulong)&(*out), 4); "
	             "vast_touch(vast_c, (ulong)&(in[0]), 4); }");
	CHECK_HAS(s, "\t;\n}"); /* tmp[0] = 1.0f; dropped, nothing to do */
	CHECK_NOT(s, "vload4");
	CHECK_NOT(s, "vast_tr(");
	free(s);

	/* return e; in a clone whose value the inspector does not need */
	s = tm_body(p, id->helper, RW_INSPECT);
	CHECK_STR(s, "{\n\t{ vast_touch(vast_c, (ulong)&(p[i]), 4); return; }\n}");
	free(s);
	CHECK(rw_returns_void(p, id->helper, RW_INSPECT));
	CHECK(!rw_returns_void(p, id->helper, RW_PAGED));

	s = tm_body(p, id->red, RW_INSPECT);
	CHECK_HAS(s, "{ vast_touch(vast_c, (ulong)&(a[vast_get_global_id(vast_c, "
	             "0)]), 4); }");
	CHECK_HAS(s, "barrier(CLK_LOCAL_MEM_FENCE);");
	CHECK_HAS(s, "if (l == 0)\n\t\t{ vast_touch(vast_c, (ulong)&(sum["
	             "vast_get_group_id(vast_c, 0)]), 4); }");
	free(s);
}

/* A dropped statement's line count is kept. */
static void test_lines_kept(void)
{
	an_program *p = tm_create("m.cl", "void f(__global int *a)\n{\n"
	                          "\tif (a[0])\n\t\ta[1] = 2;\n\telse\n"
	                          "\t\ta[2] = 3;\n\ta[3] = 4;\n}\n");
	int f = tm_func(p, "f", 1, "void");
	int body = p->funcs[f].body_stmt;
	an_range r = tm_find(p, "if", 0);
	r.end = tm_find(p, "a[2] = 3;", 0).end;
	int st = tm_stmt(p, f, r, AN_STMT_IF, body);
	p->stmts[st].keep[AN_V_INSPECT] = 0;
	int a = tm_access(p, f, AN_FORM_SUBSCRIPT, "a[1]", 0, NULL, NULL, 0, 4,
	                  "__global int *", VAST_MODE_W);
	tm_roles(p, a, AN_ROLE_TOUCH, AN_ROLE_COPY);
	a = tm_access(p, f, AN_FORM_SUBSCRIPT, "a[0]", 0, NULL, NULL, 0, 4,
	              "__global int *", VAST_MODE_R);
	tm_roles(p, a, AN_ROLE_DROP, AN_ROLE_DROP);
	char *s = tm_body(p, f, RW_INSPECT);
	CHECK_STR(s, "{\n\t{ vast_touch(vast_c, (ulong)&(a[1]), 4); }\n\n\n\n"
	             "\ta[3] = 4;\n}");
	free(s);
	tm_destroy(p);
}

/* A helper with `(void)` parameters and no arguments at the call. */
static void test_void_params(void)
{
	an_program *p = tm_create("v.cl",
	                          "size_t gid(void) { return get_global_id(0); }\n"
	                          "__kernel void k(__global int *a) { a[gid()] = 1; }\n");
	int g = tm_func(p, "gid", 0, "size_t");
	tm_call(p, g, "get_global_id(0)", 0, -1, AN_BI_GLOBAL_ID);
	int k = tm_func(p, "k", 1, "void");
	tm_param(p, k, "__global int *a", VAST_PARAM_GLOBAL, "__global int *",
	         "int", 4, VAST_MODE_W, VAST_PAT_AFFINE);
	tm_call(p, k, "gid()", 0, g, AN_BI_NONE);
	tm_access(p, k, AN_FORM_SUBSCRIPT, "a[gid()]", 0, NULL, NULL, 0, 4,
	          "__global int *", VAST_MODE_W);
	char *s = rw_emit_program(p);
	CHECK_HAS(s, "size_t vast_paged_gid(vast_ctx *vast_c);\n");
	CHECK_HAS(s, "size_t vast_paged_gid(vast_ctx *vast_c)\n#line 1 \"v.cl\"\n"
	             "{ return vast_get_global_id(vast_c, 0); }");
	CHECK_HAS(s, "(*(__global int *)vast_trp(vast_c, (ulong)&(a["
	             "vast_paged_gid(vast_c)]), vast_run_a)) = 1;");
	free(s);
	tm_destroy(p);
}

static void test_program(const an_program *p)
{
	char *s = rw_emit_program(p);
	CHECK(s != NULL);
	CHECK_HAS(s, "/* generated by vastcc from k.cl; do not edit */\n");
	CHECK_HAS(s, "typedef struct vast_ctx {");
	CHECK_HAS(s, tm_sample_text);
	/* prototypes first, then definitions, each after #line */
	CHECK_HAS(s, "#line 1 \"k.cl\"\nvoid vast_inspect_helper(vast_ctx *vast_c, "
	             "__global const float *p, int i);\n");
	CHECK_HAS(s, "#line 1 \"k.cl\"\nfloat vast_paged_helper(vast_ctx *vast_c, "
	             "__global const float *p, int i);\n");
	CHECK_HAS(s, "#line 1 \"k.cl\"\nfloat vast_straight_helper(vast_ctx *vast_c, "
	             "__global const float *p, int i)\n#line 2 \"k.cl\"\n{");
	const char *proto = strstr(s ? s : "", "vast_straight_helper(vast_ctx *vast_c, "
	                           "__global const float *p, int i);");
	const char *def = strstr(s ? s : "", "float vast_paged_helper(vast_ctx *vast_c, "
	                         "__global const float *p, int i)\n");
	CHECK(proto && def && proto < def);

	/* kernel variants: arguments in the documented order */
	CHECK_HAS(s, "#line 6 \"k.cl\"\n__kernel void vast_inspect_k(ulong vast_va_out, "
	             "ulong vast_va_in, ulong vast_va_idx, const int n, "
	             "__local float *tmp, __global uchar *vast_pas, "
	             "__global const ulong *vast_pasinfo, __global uint *vast_fault, "
	             "uint vast_page_shift, ulong4 vast_gsize, ulong4 vast_lsize, "
	             "ulong4 vast_goff, ulong vast_first_group, "
	             "__global uchar *vast_data_idx)\n{\n");
	CHECK_HAS(s, "\tvast_init_inspect(vast_c, vast_pas, vast_pasinfo, vast_fault, "
	             "vast_page_shift, vast_gsize, vast_lsize, vast_goff, "
	             "vast_first_group);\n\tif (vast_va_idx) vast_c->data[(vast_va_idx "
	             ">> 44) - 1] = vast_data_idx;\n");
	CHECK_HAS(s, "__kernel void vast_paged_k(ulong vast_va_out, ulong vast_va_in, "
	             "ulong vast_va_idx, const int n, __local float *tmp, "
	             "__global uchar *vast_frames0, __global uchar *vast_frames1, __global uchar *vast_frames2, __global uchar *vast_frames3, __global uchar *vast_frames4, __global uchar *vast_frames5, __global uchar *vast_frames6, __global uchar *vast_frames7, "
	             "__global const uint *vast_lpt, "
	             "__global uint *vast_fault, uint vast_page_shift, "
	             "ulong4 vast_gsize, ulong4 vast_lsize, ulong4 vast_goff, "
	             "ulong vast_first_group)\n{\n"
	             "\tvast_ctx vast_c_; vast_ctx *vast_c = &vast_c_;\n"
	             "\tvast_init_paged(vast_c, vast_lpt, vast_fault, "
	             "vast_page_shift, vast_gsize, vast_lsize, vast_goff, "
	             "vast_first_group);\n"
	             "\tvast_c->frames[0] = vast_frames0; vast_c->frames[1] = vast_frames1; vast_c->frames[2] = vast_frames2; vast_c->frames[3] = vast_frames3; vast_c->frames[4] = vast_frames4; vast_c->frames[5] = vast_frames5; vast_c->frames[6] = vast_frames6; vast_c->frames[7] = vast_frames7;\n"
	             "\tvast_prun vast_run_out = vast_run(vast_c, vast_va_out);\n"
	             "\tvast_prun vast_run_in = vast_run(vast_c, vast_va_in);\n"
	             "\tvast_prun vast_run_idx = vast_run(vast_c, vast_va_idx);\n"
	             "\t__global float *restrict out = (__global float *)vast_va_out;\n"
	             "\t__global const float *in = (__global const float *)vast_va_in;\n");
	CHECK_HAS(s, "vast_va_idx;\n#line 8 \"k.cl\"\n\n\tint i = vast_get_global_id");
	/* no merge kernels, clones or destination frames (docs/multi.md) */
	CHECK_NOT(s, "vast_merge_");
	CHECK_NOT(s, "vast_dst");
	CHECK_NOT(s, "vast_copy");
	/* __local declarations stay in the kernel's outermost block */
	CHECK_HAS(s, "vast_va_sum;\n#line 29 \"k.cl\"\n\n\t__local float part[4];\n");
	CHECK_HAS(s, "#line 21 \"k.cl\"\n__kernel void vast_paged_s(ulong vast_va_pts, "
	             "ulong vast_va_o, __global uchar *vast_frames0");
	/* the original kernels are still there, unchanged */
	CHECK_HAS(s, "__kernel void k(__global float *restrict out");
	free(s);
}

int main(void)
{
	tm_sample_ids id;
	an_program *p = tm_sample(&id);
	test_paged(p, &id);
	test_inspect(p, &id);
	test_program(p);
	tm_destroy(p);
	test_lines_kept();
	test_void_params();
	return tm_report("test_rw_render");
}
