/* SPDX-License-Identifier: MIT */
/*
 * plancache.c - the plan a paged launch runs: the kept plan of an earlier
 * launch like it (plan/plans.c; a fused pair's too), the plan a fused
 * launch's check made (planner.c), or a new one (planner.c), kept for
 * the next; and the tables made once for a kept plan (every range's LPT,
 * frames and pages to fill), on the host and on the device (lpts.c).
 */
#include <string.h>

#include "paged/paged_int.h"

/* P plans by c's layout, ranges and frames (P->maxalloc set): a kept
 * plan (plans.c), or a fused launch's own (take_plan). */
static void use_plan(paged *P, const vrt_plan *c)
{
	vrt_free(P->rows);
	vrt_free(P->ranges);
	P->lay = c->lay;
	/* the plan's pages, which may be smaller than the first try's */
	P->per_buf = vrt_paged_frames_per_buf(P, P->lay.page_shift);
	P->wpp = c->wpp;
	P->nrows = c->nrows;
	P->rows = c->rows;
	P->ranges = c->ranges;
	P->nranges = c->nranges;
	P->unions = c->unions;
	P->shared = c->shared;
	P->nsets = c->nsets;
	memcpy(P->buf_frames, c->buf_frames, sizeof P->buf_frames);
	P->tables = c->tables;
	P->plan_serial = c->serial;
}

/* paged_run's fused launch takes the plan fused_plan made (the same
 * layout: nothing kept whole, no hold), the first time it plans; P owns
 * it from then on. */
static void take_plan(vrt_launch *L, paged *P)
{
	paged *D = P->pre;
	vrt_plan c = { .lay = D->lay, .wpp = D->wpp, .nrows = D->nrows, .ranges = D->ranges,
	               .nranges = D->nranges, .unions = D->unions, .shared = D->shared,
	               .nsets = D->nsets };
	memcpy(c.buf_frames, D->buf_frames, sizeof c.buf_frames);
	use_plan(P, &c);
	vrt_fp_plan_free(P->fp);
	vrt_fp_plan_free(P->fp2);
	P->fp = D->fp;
	P->fp2 = D->fp2;
	P->from_fp = 1;
	L->st->fp_plans++;
	P->pre = NULL;
	vrt_free(D);
}

/* The tables of a plan not kept go with P; a kept plan's stay with it. */
void vrt_paged_drop_tables(paged *P)
{
	if (P->tables_owned)
		vrt_plan_tables_free(&P->tables);
	memset(&P->tables, 0, sizeof P->tables);
	P->tables_owned = 0;
	P->lpt_dev = NULL;
	P->plan_serial = 0;
}

/* A fused launch runs c, the plan kept by an earlier launch of the same
 * pair (plans.c): the descriptors are this launch's own, the second
 * kernel's following the first's (plan_fused). 1 when it runs c, 0 when
 * it must plan again, -1 out of memory. */
static int use_fused_plan(vrt_launch *L, paged *P)
{
	int d = vrt_paged_fused_descriptors(L, P);
	/* The key holds all that these depend on: not expected. */
	if (!d)
		vrt_log(VRT_LOG_DEBUG, "kernel '%s': the plan kept for it fused with '%s' not used: their descriptors no longer plan them",
		        L->k->name, P->L2->k->name);
	return d;
}

/* The plan of an earlier launch like this one (plans.c), or a new one
 * (a fused launch's: the one its check made). The descriptors are L's
 * own either way: they tell pages_to_fill what a range writes whole. */
cl_int vrt_paged_find_or_make_plan(vrt_launch *L, paged *P)
{
	/* Shares of a split launch (multi.c) run on threads and cover a
	 * window of the groups: they plan afresh, and keep nothing. A fused
	 * launch's check (fused_plan) planned it already, or found this. */
	const vrt_plan *c = L->share || P->pre ? NULL
	                    : P->L2        ? vrt_plan_find_fused(L, P->L2, P->mode1)
	                                   : vrt_plan_find(L);
	vrt_paged_drop_tables(P);
	P->kept = NULL;
	if (P->cached) {
		/* The budget shrank since: the kept plan is not this one's. */
		P->rows = NULL;
		P->ranges = NULL;
		P->unions = NULL;
		P->cached = 0;
	}
	vrt_free(P->unions);
	P->unions = NULL;
	if (P->L2 && P->pre) {
		take_plan(L, P);
		return CL_SUCCESS;
	}
	if (P->L2) {
		int r = c && !c->refused ? use_fused_plan(L, P) : 0;
		if (r < 0)
			return CL_OUT_OF_HOST_MEMORY;
		if (!r)
			return vrt_paged_plan_fused(L, P);
	} else if (!c) {
		return vrt_paged_inspect_and_reduce(L, P);
	} else {
		int oom, boxed = 0;
		vrt_fp_plan_free(P->fp);
		P->fp = vrt_fp_plan_new(L, &oom);
		if (oom)
			return CL_OUT_OF_HOST_MEMORY;
		for (unsigned s = 0; s <= VAST_MAX_SLOTS; s++)
			boxed |= c->boxed[s];
		/* The plan's boxes are the descriptors': none, none to box with. */
		if (boxed && !P->fp)
			return vrt_paged_inspect_and_reduce(L, P);
		if (P->fp)
			vrt_fp_boxes_set(P->fp, c->boxed);
	}
	use_plan(P, c);
	/* The cache's own entry: the tables made at this launch join it. */
	P->kept = (vrt_plan *)c;
	P->cached = 1;
	L->st->plan_hits++;
	return CL_SUCCESS;
}

/* Keeps a new plan for the launches like this one. Not keeping it
 * (out of memory) costs only the next launch's planning. */
void vrt_paged_keep_plan(vrt_launch *L, paged *P)
{
	vrt_plan p = { .lay = P->lay, .wpp = P->wpp, .nrows = P->nrows, .rows = P->rows,
	               .ranges = P->ranges, .nranges = P->nranges, .unions = P->unions,
	               .shared = P->shared, .nsets = P->nsets };
	memcpy(p.buf_frames, P->buf_frames, sizeof p.buf_frames);
	if (P->fp)
		vrt_fp_boxes_get(P->fp, p.boxed);
	if (P->tables_owned)
		p.tables = P->tables;
	const vrt_plan *kept = P->cached || L->share ? NULL
	                       : P->L2 ? vrt_plan_keep_fused(L, P->L2, P->mode1, &p)
	                       : vrt_plan_keep(L, &p, P->from_fp);
	if (kept) {
		P->cached = 1;
		P->tables_owned = 0; /* the plan's now */
		P->plan_serial = kept->serial;
		P->kept = (vrt_plan *)kept;
	}
}

/* Appends the copies of range r's gaps (P->gaps, slot by slot), of LPT
 * lpt, to *rects (*cap of them, *nr used), each slot's from
 * at[r * (nslots + 1) + s]; 0, -1 out of memory. */
static int plan_gap_rects(paged *P, size_t r, const uint32_t *lpt, vrt_rect **rects,
                          size_t *nr, size_t *cap, size_t *at)
{
	unsigned ns = P->lay.nslots;
	size_t i = 0;
	for (unsigned s = 0; s <= ns; s++) {
		size_t a = i;
		while (i < P->ngaps && P->gaps[i].slot == s)
			i++;
		vrt_rect *rc = NULL;
		size_t nrc = s && i > a ? vrt_gap_rects(P->gaps + a, i - a, P->lay.page_shift,
		                                        vrt_lpt_table(lpt, s), &rc)
		                        : 0;
		at[r * (ns + 1) + s] = *nr;
		if (nrc == (size_t)-1)
			return -1;
		if (*nr + nrc > *cap) {
			size_t c = *cap ? *cap * 2 : 64;
			while (c < *nr + nrc)
				c *= 2;
			vrt_rect *w = vrt_realloc(*rects, c * sizeof *w);
			if (!w) {
				vrt_free(rc);
				return -1;
			}
			*rects = w;
			*cap = c;
		}
		if (nrc)
			memcpy(*rects + *nr, rc, nrc * sizeof *rc);
		*nr += nrc;
		vrt_free(rc);
	}
	return i == P->ngaps ? 0 : -1; /* not slot by slot: not expected */
}

/* Every range's pages filled from the host, their gaps and the copies of
 * those (fill_of), after its LPT and frames: 0, -1 out of memory (none
 * then). */
static int plan_fills(vrt_launch *L, paged *P, const uint32_t *t, const vrt_frames *fr)
{
	size_t n = P->nranges, rb = P->lay.row_bytes, ng = 0, cap = 0, nr = 0, rcap = 0;
	size_t nk = n * (P->lay.nslots + 1);
	unsigned char *fills = vrt_malloc(n * rb);
	size_t *at = vrt_malloc((n + 1) * sizeof *at), *rat = vrt_malloc((nk + 1) * sizeof *rat);
	vrt_gap *gaps = NULL;
	vrt_rect *rects = NULL;
	if (!fills || !at || !rat)
		goto fail;
	for (size_t r = 0; r < n; r++) {
		const vrt_range *R = &P->ranges[r];
		size_t g0 = R->first_row * P->wpp, g1 = (R->last_row + 1) * P->wpp;
		if (vrt_paged_fill_of(L, P, P->unions + r * rb, &fr[r],
		                      t + r * P->tables.lpt_words, g0,
		                      g1 > L->groups ? L->groups : g1, fills + r * rb) != CL_SUCCESS)
			goto fail;
		at[r] = ng;
		if (ng + P->ngaps > cap) {
			size_t c = cap ? cap * 2 : 64;
			while (c < ng + P->ngaps)
				c *= 2;
			vrt_gap *w = vrt_realloc(gaps, c * sizeof *w);
			if (!w)
				goto fail;
			gaps = w;
			cap = c;
		}
		if (P->ngaps)
			memcpy(gaps + ng, P->gaps, P->ngaps * sizeof *gaps);
		ng += P->ngaps;
		if (plan_gap_rects(P, r, t + r * P->tables.lpt_words, &rects, &nr, &rcap, rat))
			goto fail;
	}
	at[n] = ng;
	rat[nk] = nr;
	P->ngaps = 0;
	P->tables.fills = fills;
	P->tables.gaps = gaps;
	P->tables.gaps_at = at;
	P->tables.gap_rects = rects;
	P->tables.gap_rects_at = rat;
	return 0;
fail:
	P->ngaps = 0;
	vrt_free(fills);
	vrt_free(at);
	vrt_free(gaps);
	vrt_free(rat);
	vrt_free(rects);
	return -1;
}

/* Every range's LPT and frames, as vrt_lpt_build lays them out for the
 * range alone, and its pages filled from the host (fill_of): made once
 * with the plan and kept with it (keep_plan), rather than worked out
 * again for each range of every launch (fill_of took half of jacobi2d's
 * host work a range on PoCL). A kept plan has them already (use_plan).
 * Out of memory, none: each range works out its own (start_range). */
/* The tables plan_tables made join the kept plan they were made for,
 * which frees them with itself (plans.c). */
static void join_kept(paged *P)
{
	P->kept->tables = P->tables;
	P->tables_owned = 0;
}

/* Host bytes of LPTs a plan's tables may take: above, its ranges build
 * their own (each LPT has a word for every page of the launch). */
#define VRT_PLAN_TABLES_MAX ((size_t)256 << 20)

cl_int vrt_paged_plan_tables(vrt_launch *L, paged *P)
{
	const vrt_layout *lay = &P->lay;
	size_t words = vrt_lpt_bytes(lay) / sizeof(uint32_t), n = P->nranges;
	vrt_box2d bx[VAST_MAX_SLOTS + 1];
	/* Not for a plan's first launch: a plan launched once (each of the
	 * nine workloads) would only wait for them before its first range,
	 * where each range's own are built while the one before runs (made
	 * at the first launch, mersennetwister at a quarter of 4 GiB on the
	 * H200, 28 ranges of 65,536 pages, took 0.260 s against 0.237 s
	 * before the tables; not measured since). Nor
	 * past VRT_PLAN_TABLES_MAX bytes of LPTs. */
	if (P->tables.lpts || !n || !P->cached || !P->kept)
		return CL_SUCCESS;
	uint32_t *t = words && n <= VRT_PLAN_TABLES_MAX / sizeof *t / words
	                      ? vrt_calloc(n * words, sizeof *t)
	                      : NULL;
	vrt_frames *fr = vrt_malloc(n * sizeof *fr);
	if (!t || !fr) {
		vrt_free(t);
		vrt_free(fr);
		return CL_SUCCESS;
	}
	for (size_t r = 0; r < n; r++)
		/* place_frames laid out every range: each fits. */
		if (vrt_paged_range_boxes(P, &P->ranges[r], bx) ||
		    vrt_lpt_build(lay, P->unions + r * lay->row_bytes, bx, P->per_buf, t + r * words,
		                  &fr[r])) {
			/* Out of host memory, or a range that cannot be laid out:
			 * each range builds its own, and says so itself. */
			vrt_free(t);
			vrt_free(fr);
			return CL_SUCCESS;
		}
	P->tables.lpt_words = words;
	if (plan_fills(L, P, t, fr)) {
		vrt_free(t);
		vrt_free(fr);
		return CL_SUCCESS;
	}
	P->tables.lpts = t;
	P->tables.frames = fr;
	P->tables_owned = 1;
	join_kept(P);
	vrt_log(VRT_LOG_DEBUG, "kernel '%s': the tables of %zu ranges made (LPTs, pages to fill)",
	        L->k->name, n);
	return CL_SUCCESS;
}

/* The plan's tables on the device, every range's at once (lpts.c), where
 * they take at most a thirty-second of the budget (or 1 MiB: the small
 * budgets of tests and PoCL): a range then binds its own and sends none.
 * Larger, a range's goes to its set's LPT buffer as it starts
 * (send_lpt_and_fault). */
void vrt_paged_tables_on_device(vrt_launch *L, paged *P)
{
	unsigned long long room = L->budget / 32;
	if (room < 1ull << 20)
		room = 1ull << 20;
	P->lpt_dev = P->tables.lpts ? vrt_lpts_on_device(&P->devs, L->ctx, P->plan_serial,
	                                                 P->tables.lpts, P->nranges,
	                                                 P->tables.lpt_words, room)
	                            : NULL;
}
