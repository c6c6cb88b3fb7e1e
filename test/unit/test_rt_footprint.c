/* SPDX-License-Identifier: MIT */
/*
 * test_rt_footprint.c - vrt_fp_boxes against brute force: for descriptors
 * of the forms vastcc emits (row walk, column walk, tiled gemm's A, B and
 * C, a stencil's halo, loop bounds from arguments, guarded accesses, a
 * triangular loop, matrixmul's `t < n / 4` as a hull and a guard), random
 * small geometries, arguments and ranges of work-groups, the bytes of
 * the boxes are the bytes every work-item of the range touches, running
 * the descriptor's loops and guards one point at a time: equal when the
 * evaluator says exact, a superset otherwise.
 *
 * Then range planning from them (fprows.c, pas.c), on random small
 * launches of a kernel with five buffers (gemm's A, B, C, a stencil's
 * input, a column walk) and random page sizes, rows of work-groups and
 * budgets: each PAS row holds exactly the pages of the bytes its groups
 * touch, the ranges cover the rows in order within the budget (or the
 * row refused does not fit alone), and the pages a range is said to
 * write whole are written whole, byte by byte. A split launch's
 * questions (multi.c): the span and pages a range of groups may write,
 * and the rows of a share's window of groups (group_base). The pages of
 * one buffer a range reaches (the paged inspector's, pinspect.c): those
 * of the rows, and known for the buffers whose accesses have
 * descriptors when another's has none.
 *
 * Last, ranges planned straight from the boxes (fpplan.c), for the whole
 * launch (1 to 3 dimensions) and for a share's window: they are the
 * ranges Algorithm 1 makes of brute-force rows of one group each (or the
 * same group refused), and each range's union is exactly the pages its
 * groups touch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/footprint.h"
#include "vrt.h"

#include "check.h"

#define ONE VAST_FP_ONE
#define GRP(d) VAST_FP_NAME(VAST_FP_GROUP, d)
#define LID(d) VAST_FP_NAME(VAST_FP_LOCAL, d)
#define LOOP(d) VAST_FP_NAME(VAST_FP_LOOP, d)
#define ARG(d) VAST_FP_NAME(VAST_FP_ARG, d)
#define LSZ(d) VAST_FP_NAME(VAST_FP_LOCAL_SIZE, d)
#define GOFF(d) VAST_FP_NAME(VAST_FP_GLOBAL_OFFSET, d)
/* coef * s0 * s1 * var */
#define T(c, var, s0, s1) { c, var, { s0, s1, ONE } }
/* the terms of get_global_id(d) times c (times symbol s) */
#define GID(c, d, s) T(c, GRP(d), LSZ(d), s), T(c, LID(d), s, ONE), T(c, ONE, GOFF(d), s)

/* ---- brute force ------------------------------------------------------ */

#define SPAN 65536 /* bytes [-SPAN/2, SPAN/2) around the base */
static unsigned char touched[SPAN], boxed[SPAN];

typedef struct point {
	long long grp[3], lid[3], loop[VAST_FP_MAX_LOOPS];
} point;

static long long name_value(const vrt_fp_launch *l, const point *p, unsigned name)
{
	unsigned d = VAST_FP_INDEX(name);
	int in = d < l->work_dim;
	switch (VAST_FP_KIND(name)) {
	case VAST_FP_ONE: return 1;
	case VAST_FP_GROUP: return p->grp[d];
	case VAST_FP_LOCAL: return p->lid[d];
	case VAST_FP_LOOP: return p->loop[d];
	case VAST_FP_ARG: return l->args[d];
	case VAST_FP_LOCAL_SIZE: return in ? (long long)l->local[d] : 1;
	case VAST_FP_GLOBAL_SIZE: return in ? (long long)l->global[d] : 1;
	case VAST_FP_NUM_GROUPS: return in ? (long long)(l->global[d] / l->local[d]) : 1;
	case VAST_FP_GLOBAL_OFFSET: return in ? (long long)l->offset[d] : 0;
	}
	abort();
}

static long long eval(const vast_kernel_footprints *k, const vrt_fp_launch *l,
                      const point *p, vast_fp_form f)
{
	long long v = 0;
	for (unsigned i = 0; i < f.n; i++) {
		const vast_fp_term *t = &k->terms[f.first + i];
		long long m = t->coef * name_value(l, p, t->var);
		for (int j = 0; j < VAST_FP_MAX_SYMS; j++)
			m *= name_value(l, p, t->sym[j]);
		v += m;
	}
	return v;
}

static void mark(unsigned char *map, long long off, unsigned long long n)
{
	for (unsigned long long b = 0; b < n; b++) {
		long long at = off + (long long)b + SPAN / 2;
		if (at < 0 || at >= SPAN) {
			fprintf(stderr, "byte %lld out of the test's span\n", off);
			abort();
		}
		map[at] = 1;
	}
}

static void run_loops(const vast_kernel_footprints *k, const vast_footprint *fp,
                      const vrt_fp_launch *l, point *p, unsigned depth)
{
	if (depth == fp->nloops) {
		for (unsigned g = 0; g < fp->nguards; g++)
			if (eval(k, l, p, k->guards[fp->first_guard + g]) < 0)
				return;
		mark(touched, eval(k, l, p, fp->offset), fp->size);
		return;
	}
	const vast_fp_loop *lp = &k->loops[fp->first_loop + depth];
	long long hi = eval(k, l, p, lp->hi);
	for (p->loop[depth] = eval(k, l, p, lp->lo); p->loop[depth] < hi;
	     p->loop[depth] += lp->step)
		run_loops(k, fp, l, p, depth + 1);
}

static void brute(const vast_kernel_footprints *k, const vast_footprint *fp,
                  const vrt_fp_launch *l, size_t g0, size_t g1)
{
	size_t n[3], ls[3];
	for (unsigned d = 0; d < 3; d++) {
		n[d] = d < l->work_dim ? l->global[d] / l->local[d] : 1;
		ls[d] = d < l->work_dim ? l->local[d] : 1;
	}
	for (size_t g = g0; g < g1; g++) {
		point p;
		memset(&p, 0, sizeof p);
		p.grp[0] = (long long)(g % n[0]);
		p.grp[1] = (long long)(g / n[0] % n[1]);
		p.grp[2] = (long long)(g / (n[0] * n[1]));
		for (p.lid[2] = 0; p.lid[2] < (long long)ls[2]; p.lid[2]++)
			for (p.lid[1] = 0; p.lid[1] < (long long)ls[1]; p.lid[1]++)
				for (p.lid[0] = 0; p.lid[0] < (long long)ls[0]; p.lid[0]++)
					run_loops(k, fp, l, &p, 0);
	}
}

static void mark_box(const vrt_box *b, unsigned d, long long at)
{
	if (d == b->ndims) {
		mark(boxed, at, b->run);
		return;
	}
	for (unsigned long long i = 0; i < b->dim[d].count; i++)
		mark_box(b, d + 1, at + (long long)i * b->dim[d].pitch);
}

/* ---- the descriptors -------------------------------------------------- */

/* Arguments: 0 nx, 1 ny (matrix sides), 2 n (gemm), 3 T (tile). */
static const vast_fp_term terms[] = {
	/* 0: row walk y[gid] */
	GID(4, 0, ONE),
	/* 3: guard ny - gid - 1 >= 0 */
	T(1, ONE, ARG(1), ONE), GID(-1, 0, ONE), T(-1, ONE, ONE, ONE),
	/* 8: column walk A[i * ny + j], j = gid: offset */
	T(4, LOOP(0), ARG(1), ONE), GID(4, 0, ONE),
	/* 12: loop to nx */
	T(1, ONE, ARG(0), ONE),
	/* 13: gemm A[row * n + k + kk] with row = gid(1), k over tiles, kk < T */
	GID(4, 1, ARG(2)), T(4, LOOP(0), ONE, ONE), T(4, LOOP(1), ONE, ONE),
	/* 18: k < n (step T: in the loop) */
	T(1, ONE, ARG(2), ONE),
	/* 19: kk from k to k + T */
	T(1, LOOP(0), ONE, ONE),
	/* 20: */
	T(1, LOOP(0), ONE, ONE), T(1, ONE, ARG(3), ONE),
	/* 22: gemm B[(k + kk) * n + col], col = gid(0) */
	T(4, LOOP(0), ARG(2), ONE), T(4, LOOP(1), ARG(2), ONE), GID(4, 0, ONE),
	/* 27: gemm C[row * n + col] */
	GID(4, 1, ARG(2)), GID(4, 0, ONE),
	/* 33: guards row < n, col < n */
	T(1, ONE, ARG(2), ONE), GID(-1, 1, ONE), T(-1, ONE, ONE, ONE),
	/* 38: */
	T(1, ONE, ARG(2), ONE), GID(-1, 0, ONE), T(-1, ONE, ONE, ONE),
	/* 43: stencil in[(y + dy) * nx + x + dx], dy, dx in [-1, 2) */
	GID(4, 1, ARG(0)), T(4, LOOP(0), ARG(0), ONE), GID(4, 0, ONE), T(4, LOOP(1), ONE, ONE),
	/* 51: -1 .. 2 */
	T(-1, ONE, ONE, ONE), T(2, ONE, ONE, ONE),
	/* 53: guards x >= 1, y >= 1 (inner points only) */
	GID(1, 0, ONE), T(-1, ONE, ONE, ONE),
	/* 57: */
	GID(1, 1, ONE), T(-1, ONE, ONE, ONE),
	/* 61: triangular: a[i * nx + j], j in [i, nx), i = gid */
	GID(4, 0, ARG(0)), T(4, LOOP(0), ONE, ONE),
	/* 65: lo of j: i */
	GID(1, 0, ONE),
	/* 68: vload4-like row of 16 bytes at 16 * gid with a guard by group */
	GID(16, 0, ONE),
	/* 71: group guard: ny - 2 * grp0 >= 0 */
	T(1, ONE, ARG(1), ONE), T(-2, GRP(0), ONE, ONE),
	/* 73: upper triangle of an nx * nx matrix: a[i * nx + j], j >= i */
	T(4, LOOP(0), ARG(0), ONE), T(4, LOOP(1), ONE, ONE),
	/* 75: j - i >= 0 */
	T(1, LOOP(1), ONE, ONE), T(-1, LOOP(0), ONE, ONE),
	/* 77: matrixmul's B[(t * 4 + ly) * n + col], t < n / 4 */
	T(16, LOOP(0), ARG(2), ONE), T(4, LID(1), ARG(2), ONE), GID(4, 0, ONE),
	/* 82: the quotient bound as a guard: n - 4 * t - 4 >= 0 */
	T(1, ONE, ARG(2), ONE), T(-4, LOOP(0), ONE, ONE), T(-4, ONE, ONE, ONE),
};

static const vast_fp_loop loops[] = {
	{ { 0, 0 }, { 12, 1 }, 1 },     /* 0: i in [0, nx) */
	{ { 0, 0 }, { 18, 1 }, 0 },     /* 1: k in [0, n) step T (set below) */
	{ { 19, 1 }, { 20, 2 }, 1 },    /* 2: kk in [k, k + T) */
	{ { 51, 1 }, { 52, 1 }, 1 },    /* 3: dy in [-1, 2) */
	{ { 51, 1 }, { 52, 1 }, 1 },    /* 4: dx in [-1, 2) */
	{ { 65, 3 }, { 12, 1 }, 1 },    /* 5: j in [i, nx) */
	{ { 0, 0 }, { 12, 1 }, 1 },     /* 6: i in [0, nx) */
	{ { 0, 0 }, { 12, 1 }, 1 },     /* 7: j in [0, nx) */
	{ { 0, 0 }, { 18, 1 }, 1 },     /* 8: t in [0, n), the hull of [0, n / 4) */
};

static const vast_fp_form guards[] = {
	{ 3, 5 },  /* 0: gid0 < ny */
	{ 33, 5 }, /* 1: gid1 < n */
	{ 38, 5 }, /* 2: gid0 < n */
	{ 53, 4 }, /* 3: gid0 >= 1 */
	{ 57, 4 }, /* 4: gid1 >= 1 */
	{ 71, 2 }, /* 5: 2 * grp0 <= ny */
	{ 75, 2 }, /* 6: j >= i */
	{ 82, 3 }, /* 7: t < n / 4 */
};

#define FP(off, noff, l0, nl, g0, ng, sz)                                       \
	{ .params = 1, .mode = VAST_MODE_R, .size = sz, .affine = 1, .offset = { off, noff }, \
	  .first_loop = l0, .nloops = nl, .first_guard = g0, .nguards = ng, .exact = 1 }
static const vast_footprint fps[] = {
	FP(0, 3, 0, 0, 0, 0, 4),   /* row walk */
	FP(0, 3, 0, 0, 0, 1, 4),   /* row walk, guarded */
	FP(8, 4, 0, 1, 0, 1, 4),   /* column walk, bound from an argument */
	FP(13, 5, 1, 2, 1, 1, 4),  /* gemm A */
	FP(22, 5, 1, 2, 2, 1, 4),  /* gemm B */
	FP(27, 6, 0, 0, 1, 2, 4),  /* gemm C */
	FP(43, 8, 3, 2, 3, 2, 4),  /* stencil halo */
	FP(61, 4, 5, 1, 0, 0, 4),  /* triangular (bounds vary: superset) */
	FP(68, 3, 0, 0, 5, 1, 16), /* group guard */
	FP(73, 2, 6, 2, 6, 1, 4),  /* a guard over two loops: exact for small nx */
	FP(77, 5, 8, 1, 7, 1, 4),  /* a loop bound that is a quotient */
};
static const char *const fp_names[] = { "row", "row guarded", "column", "gemm A", "gemm B",
                                        "gemm C", "stencil", "triangular", "group guard",
                                        "upper triangle", "quotient bound" };

static unsigned rnd(unsigned n)
{
	return (unsigned)rand() % n;
}

static void trial(const vast_kernel_footprints *k, unsigned f, unsigned *exact_seen)
{
	vrt_fp_launch l;
	memset(&l, 0, sizeof l);
	l.work_dim = 1 + rnd(3);
	for (unsigned d = 0; d < l.work_dim; d++) {
		l.local[d] = 1 + rnd(4);
		l.global[d] = l.local[d] * (1 + rnd(4));
		l.offset[d] = rnd(3);
	}
	long long args[4] = { 1 + rnd(12), 1 + rnd(12), 1 + rnd(12), 1 + rnd(4) };
	l.args = args;
	l.nargs = 4;
	size_t ng = 1;
	for (unsigned d = 0; d < l.work_dim; d++)
		ng *= l.global[d] / l.local[d];
	size_t g0 = rnd((unsigned)ng), g1 = g0 + 1 + rnd((unsigned)(ng - g0));
	memset(touched, 0, sizeof touched);
	memset(boxed, 0, sizeof boxed);
	brute(k, &fps[f], &l, g0, g1);
	vrt_box out[64];
	int exact = -1;
	int n = vrt_fp_boxes(k, &fps[f], &l, g0, g1, out, 64, &exact);
	CHECK(n >= 0 && n <= 64);
	if (n < 0 || n > 64)
		return;
	for (int i = 0; i < n; i++) {
		for (unsigned d = 0; d < out[i].ndims; d++)
			CHECK((unsigned long long)out[i].dim[d].pitch > out[i].run);
		mark_box(&out[i], 0, out[i].origin);
	}
	int same = 1, super = 1;
	for (size_t b = 0; b < SPAN; b++) {
		same &= touched[b] == boxed[b];
		super &= !touched[b] || boxed[b];
	}
	if (!(exact ? same : super))
		fprintf(stderr, "%s: dim %u groups [%zu, %zu) args %lld %lld %lld %lld: %s\n",
		        fp_names[f], l.work_dim, g0, g1, args[0], args[1], args[2], args[3],
		        exact ? "not exact" : "not a superset");
	CHECK(exact ? same : super);
	exact_seen[f] += exact == 1;
}

/* ---- range planning --------------------------------------------------- */

/* Kernel parameters: 0-3 the arguments nx, ny, n, T; 4-8 the buffers. */
#define PLAN_ARGS 4
#define PLAN_BUFS 5
static const unsigned plan_fp[PLAN_BUFS] = { 3, 4, 5, 6, 2 }; /* gemm A, B, C, stencil, column */

/* want[p] = 1 for page p of a buffer of npages pages (of 2^shift bytes)
 * that a byte in touched[] falls in; whole[p]: touched at every byte of
 * the page that lies in the buffer's size. */
static void touched_pages(unsigned char *want, unsigned char *whole, size_t size,
                          size_t npages, unsigned shift)
{
	for (size_t p = 0; p < npages; p++) {
		size_t b0 = p << shift, b1 = (p + 1) << shift;
		int any = 0, all = 1;
		for (size_t b = b0; b < b1; b++) {
			int t = touched[b + SPAN / 2];
			any |= t;
			all &= t || b >= size;
		}
		want[p] = (unsigned char)any;
		whole[p] = (unsigned char)(any && all);
	}
}

/* How often each outcome was seen: must-write pages, ranges, refusals;
 * the same from the boxes, and ranges cut for a pipeline's first. */
static unsigned seen_whole, seen_ranges, seen_refused;
static unsigned seen_boxed_ranges, seen_boxed_refused, seen_boxed_split;

/* The pages groups [g0, g1) touch, from rows of one group each. */
static size_t rows_pages(const vrt_layout *lay, const unsigned char *rows, size_t g0,
                         size_t g1, unsigned char *u)
{
	memset(u, 0, lay->row_bytes);
	for (size_t g = g0; g < g1; g++)
		vrt_pas_or(u, rows + g * lay->row_bytes, lay->row_bytes);
	return vrt_pas_count(u, lay->row_bytes);
}

/* Plans groups [0, G) of P's launch from the boxes against budget and
 * compares with Algorithm 1 on rows, the brute-force pages of one group
 * each (rows[G]: scratch): the same ranges against budget/sets, except
 * that with several sets the first may be cut in two, its first piece
 * the longest that fits a quarter; each range's union is exactly the
 * pages its groups touch. */
static void check_boxed_budget(vrt_fp_plan *P, const vrt_layout *lay, unsigned char *rows,
                               size_t G, unsigned long long budget, unsigned sets)
{
	size_t rb = lay->row_bytes;
	unsigned long long per = budget / sets;
	vrt_range *ref = NULL, *got = NULL;
	unsigned char *unions = NULL, *u = malloc(rb);
	size_t nref = 0, ngot = 0, bad_ref = 0, bad = 0;
	int exact = -1;
	if (!u)
		abort();
	int r_ref = vrt_pas_reduce(lay, rows, G, per, &ref, &nref, &bad_ref);
	int r = vrt_fp_plan_ranges(P, lay, G, budget, sets, 0, &got, &ngot, &unions, &bad, &exact);
	CHECK(r == r_ref && exact == 1);
	CHECK(r != -1 || bad == bad_ref);
	seen_boxed_refused += r == -1;
	seen_boxed_ranges += r == 0 && ngot > 1;
	/* The first range cut for the pipeline: [0, a) fits a quarter, one
	 * more group would not, and [a, b) is the rest of ref's first. */
	size_t split = r == 0 && ngot == nref + 1 && sets > 1 && nref > 1;
	CHECK(r != 0 || sets < 2 || nref < 2 ||
	      split == (vrt_range_footprint(lay, rows_pages(lay, rows, 0, 1, u)) <= per / 4 &&
	                vrt_range_footprint(lay, ref[0].pages) > per / 4));
	if (split) {
		size_t a = got[0].last_row + 1;
		CHECK(got[0].first_row == 0 && got[1].first_row == a && got[1].last_row == ref[0].last_row);
		CHECK(vrt_range_footprint(lay, rows_pages(lay, rows, 0, a, u)) <= per / 4);
		CHECK(vrt_range_footprint(lay, rows_pages(lay, rows, 0, a + 1, u)) > per / 4);
		seen_boxed_split++;
	}
	CHECK(r != 0 || ngot == nref + split);
	unsigned char *all = rows + G * rb;
	memset(all, 0, rb);
	for (size_t i = 0; r == 0 && i < ngot && ngot == nref + split; i++) {
		if (i >= 2 * split)
			CHECK(got[i].first_row == ref[i - split].first_row &&
			      got[i].last_row == ref[i - split].last_row);
		/* The pages its groups touch, no more and no fewer. */
		size_t pages = rows_pages(lay, rows, got[i].first_row, got[i].last_row + 1, u);
		CHECK(pages == got[i].pages && !memcmp(u, unions + i * rb, rb));
		vrt_pas_or(all, u, rb);
	}
	CHECK(r != 0 || !memcmp(all, unions + ngot * rb, rb));
	free(u);
	vrt_free(ref);
	vrt_free(got);
	vrt_free(unions);
}

/* Plans groups [0, W->groups) of W (a window from W->group_base) from
 * the boxes against the budget of the test and budgets its groups fit
 * (so that there are ranges to compare, and first ranges to cut). */
static void check_boxed_plan(vrt_fp_plan *P, const vrt_launch *W, const vrt_layout *lay,
                             const vast_kernel_footprints *kf, const vrt_fp_launch *fl,
                             unsigned long long budget, unsigned sets)
{
	static unsigned char want[SPAN], whole[SPAN];
	size_t G = W->groups, rb = lay->row_bytes, most = 0;
	unsigned char *rows = calloc(G + 1, rb);
	if (!rows)
		abort();
	for (size_t g = 0; g < G; g++) {
		for (unsigned s = 1; s <= lay->nslots; s++) {
			memset(touched, 0, sizeof touched);
			brute(kf, &kf->footprints[s - 1], fl, W->group_base + g, W->group_base + g + 1);
			touched_pages(want, whole, lay->slot_size[s], lay->slot_pages[s], lay->page_shift);
			memcpy(rows + g * rb + lay->slot_off[s], want, lay->slot_pages[s]);
		}
		size_t own = vrt_pas_count(rows + g * rb, rb);
		most = own > most ? own : most;
	}
	check_boxed_budget(P, lay, rows, G, budget, sets);
	unsigned char *all = rows + G * rb;
	memset(all, 0, rb);
	for (size_t g = 0; g < G; g++)
		vrt_pas_or(all, rows + g * rb, rb);
	size_t touched_all = vrt_pas_count(all, rb);
	/* a set's budget that every group fits, and one whose quarter the
	 * largest group just fits (a pipeline's first range cut again) */
	unsigned n = 1 + rnd(3);
	check_boxed_budget(P, lay, rows, G,
	                   n * vrt_range_footprint(lay, most + rnd((unsigned)(touched_all - most) + 1)), n);
	check_boxed_budget(P, lay, rows, G, 3 * 4 * vrt_range_footprint(lay, most), 3);
	free(rows);
}

static void plan_trial(const vast_program_info *prog, const vast_kernel_footprints *kf,
                       vast_fp_loop *lp)
{
	vrt_program vp;
	vrt_kernel vk;
	vrt_launch L;
	vrt_arg args[PLAN_ARGS + PLAN_BUFS];
	uint32_t argv[PLAN_ARGS];
	long long argl[PLAN_ARGS];
	memset(&vp, 0, sizeof vp);
	memset(&vk, 0, sizeof vk);
	memset(&L, 0, sizeof L);
	memset(args, 0, sizeof args);
	vp.info = prog;
	vk.prog = &vp;
	vk.info = &prog->kernels[0];
	vk.nargs = PLAN_ARGS + PLAN_BUFS;
	L.k = &vk;
	L.args = args;
	argv[0] = 1 + rnd(12), argv[1] = 1 + rnd(12), argv[2] = 1 + rnd(12), argv[3] = 1 + rnd(4);
	for (unsigned i = 0; i < PLAN_ARGS; i++) {
		args[i] = (vrt_arg){ 1, 4, &argv[i], NULL };
		argl[i] = argv[i];
	}
	lp[1].step = argv[3]; /* the tile, as the loop's step */
	vrt_fp_launch fl = { .args = argl, .nargs = PLAN_ARGS };
	L.dim = fl.work_dim = 1 + rnd(3);
	L.groups = 1;
	for (unsigned d = 0; d < 3; d++) {
		fl.local[d] = L.lsize[d] = d < L.dim ? 1 + rnd(4) : 1;
		fl.global[d] = L.gsize[d] = L.lsize[d] * (d < L.dim ? 1 + rnd(4) : 1);
		fl.offset[d] = L.goff[d] = d < L.dim ? rnd(3) : 0;
		L.ngroups[d] = L.gsize[d] / L.lsize[d];
		L.groups *= L.ngroups[d];
	}
	vrt_layout lay;
	memset(&lay, 0, sizeof lay);
	lay.nslots = L.nslots = PLAN_BUFS;
	lay.page_shift = 4 + rnd(5);
	for (unsigned s = 1; s <= PLAN_BUFS; s++) {
		L.arg_slot[PLAN_ARGS + s - 1] = s;
		lay.slot_size[s] = 1 + rnd(SPAN / 16);
	}
	vrt_layout_init(&lay);
	int oom;
	vrt_fp_plan *P = vrt_fp_plan_new(&L, &oom);
	CHECK(P && !oom);
	if (!P)
		return;
	size_t wpp = 1 + rnd(3), nrows = (L.groups + wpp - 1) / wpp;
	unsigned char *rows = malloc(nrows * lay.row_bytes);
	static unsigned char want[SPAN], whole[SPAN], got[SPAN];
	CHECK(rows && vrt_fp_rows(P, &lay, wpp, rows, nrows) == 1);
	for (size_t r = 0; rows && r < nrows; r++) {
		size_t g0 = r * wpp, g1 = g0 + wpp < L.groups ? g0 + wpp : L.groups;
		for (unsigned s = 1; s <= PLAN_BUFS; s++) {
			size_t np = lay.slot_pages[s];
			memset(touched, 0, sizeof touched);
			brute(kf, &kf->footprints[s - 1], &fl, g0, g1);
			touched_pages(want, whole, lay.slot_size[s], np, lay.page_shift);
			/* Exact descriptors (checked above): the inspector's pages. */
			CHECK(!memcmp(rows + r * lay.row_bytes + lay.slot_off[s], want, np));
			/* The pages of one slot (the paged inspector's, pinspect.c):
			 * the same, added to what pages held. */
			memset(got, 0, np);
			CHECK(vrt_fp_slot_pages(P, &lay, s, g0, g1, got) == 1);
			CHECK(!memcmp(got, want, np));
			/* Must-write: C's only, and never a page not written whole. */
			CHECK(vrt_fp_must_write(P, &lay, s, g0, g1, got) == 1);
			for (size_t p = 0; p < np; p++) {
				CHECK(!got[p] || (s == 3 && whole[p]));
				seen_whole += got[p];
			}
			/* What a split launch asks of its shares' writes (multi.c):
			 * the span holds every byte written, none outside C's. */
			long long lo, hi;
			int writes = (kf->footprints[s - 1].mode & VAST_MODE_W) != 0;
			CHECK(vrt_fp_write_span(P, s, g0, g1, &lo, &hi) == 1);
			for (long long b = -SPAN / 2; b < SPAN / 2; b++)
				CHECK(!touched[b + SPAN / 2] || !writes || (lo <= b && b < hi));
			CHECK(writes || lo >= hi);
		}
	}
	/* The pages the whole launch may write, and the rows of a window of
	 * its groups [gb, G) planned as a share of a split launch plans
	 * them (group_base): the pages its groups touch. */
	size_t gb = rnd((unsigned)L.groups);
	vrt_launch W = L;
	W.group_base = gb;
	W.groups = L.groups - gb;
	vrt_fp_plan *PW = vrt_fp_plan_new(&W, &oom);
	CHECK(PW && !oom);
	for (unsigned s = 1; PW && s <= PLAN_BUFS; s++) {
		size_t np = lay.slot_pages[s];
		int writes = (kf->footprints[s - 1].mode & VAST_MODE_W) != 0;
		memset(touched, 0, sizeof touched);
		brute(kf, &kf->footprints[s - 1], &fl, gb, L.groups);
		touched_pages(want, whole, lay.slot_size[s], np, lay.page_shift);
		CHECK(vrt_fp_may_write(PW, s, lay.page_shift, np, got) == 1);
		for (size_t p = 0; p < np; p++)
			CHECK(got[p] == (writes && want[p]));
		unsigned char *row = malloc(lay.row_bytes);
		CHECK(row && vrt_fp_rows(PW, &lay, W.groups, row, 1) == 1);
		CHECK(row && !memcmp(row + lay.slot_off[s], want, np));
		free(row);
	}
	/* A mixed kernel: the last buffer's access has no descriptor. The
	 * rows are the inspector's to make, but the other buffers' pages are
	 * still known per slot; the last one's are not. */
	vast_footprint mixed[PLAN_BUFS];
	memcpy(mixed, kf->footprints, sizeof mixed);
	mixed[PLAN_BUFS - 1].affine = 0;
	vast_kernel_footprints mkf = *kf;
	mkf.footprints = mixed;
	vast_program_info mprog = *prog;
	mprog.footprints = &mkf;
	vp.info = &mprog;
	vrt_fp_plan *PM = vrt_fp_plan_new(&L, &oom);
	CHECK(PM && !oom);
	size_t g1 = 1 + rnd((unsigned)L.groups);
	for (unsigned s = 1; PM && rows && s <= PLAN_BUFS; s++) {
		memset(got, 0, lay.slot_pages[s]);
		memset(want, 0, lay.slot_pages[s]);
		int r = vrt_fp_slot_pages(PM, &lay, s, 0, g1, got);
		CHECK(r == (s < PLAN_BUFS));
		CHECK(s == PLAN_BUFS || vrt_fp_slot_pages(P, &lay, s, 0, g1, want) == 1);
		CHECK(s == PLAN_BUFS || !memcmp(got, want, lay.slot_pages[s]));
	}
	CHECK(!PM || !rows || vrt_fp_rows(PM, &lay, wpp, rows, nrows) == 0);
	CHECK(vrt_fp_complete(P) && !vrt_fp_complete(PM) && !vrt_fp_complete(NULL));
	vrt_fp_plan_free(PM);
	vp.info = prog;
	/* A fused launch (paged/planner.c): a second kernel's plan over the
	 * same slots (here the same accesses, their buffers bound in the
	 * reverse order)
	 * joins P's union, page for page the OR of the two, and nothing else:
	 * P's own union and must-write stay P's. */
	vrt_launch L2 = L;
	for (unsigned s = 1; s <= PLAN_BUFS; s++)
		L2.arg_slot[PLAN_ARGS + s - 1] = PLAN_BUFS + 1 - s;
	vrt_fp_plan *P2 = vrt_fp_plan_new(&L2, &oom);
	CHECK(P2 && !oom);
	unsigned char *u1 = malloc(lay.row_bytes), *u2 = malloc(lay.row_bytes);
	unsigned char *uf = malloc(lay.row_bytes);
	for (size_t k = 0; P2 && u1 && u2 && uf && k < 4; k++) {
		size_t a = rnd((unsigned)L.groups), b = a + 1 + rnd((unsigned)(L.groups - a));
		CHECK(vrt_fp_union(P, &lay, a, b, u1) == 1 && vrt_fp_union(P2, &lay, a, b, u2) == 1);
		memset(want, 0, lay.slot_pages[3]);
		CHECK(vrt_fp_must_write(P, &lay, 3, a, b, want) == 1);
		vrt_fp_follow(P, P2);
		CHECK(vrt_fp_union(P, &lay, a, b, uf) == 1);
		for (size_t i = 0; i < lay.row_bytes; i++)
			CHECK(uf[i] == (u1[i] | u2[i]));
		CHECK(vrt_fp_union_own(P, &lay, a, b, uf) == 1 && !memcmp(uf, u1, lay.row_bytes));
		memset(got, 0, lay.slot_pages[3]);
		CHECK(vrt_fp_must_write(P, &lay, 3, a, b, got) == 1);
		CHECK(!memcmp(got, want, lay.slot_pages[3]));
		vrt_fp_follow(P, NULL);
	}
	free(u1);
	free(u2);
	free(uf);
	vrt_fp_plan_free(P2);
	/* Algorithm 1 on those rows against a random budget. */
	unsigned sets = 1 + rnd(3);
	unsigned long long budget =
		sets * vrt_range_footprint(&lay, 1 + rnd((unsigned)lay.total_pages + 1));
	vrt_range *ranges = NULL;
	size_t nranges = 0, bad = 0, next = 0;
	int red = rows ? vrt_pas_reduce_sets(&lay, rows, nrows, budget, sets, &ranges, &nranges, &bad)
	               : -2;
	CHECK(red == 0 || red == -1);
	seen_ranges += red == 0 && nranges > 1;
	seen_refused += red == -1;
	if (red == -1) /* refused: that row alone does not fit */
		CHECK(bad < nrows && vrt_range_footprint(&lay, vrt_pas_count(rows + bad * lay.row_bytes,
		                                                             lay.row_bytes)) > budget / sets);
	for (size_t i = 0; red == 0 && i < nranges; i++) {
		CHECK(ranges[i].first_row == next && ranges[i].last_row >= next &&
		      ranges[i].last_row < nrows);
		if (ranges[i].first_row != next || ranges[i].last_row >= nrows)
			break;
		memset(got, 0, lay.row_bytes);
		for (size_t r = ranges[i].first_row; r <= ranges[i].last_row; r++)
			vrt_pas_or(got, rows + r * lay.row_bytes, lay.row_bytes);
		size_t pages = vrt_pas_count(got, lay.row_bytes);
		CHECK(pages == ranges[i].pages);
		CHECK(vrt_range_footprint(&lay, pages) <= budget / sets);
		next = ranges[i].last_row + 1;
	}
	CHECK(red != 0 || next == nrows);
	vrt_free(ranges);
	free(rows);
	check_boxed_plan(P, &L, &lay, kf, &fl, budget, sets);
	if (PW)
		check_boxed_plan(PW, &W, &lay, kf, &fl, budget, sets);
	vrt_fp_plan_free(PW);
	vrt_fp_plan_free(P);
}

/* The descriptors of the test above, as the kernel's five buffers. */
static void plan_tests(const vast_kernel_footprints *k, vast_fp_loop *lp)
{
	vast_footprint f[PLAN_BUFS];
	vast_param_info params[PLAN_ARGS + PLAN_BUFS];
	memset(params, 0, sizeof params);
	for (unsigned i = 0; i < PLAN_ARGS + PLAN_BUFS; i++)
		params[i].kind = i < PLAN_ARGS ? VAST_PARAM_SCALAR : VAST_PARAM_GLOBAL;
	for (unsigned i = 0; i < PLAN_BUFS; i++) {
		f[i] = fps[plan_fp[i]];
		f[i].params = 1u << (PLAN_ARGS + i);
	}
	f[2].mode = VAST_MODE_W; /* gemm's C: every element stored */
	f[2].must_write = 1;
	vast_kernel_footprints kf = *k;
	kf.nfootprints = PLAN_BUFS;
	kf.footprints = f;
	vast_kernel_info ki = { .name = "plan", .nparams = PLAN_ARGS + PLAN_BUFS, .params = params };
	vast_program_info prog = { .nkernels = 1, .kernels = &ki, .footprints = &kf };
	for (unsigned round = 0; round < 400; round++)
		plan_trial(&prog, &kf, lp);
	CHECK(seen_whole > 0 && seen_ranges > 0 && seen_refused > 0);
	CHECK(seen_boxed_ranges > 0 && seen_boxed_refused > 0);
}

/* A streaming kernel (one buffer, the row walk: a page per group or
 * less) over many groups, planned from the boxes: long enough that a
 * pipeline's first range is cut again (seen_boxed_split). */
static void stream_tests(const vast_kernel_footprints *k)
{
	vast_footprint f = fps[0];
	f.params = 1u << PLAN_ARGS;
	vast_param_info params[PLAN_ARGS + 1];
	memset(params, 0, sizeof params);
	for (unsigned i = 0; i <= PLAN_ARGS; i++)
		params[i].kind = i < PLAN_ARGS ? VAST_PARAM_SCALAR : VAST_PARAM_GLOBAL;
	vast_kernel_footprints kf = *k;
	kf.nfootprints = 1;
	kf.footprints = &f;
	vast_kernel_info ki = { .name = "stream", .nparams = PLAN_ARGS + 1, .params = params };
	vast_program_info prog = { .nkernels = 1, .kernels = &ki, .footprints = &kf };
	for (unsigned round = 0; round < 100; round++) {
		vrt_program vp = { .info = &prog };
		vrt_kernel vk = { .prog = &vp, .info = &ki, .nargs = PLAN_ARGS + 1 };
		vrt_arg args[PLAN_ARGS + 1];
		uint32_t argv[PLAN_ARGS] = { 1, 1, 1, 1 };
		long long argl[PLAN_ARGS] = { 1, 1, 1, 1 };
		memset(args, 0, sizeof args);
		for (unsigned i = 0; i < PLAN_ARGS; i++)
			args[i] = (vrt_arg){ 1, 4, &argv[i], NULL };
		vrt_launch L;
		memset(&L, 0, sizeof L);
		L.k = &vk;
		L.args = args;
		L.dim = 1;
		L.lsize[0] = 1 + rnd(4);
		L.ngroups[0] = L.groups = 32 + rnd(200);
		L.gsize[0] = L.lsize[0] * L.groups;
		L.lsize[1] = L.lsize[2] = L.gsize[1] = L.gsize[2] = L.ngroups[1] = L.ngroups[2] = 1;
		L.goff[0] = rnd(3);
		vrt_fp_launch fl = { .work_dim = 1, .args = argl, .nargs = PLAN_ARGS };
		for (unsigned d = 0; d < 3; d++) {
			fl.global[d] = L.gsize[d];
			fl.local[d] = L.lsize[d];
			fl.offset[d] = L.goff[d];
		}
		vrt_layout lay;
		memset(&lay, 0, sizeof lay);
		lay.nslots = L.nslots = 1;
		lay.page_shift = 4 + rnd(3);
		L.arg_slot[PLAN_ARGS] = 1;
		lay.slot_size[1] = 4 * (L.gsize[0] + L.goff[0]) + rnd(64);
		vrt_layout_init(&lay);
		int oom;
		vrt_fp_plan *P = vrt_fp_plan_new(&L, &oom);
		CHECK(P && !oom);
		if (P)
			check_boxed_plan(P, &L, &lay, &kf, &fl, vrt_range_footprint(&lay, 1), 1);
		vrt_fp_plan_free(P);
	}
	CHECK(seen_boxed_split > 0);
	fprintf(stderr, "from the boxes: %u plans of several ranges, %u refused, %u first ranges cut for a pipeline\n",
	        seen_boxed_ranges, seen_boxed_refused, seen_boxed_split);
}

int main(void)
{
	vast_fp_loop lp[sizeof loops / sizeof *loops];
	memcpy(lp, loops, sizeof lp);
	vast_kernel_footprints k = { sizeof fps / sizeof *fps, fps, terms, lp, guards, NULL };
	unsigned exact_seen[sizeof fps / sizeof *fps] = { 0 };
	srand(9);
	for (unsigned round = 0; round < 300; round++)
		for (unsigned f = 0; f < sizeof fps / sizeof *fps; f++) {
			lp[1].step = 1 + rnd(4); /* the tile, as the loop's step */
			trial(&k, f, exact_seen);
		}
	/* Every form but the triangular loop and the upper triangle is exact
	 * where vastcc says its bounds and guards are affine. */
	for (unsigned f = 0; f < sizeof fps / sizeof *fps; f++)
		if (f < 7 || f == 8 || f == 10)
			CHECK(exact_seen[f] == 300);
	/* The upper triangle splits i exactly while few rows are partial. */
	CHECK(exact_seen[9] > 0 && exact_seen[9] < 300);
	plan_tests(&k, lp);
	stream_tests(&k);
	/* A descriptor that is not affine is refused, not guessed. */
	vast_footprint bad = fps[0];
	bad.affine = 0;
	vrt_fp_launch l = { 1, { 8 }, { 4 }, { 0 }, NULL, 0 };
	vrt_box out[4];
	int exact;
	CHECK(vrt_fp_boxes(&k, &bad, &l, 0, 2, out, 4, &exact) == -1);
	/* A missing argument is refused too. */
	CHECK(vrt_fp_boxes(&k, &fps[2], &l, 0, 2, out, 4, &exact) == -1);
	/* A form of narrow arithmetic (the row walk's index as a uchar: 4 *
	 * gid, 8 bits) holds only while it stays in range: refused past it. */
	static const vast_fp_check checks[] = { { { 0, 3 }, 8 } };
	vast_kernel_footprints kc = k;
	kc.checks = checks;
	vast_footprint narrow = fps[0];
	narrow.first_check = 0;
	narrow.nchecks = narrow.noffset_checks = 1;
	vrt_fp_launch small = { 1, { 64 }, { 8 }, { 0 }, NULL, 0 };
	vrt_fp_launch big = { 1, { 72 }, { 8 }, { 0 }, NULL, 0 };
	CHECK(vrt_fp_boxes(&kc, &narrow, &small, 0, 8, out, 4, &exact) == 1); /* 4 * 63 < 256 */
	CHECK(vrt_fp_boxes(&kc, &narrow, &big, 0, 8, out, 4, &exact) == 1);   /* groups 0-7 */
	CHECK(vrt_fp_boxes(&kc, &narrow, &big, 0, 9, out, 4, &exact) == -1);  /* 4 * 64 wraps */
	if (failures)
		fprintf(stderr, "%d failures\n", failures);
	return failures != 0;
}
