/* SPDX-License-Identifier: MIT */
/*
 * test_rw_model.h - hand-built an_program models for the lib/rewrite unit
 * tests: a source string plus the ranges the analysis would report, found
 * by searching the text, so rewrite is tested without libclang.
 *
 * Everything the model points to is malloc'd and freed by tm_destroy (the
 * tests run under LeakSanitizer in CI). Statements default to kept and
 * accesses to role LOAD in both slices, i.e. "everything kept".
 */
#ifndef TEST_RW_MODEL_H
#define TEST_RW_MODEL_H

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rewrite.h"

/* Helpers some tests leave unused. */
#define TM_FN static __attribute__((unused))

static int tm_failures;

#define CHECK(cond)                                                        \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, \
			        __LINE__, #cond);                          \
			tm_failures++;                                     \
		}                                                          \
	} while (0)

/* Does hay contain needle? Prints both when not. */
#define CHECK_HAS(hay, needle)                                             \
	do {                                                               \
		const char *h_ = (hay), *n_ = (needle);                    \
		if (!h_ || !strstr(h_, n_)) {                              \
			fprintf(stderr, "%s:%d: missing:\n  %s\nin:\n%s\n", \
			        __FILE__, __LINE__, n_, h_ ? h_ : "(null)"); \
			tm_failures++;                                     \
		}                                                          \
	} while (0)

#define CHECK_NOT(hay, needle)                                             \
	do {                                                               \
		const char *h_ = (hay), *n_ = (needle);                    \
		if (!h_ || strstr(h_, n_)) {                               \
			fprintf(stderr, "%s:%d: unexpected:\n  %s\nin:\n%s\n", \
			        __FILE__, __LINE__, n_, h_ ? h_ : "(null)"); \
			tm_failures++;                                     \
		}                                                          \
	} while (0)

#define CHECK_STR(got, want)                                               \
	do {                                                               \
		const char *g_ = (got), *w_ = (want);                      \
		if (!g_ || strcmp(g_, w_)) {                               \
			fprintf(stderr, "%s:%d: got:\n%s\nwant:\n%s\n",    \
			        __FILE__, __LINE__, g_ ? g_ : "(null)", w_); \
			tm_failures++;                                     \
		}                                                          \
	} while (0)

TM_FN char *tm_strdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

TM_FN an_program *tm_create(const char *path, const char *text)
{
	an_program *p = calloc(1, sizeof *p);
	p->path = tm_strdup(path);
	p->text = tm_strdup(text);
	p->len = strlen(text);
	p->source = (unsigned char *)tm_strdup(text);
	p->source_size = p->len;
	p->source_hash = vast_hash_bytes(VAST_HASH_SEED, text, p->len);
	p->cl_options = tm_strdup("");
	return p;
}

TM_FN void tm_destroy(an_program *p)
{
	for (unsigned f = 0; f < p->nfuncs; f++) {
		an_func *fn = &p->funcs[f];
		for (unsigned i = 0; i < fn->nparams; i++) {
			free(fn->params[i].name);
			free(fn->params[i].type);
			free(fn->params[i].elem_type);
		}
		free(fn->params);
		free(fn->name);
		free(fn->ret_type);
		free(fn->reason);
	}
	for (unsigned i = 0; i < p->naccesses; i++)
		free(p->accesses[i].ptr_type);
	free(p->funcs);
	free(p->stmts);
	free(p->accesses);
	free(p->calls);
	free(p->path);
	free(p->text);
	free(p->source);
	free(p->cl_options);
	free(p);
}

/* The nth (0-based) occurrence of needle at or after offset from. */
TM_FN an_range tm_find_from(const an_program *p, unsigned from,
                             const char *needle, int nth)
{
	const char *s = p->text + from;
	for (;;) {
		s = strstr(s, needle);
		if (!s) {
			fprintf(stderr, "test model: '%s' not found\n", needle);
			abort();
		}
		if (nth-- == 0)
			break;
		s++;
	}
	unsigned b = (unsigned)(s - p->text);
	return (an_range){b, b + (unsigned)strlen(needle)};
}

TM_FN an_range tm_find(const an_program *p, const char *needle, int nth)
{
	return tm_find_from(p, 0, needle, nth);
}

TM_FN unsigned tm_match(const an_program *p, unsigned open)
{
	char o = p->text[open], c = o == '(' ? ')' : o == '{' ? '}' : ']';
	int depth = 0;
	for (unsigned i = open; i < p->len; i++) {
		depth += p->text[i] == o;
		depth -= p->text[i] == c;
		if (depth == 0)
			return i;
	}
	abort();
}

TM_FN unsigned tm_line(const an_program *p, unsigned off)
{
	unsigned line = 1;
	for (unsigned i = 0; i < off; i++)
		line += p->text[i] == '\n';
	return line;
}

TM_FN int tm_stmt(an_program *p, int f, an_range r, enum an_stmt_kind kind,
                   int parent)
{
	p->stmts = realloc(p->stmts, (p->nstmts + 1) * sizeof *p->stmts);
	an_stmt *s = &p->stmts[p->nstmts];
	memset(s, 0, sizeof *s);
	s->kind = kind;
	s->range = r;
	s->parent = parent;
	s->func = f;
	s->keep[AN_V_INSPECT] = s->keep[AN_V_MERGE] = 1;
	return (int)p->nstmts++;
}

/* A function defined as `... name(...) {...}` (the first such), starting
 * at the line holding its name. */
TM_FN int tm_func(an_program *p, const char *name, int is_kernel,
                   const char *ret_type)
{
	char pat[256];
	snprintf(pat, sizeof pat, " %s(", name);
	an_range r;
	unsigned lp, rp, lb;
	for (int nth = 0;; nth++) {
		r = tm_find(p, pat, nth);
		lp = r.end - 1;
		rp = tm_match(p, lp);
		lb = rp + 1;
		while (p->text[lb] == ' ' || p->text[lb] == '\n')
			lb++;
		if (p->text[lb] == '{')
			break;
	}
	unsigned rb = tm_match(p, lb);
	unsigned begin = r.begin;
	while (begin > 0 && p->text[begin - 1] != '\n')
		begin--;
	p->funcs = realloc(p->funcs, (p->nfuncs + 1) * sizeof *p->funcs);
	an_func *fn = &p->funcs[p->nfuncs];
	memset(fn, 0, sizeof *fn);
	fn->name = tm_strdup(name);
	fn->is_kernel = is_kernel;
	fn->range = (an_range){begin, rb + 1};
	fn->name_range = (an_range){r.begin + 1, r.end - 1};
	fn->lparen = lp;
	fn->rparen = rp;
	fn->body = (an_range){lb, rb + 1};
	fn->ret_type = tm_strdup(ret_type);
	fn->cloned = !is_kernel;
	fn->ret_needed[0] = fn->ret_needed[1] = 1;
	fn->virtualizable = 1;
	fn->merge_exact = 1;
	fn->loc = (an_loc){p->path, tm_line(p, r.begin + 1), 1};
	int f = (int)p->nfuncs++;
	fn->body_stmt = tm_stmt(p, f, fn->body, AN_STMT_COMPOUND, -1);
	return f;
}

/* A parameter whose declaration is decl (found inside f's parentheses). */
TM_FN void tm_param(an_program *p, int f, const char *decl, unsigned kind,
                     const char *type, const char *elem_type,
                     unsigned elem_size, unsigned mode, unsigned pattern)
{
	an_func *fn = &p->funcs[f];
	fn->params = realloc(fn->params, (fn->nparams + 1) * sizeof *fn->params);
	an_param *pa = &fn->params[fn->nparams++];
	memset(pa, 0, sizeof *pa);
	pa->range = tm_find_from(p, fn->lparen, decl, 0);
	const char *e = decl + strlen(decl), *b = e;
	while (b > decl && (b[-1] == '_' || (b[-1] >= 'a' && b[-1] <= 'z') ||
	                    (b[-1] >= 'A' && b[-1] <= 'Z') ||
	                    (b[-1] >= '0' && b[-1] <= '9')))
		b--;
	pa->name = strndup(b, (size_t)(e - b));
	pa->kind = kind;
	pa->type = tm_strdup(type);
	pa->elem_type = tm_strdup(elem_type);
	pa->elem_size = elem_size;
	pa->mode = mode;
	pa->pattern = pattern;
	pa->loc = (an_loc){p->path, tm_line(p, pa->range.begin), 1};
}

/* As the analysis would: in a kernel, the buffer parameter named first in
 * the access's pointer text (the paged kernel hoists its run); bit 0
 * elsewhere. */
TM_FN unsigned tm_access_params(const an_program *p, int f,
                                const an_access *a)
{
	const an_func *fn = &p->funcs[f];
	an_range r = a->ptr.end > a->ptr.begin ? a->ptr : a->expr;
	for (unsigned b = r.begin; fn->is_kernel && b < r.end; b++) {
		unsigned e = b;
		while (e < r.end && (isalnum((unsigned char)p->text[e]) ||
		                     p->text[e] == '_'))
			e++;
		for (unsigned i = 0; e > b && i < fn->nparams; i++) {
			const an_param *pa = &fn->params[i];
			if ((pa->kind == VAST_PARAM_GLOBAL ||
			     pa->kind == VAST_PARAM_CONSTANT) && pa->name &&
			    strlen(pa->name) == e - b &&
			    !memcmp(pa->name, p->text + b, e - b))
				return 1u << i;
		}
		if (e > b)
			b = e - 1;
	}
	return 1;
}

/* An access: expr is the nth occurrence of its text inside function f.
 * VLOAD/VSTORE/ATOMIC: ptr and off are texts found inside expr (off may
 * be NULL); vector accesses find off before ptr. */
TM_FN int tm_access(an_program *p, int f, enum an_form form,
                     const char *expr, int nth, const char *ptr,
                     const char *off, unsigned vec, unsigned size,
                     const char *ptr_type, unsigned mode)
{
	p->accesses = realloc(p->accesses,
	                      (p->naccesses + 1) * sizeof *p->accesses);
	an_access *a = &p->accesses[p->naccesses];
	memset(a, 0, sizeof *a);
	a->form = form;
	a->mode = mode;
	a->expr = tm_find_from(p, p->funcs[f].body.begin, expr, nth);
	unsigned from = a->expr.begin;
	if (form == AN_FORM_VLOAD || form == AN_FORM_VSTORE) {
		/* skip the callee and, for vstore, the data argument */
		from = a->expr.begin + (unsigned)(strchr(expr, '(') - expr) + 1;
		if (form == AN_FORM_VSTORE) {
			int depth = 0;
			while (!(depth == 0 && p->text[from] == ',')) {
				depth += p->text[from] == '(';
				depth -= p->text[from] == ')';
				from++;
			}
			from++;
		}
	}
	if (off) {
		a->off = tm_find_from(p, from, off, 0);
		from = a->off.end;
	}
	if (ptr)
		a->ptr = tm_find_from(p, from, ptr, 0);
	a->vec = vec;
	a->size = size;
	a->ptr_type = tm_strdup(ptr_type);
	a->func = f;
	a->stmt = p->funcs[f].body_stmt;
	a->params = tm_access_params(p, f, a);
	a->pattern = VAST_PAT_AFFINE;
	a->role[AN_V_INSPECT] = a->role[AN_V_MERGE] = AN_ROLE_LOAD;
	a->loc = (an_loc){p->path, tm_line(p, a->expr.begin), 1};
	return (int)p->naccesses++;
}

/* A call: text is the nth whole call expression inside function f. */
TM_FN int tm_call(an_program *p, int f, const char *text, int nth,
                   int target, enum an_builtin builtin)
{
	p->calls = realloc(p->calls, (p->ncalls + 1) * sizeof *p->calls);
	an_call *c = &p->calls[p->ncalls];
	memset(c, 0, sizeof *c);
	c->expr = tm_find_from(p, p->funcs[f].body.begin, text, nth);
	unsigned lp = c->expr.begin;
	while (p->text[lp] != '(')
		lp++;
	c->callee = (an_range){c->expr.begin, lp};
	c->lparen = lp;
	unsigned rp = tm_match(p, lp);
	int depth = 0, any = 0;
	c->nargs = 0;
	for (unsigned i = lp + 1; i < rp; i++) {
		char ch = p->text[i];
		depth += ch == '(' || ch == '[';
		depth -= ch == ')' || ch == ']';
		if (ch != ' ')
			any = 1;
		if (ch == ',' && depth == 0)
			c->nargs++;
	}
	c->nargs += any;
	c->target = target;
	c->builtin = builtin;
	c->func = f;
	c->stmt = p->funcs[f].body_stmt;
	return (int)p->ncalls++;
}

TM_FN void tm_roles(an_program *p, int a, unsigned inspect, unsigned merge)
{
	p->accesses[a].role[AN_V_INSPECT] = inspect;
	p->accesses[a].role[AN_V_MERGE] = merge;
}

/* Render function f's body for variant v; malloc'd. */
TM_FN char *tm_body(const an_program *p, int f, enum rw_variant v)
{
	rw_buf b = {0};
	if (rw_render_body(p, "vast_", f, v, 1, &b) < 0) {
		rw_buf_free(&b);
		return NULL;
	}
	return rw_buf_take(&b);
}

TM_FN int tm_report(const char *name)
{
	if (tm_failures) {
		fprintf(stderr, "%s: %d check(s) failed\n", name, tm_failures);
		return 1;
	}
	printf("%s: ok\n", name);
	return 0;
}

/* The sample program: a helper, a kernel with every access form, a struct
 * kernel, a local-memory reduction. Marker lines as clang -E writes them:
 * `# 1 "k.cl"` makes the helper start on line 1 of k.cl. */
static const char tm_sample_text[] =
	"# 1 \"k.cl\"\n"
	"float helper(__global const float *p, int i)\n"         /* 1 */
	"{\n"
	"\treturn p[i] * 2.0f;\n"
	"}\n"
	"\n"
	"__kernel void k(__global float *restrict out, __global const float *in,\n" /* 6 */
	"                __global const int *idx, const int n, __local float *tmp)\n"
	"{\n"                                                      /* 8 */
	"\tint i = get_global_id(0);\n"
	"\tif (i >= n)\n"
	"\t\treturn;\n"
	"\tfloat4 v = vload4(i, in);\n"
	"\tvstore4(v, i, out);\n"
	"\tout[idx[i]] = helper(in, i);\n"
	"\tatomic_add((__global int *)out, 1);\n"
	"\t*out = in[0];\n"
	"\ttmp[0] = 1.0f;\n"
	"}\n"
	"\n"
	"typedef struct { float x, y, z; } pt;\n"
	"__kernel void s(__global pt *pts, __global float *o)\n"   /* 21 */
	"{\n"
	"\tsize_t g = get_global_id(0);\n"
	"\to[g] = pts[g].x + (pts + g)->y;\n"
	"}\n"
	"\n"
	"__kernel void red(__global const float *a, __global float *sum,\n"
	"                  __local float *t)\n"
	"{\n"
	"\t__local float part[4];\n"
	"\tsize_t l = get_local_id(0);\n"
	"\tt[l] = a[get_global_id(0)];\n"
	"\tbarrier(CLK_LOCAL_MEM_FENCE);\n"
	"\tif (l == 0)\n"
	"\t\tsum[get_group_id(0)] = t[0];\n"
	"}\n";

/* Indices into the sample's model, for the tests' checks. */
typedef struct tm_sample_ids {
	int helper, k, s, red;
	int a_hp;                 /* p[i] in helper */
	int a_vload, a_vstore, a_out_idx, a_idx, a_atomic, a_deref, a_in0;
	int c_helper, c_gid;
	int s_decl, s_if, s_ret, s_vload, s_vstore, s_outidx, s_atomic, s_deref,
	    s_tmp, s_hret;
} tm_sample_ids;

/* The model the analysis would give, slices included: the inspector keeps
 * i and the bound check, touches everything else (idx is loaded: it feeds
 * an address); the merge copies what is written. */
TM_FN an_program *tm_sample(tm_sample_ids *id)
{
	an_program *p = tm_create("k.cl", tm_sample_text);
	const unsigned R = VAST_MODE_R, W = VAST_MODE_W;
	const unsigned T = AN_ROLE_TOUCH, L = AN_ROLE_LOAD, C = AN_ROLE_COPY,
	               D = AN_ROLE_DROP;

	/* helper */
	int h = id->helper = tm_func(p, "helper", 0, "float");
	tm_param(p, h, "__global const float *p", VAST_PARAM_GLOBAL,
	         "__global const float *", "const float", 4, R, VAST_PAT_AFFINE);
	id->a_hp = tm_access(p, h, AN_FORM_SUBSCRIPT, "p[i]", 0, NULL, NULL, 0,
	                     4, "__global const float *", R);
	tm_roles(p, id->a_hp, T, D);
	p->funcs[h].ret_needed[AN_V_INSPECT] = 0;
	p->funcs[h].ret_needed[AN_V_MERGE] = 0;
	id->s_hret = tm_stmt(p, h, tm_find(p, "return p[i] * 2.0f;", 0),
	                     AN_STMT_RETURN, p->funcs[h].body_stmt);

	/* k */
	int k = id->k = tm_func(p, "k", 1, "void");
	int body = p->funcs[k].body_stmt;
	tm_param(p, k, "__global float *restrict out", VAST_PARAM_GLOBAL,
	         "__global float *restrict", "float", 4,
	         VAST_MODE_RW | VAST_MODE_ATOMIC, VAST_PAT_INDIRECT);
	tm_param(p, k, "__global const float *in", VAST_PARAM_GLOBAL,
	         "__global const float *", "const float", 4, R, VAST_PAT_AFFINE);
	tm_param(p, k, "__global const int *idx", VAST_PARAM_GLOBAL,
	         "__global const int *", "const int", 4, R, VAST_PAT_AFFINE);
	tm_param(p, k, "const int n", VAST_PARAM_SCALAR, "const int", NULL, 0,
	         0, VAST_PAT_NONE);
	tm_param(p, k, "__local float *tmp", VAST_PARAM_LOCAL, "__local float *",
	         "float", 4, 0, VAST_PAT_NONE);
	p->funcs[k].params[2].inspect_reads = 1;
	id->c_gid = tm_call(p, k, "get_global_id(0)", 0, -1, AN_BI_GLOBAL_ID);
	id->s_decl = tm_stmt(p, k, tm_find(p, "int i = get_global_id(0);", 0),
	                     AN_STMT_DECL, body);
	an_range r = tm_find(p, "if (i >= n)", 0);
	r.end = tm_find(p, "return;", 0).end;
	id->s_if = tm_stmt(p, k, r, AN_STMT_IF, body);
	id->s_ret = tm_stmt(p, k, tm_find(p, "return;", 0), AN_STMT_RETURN,
	                    id->s_if);
	id->a_vload = tm_access(p, k, AN_FORM_VLOAD, "vload4(i, in)", 0, "in",
	                        "i", 4, 16, "__global const float *", R);
	tm_roles(p, id->a_vload, T, D);
	id->s_vload = tm_stmt(p, k, tm_find(p, "float4 v = vload4(i, in);", 0),
	                      AN_STMT_DECL, body);
	id->a_vstore = tm_access(p, k, AN_FORM_VSTORE, "vstore4(v, i, out)", 0,
	                         "out", "i", 4, 16, "__global float *", W);
	tm_roles(p, id->a_vstore, T, C);
	id->s_vstore = tm_stmt(p, k, tm_find(p, "vstore4(v, i, out);", 0),
	                       AN_STMT_EXPR, body);
	id->a_out_idx = tm_access(p, k, AN_FORM_SUBSCRIPT, "out[idx[i]]", 0,
	                          NULL, NULL, 0, 4, "__global float *", W);
	tm_roles(p, id->a_out_idx, T, C);
	id->a_idx = tm_access(p, k, AN_FORM_SUBSCRIPT, "idx[i]", 0, NULL, NULL,
	                      0, 4, "__global const int *", R);
	tm_roles(p, id->a_idx, L, L);
	id->c_helper = tm_call(p, k, "helper(in, i)", 0, h, AN_BI_NONE);
	p->calls[id->c_helper].role[AN_V_INSPECT] = AN_ROLE_EFFECT;
	p->calls[id->c_helper].role[AN_V_MERGE] = AN_ROLE_DROP;
	id->s_outidx = tm_stmt(p, k, tm_find(p, "out[idx[i]] = helper(in, i);", 0),
	                       AN_STMT_EXPR, body);
	id->a_atomic = tm_access(p, k, AN_FORM_ATOMIC,
	                         "atomic_add((__global int *)out, 1)", 0,
	                         "(__global int *)out", NULL, 0, 4,
	                         "__global int *", W | VAST_MODE_ATOMIC);
	tm_roles(p, id->a_atomic, T, C);
	id->s_atomic = tm_stmt(p, k, tm_find(p, "atomic_add((__global int *)out, 1);", 0),
	                       AN_STMT_EXPR, body);
	id->a_deref = tm_access(p, k, AN_FORM_DEREF, "*out", 0, NULL, NULL, 0, 4,
	                        "__global float *", W);
	tm_roles(p, id->a_deref, T, C);
	id->a_in0 = tm_access(p, k, AN_FORM_SUBSCRIPT, "in[0]", 0, NULL, NULL, 0,
	                      4, "__global const float *", R);
	tm_roles(p, id->a_in0, T, D);
	id->s_deref = tm_stmt(p, k, tm_find(p, "*out = in[0];", 0), AN_STMT_EXPR,
	                      body);
	id->s_tmp = tm_stmt(p, k, tm_find(p, "tmp[0] = 1.0f;", 0), AN_STMT_EXPR,
	                    body);
	int drop[] = {id->s_vload, id->s_vstore, id->s_outidx, id->s_atomic,
	              id->s_deref, id->s_tmp};
	for (unsigned j = 0; j < sizeof drop / sizeof *drop; j++)
		p->stmts[drop[j]].keep[AN_V_INSPECT] =
			p->stmts[drop[j]].keep[AN_V_MERGE] = 0;
	p->funcs[k].merge_exact = 0;

	/* s */
	int s = id->s = tm_func(p, "s", 1, "void");
	body = p->funcs[s].body_stmt;
	tm_param(p, s, "__global pt *pts", VAST_PARAM_GLOBAL, "__global pt *",
	         "pt", 12, R, VAST_PAT_AFFINE);
	tm_param(p, s, "__global float *o", VAST_PARAM_GLOBAL, "__global float *",
	         "float", 4, W, VAST_PAT_AFFINE);
	tm_call(p, s, "get_global_id(0)", 0, -1, AN_BI_GLOBAL_ID);
	tm_stmt(p, s, tm_find(p, "size_t g = get_global_id(0);", 0), AN_STMT_DECL,
	        body);
	int a = tm_access(p, s, AN_FORM_SUBSCRIPT, "o[g]", 0, NULL, NULL, 0, 4,
	                  "__global float *", W);
	tm_roles(p, a, T, C);
	a = tm_access(p, s, AN_FORM_SUBSCRIPT, "pts[g]", 0, NULL, NULL, 0, 12,
	              "__global pt *", R);
	tm_roles(p, a, T, D);
	a = tm_access(p, s, AN_FORM_ARROW, "(pts + g)->y", 0, NULL, NULL, 0, 4,
	              "__global float *", R);
	tm_roles(p, a, T, D);
	int st = tm_stmt(p, s, tm_find(p, "o[g] = pts[g].x + (pts + g)->y;", 0),
	                 AN_STMT_EXPR, body);
	p->stmts[st].keep[AN_V_INSPECT] = p->stmts[st].keep[AN_V_MERGE] = 0;

	/* red: the reduction keeps nothing but ids and the branch */
	int rd = id->red = tm_func(p, "red", 1, "void");
	body = p->funcs[rd].body_stmt;
	tm_param(p, rd, "__global const float *a", VAST_PARAM_GLOBAL,
	         "__global const float *", "const float", 4, R, VAST_PAT_AFFINE);
	tm_param(p, rd, "__global float *sum", VAST_PARAM_GLOBAL,
	         "__global float *", "float", 4, W, VAST_PAT_AFFINE);
	tm_param(p, rd, "__local float *t", VAST_PARAM_LOCAL, "__local float *",
	         "float", 4, 0, VAST_PAT_NONE);
	tm_call(p, rd, "get_local_id(0)", 0, -1, AN_BI_LOCAL_ID);
	tm_call(p, rd, "get_global_id(0)", 0, -1, AN_BI_GLOBAL_ID);
	tm_call(p, rd, "get_group_id(0)", 0, -1, AN_BI_GROUP_ID);
	tm_stmt(p, rd, tm_find(p, "size_t l = get_local_id(0);", 0), AN_STMT_DECL,
	        body);
	a = tm_access(p, rd, AN_FORM_SUBSCRIPT, "a[get_global_id(0)]", 0, NULL,
	              NULL, 0, 4, "__global const float *", R);
	tm_roles(p, a, T, D);
	st = tm_stmt(p, rd, tm_find(p, "t[l] = a[get_global_id(0)];", 0),
	             AN_STMT_EXPR, body);
	p->stmts[st].keep[AN_V_INSPECT] = p->stmts[st].keep[AN_V_MERGE] = 0;
	tm_stmt(p, rd, tm_find(p, "barrier(CLK_LOCAL_MEM_FENCE);", 0),
	        AN_STMT_EXPR, body);
	r = tm_find(p, "if (l == 0)", 0);
	r.end = tm_find(p, "= t[0];", 0).end;
	int sif = tm_stmt(p, rd, r, AN_STMT_IF, body);
	a = tm_access(p, rd, AN_FORM_SUBSCRIPT, "sum[get_group_id(0)]", 0, NULL,
	              NULL, 0, 4, "__global float *", W);
	tm_roles(p, a, T, C);
	st = tm_stmt(p, rd, tm_find(p, "sum[get_group_id(0)] = t[0];", 0),
	             AN_STMT_EXPR, sif);
	p->stmts[st].keep[AN_V_INSPECT] = p->stmts[st].keep[AN_V_MERGE] = 0;
	return p;
}

#endif
