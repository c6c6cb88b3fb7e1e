/* SPDX-License-Identifier: MIT */
/*
 * kernels.c - the variants of one kernel K: vast_inspect_K, vast_paged_K,
 * vast_straight_K and vast_pinspect_K.
 *
 * The argument list is docs/generated-kernels.md: parameter i keeps index
 * i, a buffer becoming its virtual base `ulong vast_va_NAME`, then the
 * tail, written from vast/stub.h's table VAST_TAIL_ARGS, by which the
 * runtime sets it (runtime/args.c). The body builds the context (the
 * original N-D ids rebuilt from a 1-D launch of whole groups), declares
 * each buffer parameter again as a pointer holding its virtual base, and
 * renders the original body's statements into the same block, so the
 * user's code sees the names and types it was written against. Every
 * added name begins with the program's prefix (names.c), "vast_" here.
 * The kernel attributes of the original (reqd_work_group_size, ...) are
 * kept, as the 1-D launch of the variants sees them (put_attribute).
 * A kernel whose inspector reads buffers gets vast_pinspect_K too: the
 * inspector with those reads in frames (docs/generated-kernels.md).
 * The straight variant is the paged one with translation by one add and
 * no check (render.c); a kernel whose plan may miss a page gets none
 * (rw_no_straight), and the program says why in a comment.
 */
#include <stdio.h>
#include <string.h>
#include "rewrite.h"
#include "vast/stub.h"

static int is_buffer(const an_param *pa)
{
	return pa->kind == VAST_PARAM_GLOBAL || pa->kind == VAST_PARAM_CONSTANT;
}

/* The type without `restrict`: casts to a restrict pointer are legal but
 * say nothing, and some front ends warn on them. */
static void put_type_norestrict(rw_buf *out, const char *t)
{
	static const char *const kw[] = {"restrict", "__restrict",
	                                 "__restrict__"};
	const char *s = t;
	while (*s) {
		size_t id = 0;
		while ((s[id] >= 'a' && s[id] <= 'z') || (s[id] >= 'A' && s[id] <= 'Z') ||
		       (s[id] >= '0' && s[id] <= '9') || s[id] == '_')
			id++;
		int drop = 0;
		for (unsigned k = 0; id && k < sizeof kw / sizeof *kw; k++)
			drop |= strlen(kw[k]) == id && !memcmp(s, kw[k], id);
		if (drop) {
			s += id;
			while (*s == ' ')
				s++;
			continue;
		}
		if (id == 0)
			id = 1;
		rw_buf_put(out, s, id);
		s += id;
	}
	/* "float *restrict" leaves a trailing blank: harmless in a cast. */
}

/* The end of the balanced (...) whose '(' is at s[i], or e. */
static unsigned close_paren(const char *s, unsigned i, unsigned e)
{
	for (int depth = 0; i < e; i++) {
		depth += (s[i] == '(') - (s[i] == ')');
		if (depth == 0)
			return i;
	}
	return e;
}

static int is_idch(char ch)
{
	return ch == '_' || (ch >= '0' && ch <= '9') || ((ch | 32) >= 'a' && (ch | 32) <= 'z');
}

static unsigned skip_blanks(const char *s, unsigned i, unsigned e)
{
	while (i < e && strchr(" \t\r\n", s[i]))
		i++;
	return i;
}

/* One attribute `name(args)` of s[b, e): kept when it is one of the
 * kernel attributes of OpenCL C 1.2 §6.7.2. The variants but the straight
 * one (`nd`) are 1-D launches of work-groups of lx*ly*lz work-items
 * (docs/generated-kernels.md), so reqd_work_group_size(X, Y, Z) and
 * work_group_size_hint(X, Y, Z) become (X*Y*Z, 1, 1): the local size the
 * runtime launches them with, which a device compiler may rely on (and
 * must see to refuse another). The straight kernel keeps the original's
 * local size, and the attribute as written. */
static void put_attribute(rw_buf *out, const char *s, unsigned b, unsigned e, int nd)
{
	static const char *const kept[] = {"reqd_work_group_size",
	                                   "work_group_size_hint",
	                                   "vec_type_hint"};
	b = skip_blanks(s, b, e);
	unsigned n = b;
	while (n < e && (s[n] == '_' || (s[n] >= 'a' && s[n] <= 'z')))
		n++;
	unsigned nb = b, ne = n; /* __name__ is name (GCC attribute syntax) */
	if (ne - nb > 4 && !memcmp(s + nb, "__", 2) && !memcmp(s + ne - 2, "__", 2))
		nb += 2, ne -= 2;
	unsigned k = 0;
	while (k < 3 && (strlen(kept[k]) != ne - nb || memcmp(s + nb, kept[k], ne - nb)))
		k++;
	unsigned lp = skip_blanks(s, n, e);
	if (k == 3 || lp >= e || s[lp] != '(')
		return;
	unsigned rp = close_paren(s, lp, e);
	if (k == 2 || nd) {
		rw_buf_puts(out, "__attribute__((");
		rw_buf_put(out, s + b, rp + 1 - b);
		rw_buf_puts(out, ")) ");
		return;
	}
	rw_buf_printf(out, "__attribute__((%s(", kept[k]);
	unsigned a = lp + 1;
	for (unsigned i = a, dim = 0; i <= rp; i++) {
		if (i < rp && s[i] == '(') {
			i = close_paren(s, i, rp);
			continue;
		}
		if (i < rp && s[i] != ',')
			continue;
		rw_buf_puts(out, dim++ ? " * (" : "(");
		rw_buf_put(out, s + a, i - a);
		rw_buf_puts(out, ")");
		a = i + 1;
	}
	rw_buf_puts(out, ", 1, 1))) ");
}

/* The kernel attributes among the `__attribute__((a, b(..)))` of s[b, e). */
static void put_attributes(rw_buf *out, const char *s, unsigned b, unsigned e, int nd)
{
	static const char kw[] = "__attribute__";
	const unsigned kl = sizeof kw - 1;
	for (unsigned i = b; i + kl <= e; i++) {
		if (memcmp(s + i, kw, kl) || (i > b && is_idch(s[i - 1])))
			continue;
		unsigned lp = skip_blanks(s, i + kl, e);
		if (lp >= e || s[lp] != '(')
			continue;
		unsigned rp = close_paren(s, lp, e), inner = skip_blanks(s, lp + 1, rp);
		if (inner < rp && s[inner] == '(') {
			unsigned ie = close_paren(s, inner, rp), a = inner + 1;
			for (unsigned j = a; j <= ie; j++) {
				if (j < ie && s[j] == '(') {
					j = close_paren(s, j, ie);
					continue;
				}
				if (j == ie || s[j] == ',') {
					put_attribute(out, s, a, j, nd);
					a = j + 1;
				}
			}
		}
		i = rp;
	}
}

/* The tail arguments, vast/stub.h's table: the variants' parameter lists
 * and their vast_init_* calls are written from it, as the runtime sets the
 * arguments by it (runtime/args.c). */
typedef struct tail_row {
	const char *name, *type;
	unsigned count, each;
	int at[4]; /* VAST_TAIL_AT's four: inspect, paged, straight, pinspect */
} tail_row;
#define TAIL_ROW(name, count, each, cltype, host, i, p, s, pi) \
	{ #name, cltype, count, each, { i, p, s, pi } },
static const tail_row tail_rows[] = { VAST_TAIL_ARGS(TAIL_ROW) };
#undef TAIL_ROW
enum { NROWS = sizeof tail_rows / sizeof *tail_rows };

static int row_at(const tail_row *r, unsigned kind)
{
	return VAST_TAIL_AT(kind, r->at[0], r->at[1], r->at[2], r->at[3]);
}

/* The variant's VAST_HAS_* bit; paged_data: the paged inspector. */
static unsigned variant_kind(enum rw_variant v, int paged_data)
{
	if (paged_data)
		return VAST_HAS_PINSPECT;
	return v == RW_INSPECT ? VAST_HAS_INSPECT : v == RW_PAGED ? VAST_HAS_PAGED
	       : VAST_HAS_STRAIGHT;
}

/* The row of variant `kind` whose arguments start at index `at`, not
 * repeated per parameter; NULL past the last. */
static const tail_row *row_starting(unsigned kind, int at)
{
	for (unsigned r = 0; r < NROWS; r++)
		if (!tail_rows[r].each && row_at(&tail_rows[r], kind) == at)
			return &tail_rows[r];
	return NULL;
}

/* Whether the rows repeated for `each` (VAST_TAIL_EACH_*) take pa. */
static int each_takes(unsigned each, const an_param *pa)
{
	return is_buffer(pa) && (each == VAST_TAIL_EACH_BUFFER ||
	                         (each == VAST_TAIL_EACH_READ && pa->inspect_reads));
}

/* "\tPFXc->FIELD[0] = PFXFIELD0; ..." on one line, n of them. */
static void put_frame_init(rw_buf *out, const char *pfx, const char *field, unsigned n)
{
	rw_buf_puts(out, "\t");
	for (unsigned b = 0; b < n; b++)
		rw_buf_printf(out, "%s%sc->%s[%u] = %s%s%u;", b ? " " : "", pfx,
		              field, b, pfx, field, b);
	rw_buf_puts(out, "\n");
}

/* what + the parameter's name; an unnamed parameter (legal, if useless)
 * still needs an argument name: what + its index. */
static void put_named(rw_buf *out, const char *what, const an_param *pa, unsigned i)
{
	if (pa->name && *pa->name)
		rw_buf_printf(out, "%s%s", what, pa->name);
	else
		rw_buf_printf(out, "%s%u", what, i);
}

static void put_va(rw_buf *out, const char *pfx, const an_param *pa, unsigned i)
{
	rw_buf_puts(out, pfx);
	put_named(out, "va_", pa, i);
}

/* The tail of variant `kind` after kernel k's own parameters: its
 * arguments in index order (name0, name1, ... for a row of several), then
 * those repeated per parameter, each parameter's in table order. */
static void put_tail_params(rw_buf *out, const char *pfx, const an_func *k, unsigned kind)
{
	const char *sep = "";
	const tail_row *r;
	for (int at = 0; (r = row_starting(kind, at)); at += (int)r->count)
		for (unsigned i = 0; i < r->count; i++) {
			rw_buf_printf(out, "%s%s%s%s", sep, r->type, pfx, r->name);
			if (r->count > 1)
				rw_buf_printf(out, "%u", i);
			sep = ", ";
		}
	for (unsigned i = 0; i < k->nparams; i++)
		for (unsigned e = 0; e < NROWS; e++) {
			r = &tail_rows[e];
			if (!r->each || row_at(r, kind) == VAST_TAIL_NO ||
			    !each_takes(r->each, &k->params[i]))
				continue;
			char what[64];
			snprintf(what, sizeof what, "%s_", r->name);
			rw_buf_printf(out, "%s%s%s", sep, r->type, pfx);
			put_named(out, what, &k->params[i], i);
		}
}

/* The tail arguments a vast_init_* call takes: the single ones of variant
 * `kind`, in index order, but those of variant `but` (0: none). */
static void put_init_args(rw_buf *out, const char *pfx, unsigned kind, unsigned but)
{
	const tail_row *r;
	for (int at = 0; (r = row_starting(kind, at)); at += (int)r->count)
		if (r->count == 1 && (!but || row_at(r, but) == VAST_TAIL_NO))
			rw_buf_printf(out, ", %s%s", pfx, r->name);
}

/* Kernel variant v of kernel f. With `paged_data`, the paged inspector
 * vast_pinspect_K: the inspector's body (v is RW_INSPECT), its loads of
 * the buffers it reads translated through an LPT into frames, so it runs
 * on the launch's device when those buffers pass the budget: the paged
 * kernel's arguments and prologue, then the PAS and its description. */
static int emit_variant(const an_program *p, const char *pfx, const rw_lines *l,
                        int f, enum rw_variant v, int paged_data, rw_buf *out)
{
	const an_func *k = &p->funcs[f];
	int host_data = v == RW_INSPECT && !paged_data; /* the plain inspector */
	unsigned kind = variant_kind(v, paged_data);
	rw_lines_directive(l, k->range.begin, out);
	rw_buf_puts(out, "__kernel ");
	put_attributes(out, p->text, k->range.begin, k->name_range.begin, v == RW_STRAIGHT);
	put_attributes(out, p->text, k->rparen + 1, k->body.begin, v == RW_STRAIGHT);
	rw_buf_printf(out, "void %s%s_%s(", pfx, paged_data ? "pinspect" : rw_variant_name[v],
	              k->name);
	for (unsigned i = 0; i < k->nparams; i++) {
		const an_param *pa = &k->params[i];
		if (is_buffer(pa)) {
			rw_buf_puts(out, "ulong ");
			put_va(out, pfx, pa, i);
		} else
			rw_buf_put(out, p->text + pa->range.begin,
			           pa->range.end - pa->range.begin);
		rw_buf_puts(out, ", ");
	}
	put_tail_params(out, pfx, k, kind);
	/* The context from the single tail arguments: the inspector's and
	 * the straight kernel's own, the paged kernel's for the others (the
	 * paged inspector's pas and pasinfo go to vast_init_pas below). */
	const char *init = host_data ? "inspect" : v == RW_STRAIGHT ? "straight" : "paged";
	rw_buf_printf(out, ")\n{\n\t%1$sctx %1$sc_; %1$sctx *%1$sc = &%1$sc_;\n"
	              "\t%1$sinit_%2$s(%1$sc", pfx, init);
	put_init_args(out, pfx, host_data || v == RW_STRAIGHT ? kind : VAST_HAS_PAGED, 0);
	rw_buf_puts(out, ");\n");
	if (host_data) {
		for (unsigned i = 0; i < k->nparams; i++) {
			const an_param *pa = &k->params[i];
			if (each_takes(VAST_TAIL_EACH_READ, pa) && pa->name && *pa->name)
				rw_buf_printf(out, "\tif (%1$sva_%2$s) %1$sc->data[("
				              "%1$sva_%2$s >> %3$d) - 1] = %1$sdata_%2$s;\n",
				              pfx, pa->name, VAST_VA_SHIFT);
		}
	} else {
		/* The frame set, a context field (frames), then the paged
		 * inspector's own: its PAS. */
		for (unsigned e = 0; e < NROWS; e++)
			if (tail_rows[e].count > 1 && row_at(&tail_rows[e], kind) != VAST_TAIL_NO)
				put_frame_init(out, pfx, tail_rows[e].name, tail_rows[e].count);
		if (paged_data) {
			rw_buf_printf(out, "\t%1$sinit_pas(%1$sc", pfx);
			put_init_args(out, pfx, kind, VAST_HAS_PAGED);
			rw_buf_puts(out, ");\n");
		}
		/* Each buffer's run, loaded once (the straight kernel's from
		 * its arguments; none where its buffers point into the frames):
		 * accesses known to reach only that buffer translate through
		 * it (render.c, vast_trp and vast_trsp). */
		int physical = v == RW_STRAIGHT && rw_straight_physical(p);
		for (unsigned i = 0; rw_runs_all(v) && !physical && i < k->nparams; i++)
			if (rw_hoists_run(&k->params[i]) && v == RW_STRAIGHT)
				rw_buf_printf(out, "\t%1$sprun %1$srun_%2$s = %1$ssrun("
				              "%1$ssbuf_%2$s, %1$ssdelta_%2$s);\n", pfx,
				              k->params[i].name);
			else if (rw_hoists_run(&k->params[i]))
				rw_buf_printf(out, "\t%1$sprun %1$srun_%2$s = %1$srun("
				              "%1$sc, %1$sva_%2$s);\n", pfx,
				              k->params[i].name);
	}
	for (unsigned i = 0; i < k->nparams; i++) {
		const an_param *pa = &k->params[i];
		if (!is_buffer(pa) || !pa->name || !*pa->name)
			continue;
		size_t tl = strlen(pa->type);
		rw_buf_printf(out, "\t%s%s%s = (", pa->type,
		              tl && pa->type[tl - 1] == '*' ? "" : " ", pa->name);
		put_type_norestrict(out, pa->type);
		if (v == RW_STRAIGHT && rw_straight_physical(p))
			/* Where its virtual base lies in the frames: every byte
			 * the range reaches is in the run (the pointer itself
			 * may lie outside the frame buffer, as the run need not
			 * start at the buffer's first byte). A NULL buffer is 0
			 * + 0 - 0: NULL still. */
			rw_buf_printf(out, ")(%1$ssbuf_%2$s + (%1$sva_%2$s - %1$ssdelta_%2$s));\n",
			              pfx, pa->name);
		else
			rw_buf_printf(out, ")%sva_%s;\n", pfx, pa->name);
	}
	/* The body's statements go straight into this block, not a nested
	 * one: __local variables may only be declared in a kernel's outermost
	 * scope (OpenCL C 1.2 §6.5.2), and the body cannot redeclare the
	 * parameter names declared above, just as in the original. */
	rw_lines_directive(l, k->body.begin, out);
	if (rw_render_body(p, pfx, f, v, 0, out) < 0)
		return -1;
	rw_buf_puts(out, "\n}\n\n");
	return 0;
}

/* The inspector reads some buffer's contents: it then has a paged form
 * too, for when those buffers pass the budget. */
int rw_has_pinspect(const an_func *k)
{
	for (unsigned i = 0; i < k->nparams; i++)
		if (is_buffer(&k->params[i]) && k->params[i].inspect_reads)
			return 1;
	return 0;
}

int rw_straight_physical(const an_program *p)
{
	for (unsigned f = 0; f < p->nfuncs; f++)
		for (unsigned i = 0; p->funcs[f].is_kernel && i < p->funcs[f].nparams; i++)
			if (p->funcs[f].params[i].kind == VAST_PARAM_CONSTANT)
				return 0;
	return 1;
}

/* The straight variant has no fault check: the runtime launches it only
 * where the plan holds every address the range's work-items reach. An
 * inspector that reads a buffer the kernel writes computes addresses from
 * the contents before the launch, and only the paged kernel's fault check
 * would catch a page it missed (the runtime checks the same per slot, for
 * parameters bound to one buffer: runtime/paged/kargs.c). */
const char *rw_no_straight(const an_func *k)
{
	for (unsigned i = 0; i < k->nparams; i++)
		if (is_buffer(&k->params[i]) && k->params[i].inspect_reads &&
		    (k->params[i].mode & VAST_MODE_W))
			return "its addresses depend on a buffer it writes, so only "
			       "the checked paged kernel can notice a page the "
			       "inspector missed";
	return NULL;
}

int rw_emit_kernel_variants(const an_program *p, const char *pfx,
                            const rw_lines *l, int f, rw_buf *out)
{
	static const enum rw_variant order[] = {RW_INSPECT, RW_PAGED, RW_STRAIGHT};
	const char *no = rw_no_straight(&p->funcs[f]);
	for (unsigned i = 0; i < sizeof order / sizeof *order; i++) {
		if (order[i] == RW_STRAIGHT && no) {
			rw_buf_printf(out, "/* no %sstraight_%s: %s */\n\n", pfx,
			              p->funcs[f].name, no);
			continue;
		}
		if (emit_variant(p, pfx, l, f, order[i], 0, out) < 0)
			return -1;
	}
	if (rw_has_pinspect(&p->funcs[f]))
		return emit_variant(p, pfx, l, f, RW_INSPECT, 1, out);
	return 0;
}
