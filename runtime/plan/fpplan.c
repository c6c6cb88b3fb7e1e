/* SPDX-License-Identifier: MIT */
/*
 * fpplan.c - the ranges of a launch planned from footprint descriptors
 * straight from their boxes (the aim: inspecting and planning together
 * cost at most 3% of a launch).
 *
 * Algorithm 1 (pas.c) ORs one PAS row per WG_PER_PAS groups into a
 * running union and cuts a range where the union stops fitting. With
 * descriptors no row is needed: the boxes of groups [g0, g1) hold every
 * byte those groups touch (footprint.c), computed at once for the whole
 * range in time independent of its size, and marked page by page in
 * time proportional to the pages (vrt_fp_union). So a range starting at
 * g0 ends at the largest g1 whose union fits, found by search: the
 * union grows with g1, so the fitting ends are a prefix. Each probe
 * costs one union, marked into a scratch row kept clear, counted as it
 * is marked and cleared again (vrt_fp_union_marked): the pages it marks,
 * not the row's. The search first probes the length the search before
 * found (before the pipeline's cut of the first) and one more (a range as long as
 * the one before settles in two probes, with no probe of its first group
 * alone), then doubles until an end does not fit, then interpolates
 * between the last end that fit and the first that did not (the pages
 * of a streaming or stencil kernel grow about linearly with its groups,
 * so a guess lands next to the answer), bisecting whenever a guess did
 * not halve the interval, so a range costs O(log groups) probes at worst
 * and usually a handful.
 * Planning a 1 GiB blackscholes at a budget of 1/4 (PoCL) fell from 66 ms
 * of rows and 2.6 ms of reduction to ~2 ms; fdtd3d from 192 ms to 38 ms
 * (docs/runtime.md).
 *
 * Granularity is one work-group: the ranges are those Algorithm 1 makes
 * of rows of one group each (as fine as it ever gets). Exactness: a
 * range's union is always computed from its own boxes, whatever the
 * search probed, so it holds every page its groups touch (a superset
 * where a descriptor is inexact, never less); where an inexact hull makes
 * the union not grow with g1, the search still returns an end whose
 * union it checked, only perhaps not the largest.
 *
 * The first range is cut again against a quarter of a set's budget when
 * several sets are in flight, as vrt_pas_reduce_sets does, so the
 * pipeline fills fast.
 */
#include "plan/plan.h"

typedef struct search {
	vrt_fp_plan *P;
	const vrt_layout *lay;
	unsigned char *row; /* scratch for probes: clear between them */
	int exact;          /* every union so far exact */
	int err;            /* 0, or vrt_fp_plan_ranges's -2 or -3 */
	size_t slot_max;    /* pages one slot may have (0: any) */
	int too_wide;       /* the last probe's slot passed slot_max */
	vrt_marked marked[VAST_MAX_SLOTS + 1]; /* the last probe's marks */
	size_t groups;      /* of the launch */
	unsigned char *all; /* the union of the ranges so far */
} search;

/* A union's result u (vrt_fp_union): 1 when it holds, else sets s->err. */
static int union_ok(search *s, int u)
{
	if (u <= 0) {
		s->err = u < 0 ? -2 : -3;
		return 0;
	}
	s->exact &= u == 1;
	return 1;
}

/* Frames of the boxed slots (boxframes.c) for groups [g0, g1): they
 * take the frames of their packed box; a range whose box of one cannot
 * be made, or passes slot_max, does not fit (s->too_wide). */
static size_t boxed_frames(search *s, size_t g0, size_t g1)
{
	if (!vrt_fp_boxed_any(s->P))
		return 0;
	vrt_box2d bx[VAST_MAX_SLOTS + 1];
	size_t boxed = vrt_fp_box_frames(s->P, s->lay->page_shift, g0, g1, bx);
	for (unsigned k = 1; boxed != (size_t)-1 && s->slot_max && k <= s->lay->nslots; k++)
		if ((bx[k].width * bx[k].rows + (1ull << s->lay->page_shift) - 1) >>
		            s->lay->page_shift > s->slot_max)
			s->too_wide = 1;
	if (boxed == (size_t)-1) {
		s->too_wide = 1;
		boxed = 0;
	}
	return boxed;
}

/* The frames groups [g0, g1) take: their pages marked into the scratch
 * row, counted as they are marked, and cleared again, so that a probe
 * costs the pages it marks, not the row's (a 96 GiB triad's row is 1.5
 * MB: each probe cleared and counted all of it). Sets s->err and
 * returns 0 when the descriptors fail. */
static size_t probe(search *s, size_t g0, size_t g1)
{
	vrt_marked *m = s->marked;
	int u = vrt_fp_union_marked(s->P, s->lay, g0, g1, s->row, m);
	vrt_pas_clear_marked(s->lay, s->row, m);
	if (!union_ok(s, u))
		return 0;
	s->too_wide = 0;
	for (unsigned k = 1; s->slot_max && k <= s->lay->nslots; k++)
		if (m[k].fresh > s->slot_max)
			s->too_wide = 1;
	return vrt_pas_marked_frames(s->lay, m) + boxed_frames(s, g0, g1);
}

/* The last probe, of `pages`, fits budget: in pages, and (paged/planner.c,
 * place_frames) each slot within one device buffer. */
static int fits(const search *s, size_t pages, unsigned long long budget)
{
	return !s->too_wide && vrt_range_footprint(s->lay, pages) <= budget;
}

/* The largest g1 in (g0, end] such that groups [g0, g1) fit budget:
 * 0 with *g1 set, -1 when group g0 alone does not fit, s->err on error.
 * hint: the length the search before found (0: none); ranges of one
 * launch are alike, and probing near it spares a probe of all of
 * [g0, end), which for a stencil marks every page of the launch. */
static int longest(search *s, size_t g0, size_t end, unsigned long long budget, size_t hint,
                   size_t *g1)
{
	/* lo fits (0: none known yet), hi does not (0: none known yet). */
	size_t lo = 0, plo = 0, hi = 0, phi = 0;
	/* Ranges of a launch are alike: the hint's length fitting and one
	 * more not settles most in two probes (fdtd3d's plan of 3 sets:
	 * 203 probes became 88). */
	for (size_t at = g0 + hint; hint > 1 && at <= g0 + hint + 1 && at < end; at++) {
		size_t p = probe(s, g0, at);
		if (s->err)
			return s->err;
		if (!fits(s, p, budget)) {
			hi = at, phi = p;
			break;
		}
		lo = at, plo = p;
	}
	if (!lo) {
		/* Group g0 alone, unless a longer range fitted already. */
		lo = g0 + 1;
		plo = probe(s, g0, lo);
		if (s->err)
			return s->err;
		if (!fits(s, plo, budget))
			return -1;
		if (lo == end) {
			*g1 = lo;
			return 0;
		}
	}
	/* Else doubling, until an end does not fit. */
	for (size_t step = lo > g0 + 1 ? 2 * (lo - g0) : hint > 1 ? hint : end - g0; !hi;
	     step *= 2) {
		size_t at = step < end - g0 ? g0 + step : end;
		size_t p = probe(s, g0, at);
		if (s->err)
			return s->err;
		if (!fits(s, p, budget)) {
			hi = at, phi = p;
			break;
		}
		if (at == end) {
			*g1 = end;
			return 0;
		}
		lo = at, plo = p;
	}
	/* lo fits, hi does not. The most pages that fit: */
	unsigned long long lpt = vrt_lpt_bytes(s->lay);
	size_t most = (size_t)(((budget - lpt) >> s->lay->page_shift) - 1);
	int bisect = 0;
	while (hi - lo > 1) {
		size_t at, width = hi - lo;
		if (bisect || phi <= plo) {
			at = lo + width / 2;
		} else {
			/* where the line from (lo, plo) to (hi, phi) reaches most */
			double f = ((double)(most - plo) + 0.5) / (double)(phi - plo);
			at = lo + (size_t)(f * (double)width);
		}
		if (at <= lo)
			at = lo + 1;
		if (at >= hi)
			at = hi - 1;
		size_t p = probe(s, g0, at);
		if (s->err)
			return s->err;
		if (fits(s, p, budget))
			lo = at, plo = p;
		else
			hi = at, phi = p;
		/* A guess that left more than half the interval: bisect next. */
		bisect = !bisect && hi - lo > width / 2;
	}
	*g1 = lo;
	return 0;
}

/* ORs into s->all the words of row u that marks m reached. */
static void or_marked(search *s, const unsigned char *u, const vrt_marked *m)
{
	for (unsigned k = 1; k <= s->lay->nslots; k++) {
		if (m[k].hi <= m[k].lo)
			continue;
		/* slots start 8-aligned, padded with zeros (vrt_layout_init) */
		size_t at = s->lay->slot_off[k] + (m[k].lo & ~(size_t)7);
		size_t end = s->lay->slot_off[k] + ((m[k].hi + 7) & ~(size_t)7);
		vrt_pas_or(s->all + at, u + at, end - at);
	}
}

/* Appends range [g0, g1) and its union (computed from its own boxes),
 * counted and joined to the launch's from its marks, not the row. */
static int add_range(search *s, vrt_range **out, unsigned char **un, size_t *n, size_t *cap,
                     size_t g0, size_t g1)
{
	size_t rb = s->lay->row_bytes;
	if (*n == *cap) {
		/* Room for as many more ranges as long as this one, and the
		 * launch's union: unions of a large launch are rows of MBs, and
		 * each doubling copied them all. */
		size_t c = *n + (s->groups - g1 + (g1 - g0) - 1) / (g1 - g0) + 2;
		c = c > 2 * *cap ? c : 2 * *cap;
		vrt_range *g = vrt_realloc(*out, c * sizeof *g);
		if (g)
			*out = g;
		unsigned char *u = g ? vrt_realloc(*un, (c + 1) * rb) : NULL;
		if (!u)
			return -2;
		*un = u;
		*cap = c;
	}
	unsigned char *u = *un + *n * rb;
	memset(u, 0, rb);
	if (!union_ok(s, vrt_fp_union_marked(s->P, s->lay, g0, g1, u, s->marked)))
		return s->err;
	size_t pages = vrt_pas_marked_frames(s->lay, s->marked) + boxed_frames(s, g0, g1);
	or_marked(s, u, s->marked);
	(*out)[*n] = (vrt_range){ g0, g1 - 1, pages };
	++*n;
	return 0;
}

int vrt_fp_plan_ranges(vrt_fp_plan *P, const vrt_layout *lay, size_t groups,
                       unsigned long long budget, unsigned sets, size_t slot_max,
                       vrt_range **ranges, size_t *nranges, unsigned char **unions,
                       size_t *bad_group, int *exact)
{
	size_t rb = lay->row_bytes, n = 0, cap = 0;
	unsigned long long per = budget / sets;
	search s = { .P = P, .lay = lay, .row = vrt_calloc(1, rb), .exact = 1, .slot_max = slot_max,
	             .groups = groups, .all = vrt_calloc(1, rb) };
	vrt_range *out = NULL; /* add_range sizes them */
	unsigned char *un = NULL;
	int r = s.row && s.all ? 0 : -2;
	/* The length the last search found, before the first range's cut:
	 * the next range's likely length. */
	size_t found = 0;
	for (size_t g0 = 0; !r && g0 < groups;) {
		size_t g1, first;
		r = longest(&s, g0, groups, per, found, &g1);
		if (r == -1)
			*bad_group = g0;
		if (r)
			break;
		found = g1 - g0;
		/* With several sets, the first range's groups against a
		 * quarter: its first piece runs first, the rest next. Pages
		 * grow about linearly with groups: a quarter of them is the
		 * guess. */
		if (g0 == 0 && sets > 1 && g1 < groups &&
		    (r = longest(&s, 0, g1, per / 4, g1 / 4, &first)) == 0 && first < g1)
			r = add_range(&s, &out, &un, &n, &cap, 0, first);
		else
			first = g0;
		if (r == -1)
			r = 0; /* the first range cannot be cut smaller: keep it */
		if (!r)
			r = add_range(&s, &out, &un, &n, &cap, first, g1);
		g0 = g1;
	}
	*exact = s.exact;
	vrt_free(s.row);
	if (!r && !un) { /* no groups: no ranges, the launch's union only */
		out = vrt_malloc(sizeof *out);
		un = out ? vrt_malloc(rb) : NULL;
		r = un ? 0 : -2;
	}
	if (r) {
		vrt_free(s.all);
		vrt_free(out);
		vrt_free(un);
		return r;
	}
	/* The union of every range: the pages the launch touches. */
	memcpy(un + n * rb, s.all, rb);
	vrt_free(s.all);
	/* Rows sized for more ranges than came are given back. */
	unsigned char *fit = n < cap ? vrt_realloc(un, (n + 1) * rb) : NULL;
	if (fit)
		un = fit;
	*ranges = out;
	*nranges = n;
	*unions = un;
	return 0;
}
