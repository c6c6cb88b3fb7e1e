/* SPDX-License-Identifier: MIT */
/*
 * planner.c - how a paged launch is cut: its page size, its PAS rows
 * (from the footprint descriptors or the inspector), the ranges reduced
 * from them against the budget of the frame sets in flight (Algorithm 1,
 * or the descriptors' boxes: fpplan.c), and every range's frames laid
 * out in device buffers. Where a plan does not fit it tries again with
 * finer rows, smaller pages, fewer sets or packed boxes, and refuses the
 * launch naming the work-group that cannot fit. A fused launch's plan,
 * from both kernels' descriptors, is made here too.
 */
#include <stdio.h>
#include <string.h>

#include "paged/paged_int.h"

/* Default page: 64 KiB, where copies reach a useful fraction of the link
 * (DESIGN §3: 17.6 GB/s vs 1.5 GB/s at 4 KiB) while runs of pages still
 * coalesce into larger spans. Small budgets get smaller pages (at least
 * 64 frames, at least 4 KiB) so a work-group's pages fit; so does a
 * VAST_PAGE_SIZE too large for the budget (a page larger than the budget
 * would refuse every launch), with one warning. */
unsigned vrt_paged_choose_shift(unsigned long long budget)
{
	static int warned;
	unsigned sh = vrt_cfg.page_shift ? vrt_cfg.page_shift : 16;
	unsigned floor = sh < 12 ? sh : 12;
	while (sh > floor && (budget >> sh) < 64)
		sh--;
	if (vrt_cfg.page_shift && sh != vrt_cfg.page_shift && !warned) {
		warned = 1;
		vrt_log(VRT_LOG_WARN, "VAST_PAGE_SIZE of %llu bytes leaves fewer than 64 pages in a budget of %llu bytes; using %llu-byte pages",
		        1ull << vrt_cfg.page_shift, budget, 1ull << sh);
	}
	return sh;
}

/* The range the i-th to run: the plan's order, or every other launch on
 * a pool the reverse, so that the pages the last ranges left in the
 * kept frames are the first the next launch needs (an iterative
 * program's sweeps go back and forth). OpenCL orders no work-groups
 * (OpenCL 1.2 §3.2), and pages two ranges share are forwarded or
 * written back in the order they run, whichever it is. */
const vrt_range *vrt_paged_range_at(const paged *P, size_t i)
{
	return &P->ranges[P->reverse ? P->nranges - 1 - i : i];
}

/* The boxes of range R's boxed slots into bx (rows 0 for the others):
 * 0, or -1 when one cannot be made (planning made them: not expected). */
int vrt_paged_range_boxes(const paged *P, const vrt_range *R, vrt_box2d *bx)
{
	memset(bx, 0, (VAST_MAX_SLOTS + 1) * sizeof *bx);
	if (!P->fp || !vrt_fp_boxed_any(P->fp))
		return 0;
	size_t g0 = R->first_row * P->wpp, g1 = (R->last_row + 1) * P->wpp;
	return vrt_fp_box_frames(P->fp, P->lay.page_shift, g0, g1, bx) == (size_t)-1 ? -1 : 0;
}

/* *row, a scratch row of at least n bytes (a new plan may have more
 * pages than the last); 0 when out of memory. */
int vrt_paged_scratch_row(unsigned char **row, size_t *cap, size_t n)
{
	if (*cap >= n)
		return 1;
	unsigned char *w = vrt_realloc(*row, n);
	if (!w)
		return 0;
	*row = w;
	*cap = n;
	return 1;
}

/* Lays out every range's frames in the buffers of a set (vrt_lpt_build)
 * and sizes each buffer b for the largest of them. Returns 0 when they
 * fit the set's share of the budget, 1 when not (a slot too large for
 * one buffer, more than VAST_FRAME_BUFS buffers, or room lost where a
 * slot did not fit the rest of a buffer), -2 when out of memory. */
static int place_frames(paged *P, unsigned long long share)
{
	const vrt_layout *lay = &P->lay;
	size_t rb = lay->row_bytes, need[VAST_FRAME_BUFS] = {0};
	/* A share within one buffer: every range's frames lie in buffer 0,
	 * the scratch frame and its pages (vrt_range_footprint). */
	if ((share >> lay->page_shift) <= P->per_buf) {
		for (size_t i = 0; i < P->nranges; i++)
			if (P->ranges[i].pages + 1 > need[0])
				need[0] = P->ranges[i].pages + 1;
		memcpy(P->buf_frames, need, sizeof need);
		return 0;
	}
	uint32_t *lpt = vrt_malloc(vrt_lpt_bytes(lay));
	vrt_box2d *bx = vrt_calloc(VAST_MAX_SLOTS + 1, sizeof *bx);
	int r = lpt && bx ? 0 : -2;
	for (size_t i = 0; !r && i < P->nranges; i++) {
		vrt_frames fr;
		if (vrt_paged_range_boxes(P, &P->ranges[i], bx) ||
		    vrt_lpt_build(lay, P->unions + i * rb, bx, P->per_buf, lpt, &fr))
			r = 1;
		for (unsigned b = 0; !r && b < VAST_FRAME_BUFS; b++)
			if (fr.used[b] > need[b])
				need[b] = fr.used[b];
	}
	vrt_free(lpt);
	vrt_free(bx);
	size_t total = 0;
	for (unsigned b = 0; !r && b < VAST_FRAME_BUFS; b++)
		total += need[b];
	if (!r && ((unsigned long long)total << lay->page_shift) + vrt_lpt_bytes(lay) > share)
		r = 1;
	if (!r)
		memcpy(P->buf_frames, need, sizeof need);
	return r;
}

/* Pages of 2^sh bytes: the layout (PAS rows, LPT) and the frames one
 * device buffer holds follow the page size, so a launch that halves its
 * pages gets as many more frames per buffer. LPT entries are 32-bit,
 * VAST_NO_FRAME the largest. */
size_t vrt_paged_frames_per_buf(const paged *P, unsigned sh)
{
	size_t n = P->maxalloc ? P->maxalloc >> sh : VAST_NO_FRAME;
	return n >= VAST_NO_FRAME ? VAST_NO_FRAME - 1 : n;
}

static void use_shift(paged *P, unsigned sh)
{
	P->lay.page_shift = sh;
	vrt_layout_init(&P->lay);
	P->per_buf = vrt_paged_frames_per_buf(P, sh);
	P->lay.hold_pages = P->lay.hold_slot ? (size_t)(P->hold_bytes >> sh) : 0;
	if (P->lay.hold_pages > P->lay.slot_pages[P->lay.hold_slot])
		P->lay.hold_pages = P->lay.slot_pages[P->lay.hold_slot];
}

/* The union of the PAS rows of every range (in plan order), then of
 * every row: the pages each range and the launch touch. Made with the
 * plan and kept with it (plans.c), so a launch that reuses a plan does
 * not OR its rows again: with 512 rows of 32 K pages (fdtd2d at 2 GiB)
 * that was 16 MiB of ORs per launch, twice. */
static cl_int plan_unions(paged *P)
{
	size_t rb = P->lay.row_bytes;
	P->unions = vrt_calloc(P->nranges + 1, rb);
	if (!P->unions)
		return CL_OUT_OF_HOST_MEMORY;
	unsigned char *all = P->unions + P->nranges * rb;
	for (size_t i = 0; i < P->nranges; i++) {
		unsigned char *u = P->unions + i * rb;
		for (size_t j = P->ranges[i].first_row; j <= P->ranges[i].last_row; j++)
			vrt_pas_or(u, P->rows + j * rb, rb);
		vrt_pas_or(all, u, rb);
	}
	return CL_SUCCESS;
}

/* The slots (a mask) of which some page more than one range touches:
 * only those gain from recording a range's pages for the ranges after it
 * (share_reads). A streaming launch (triad's 15 GB ranges) has none: its
 * records, a page at a time, cost the executor 50-100 ms a range. */
static uint64_t shared_slots(const paged *P)
{
	const vrt_layout *lay = &P->lay;
	size_t rb = lay->row_bytes;
	unsigned char *seen = vrt_calloc(1, rb);
	uint64_t shared = 0;
	if (!seen)
		return ~(uint64_t)0; /* assume all */
	for (size_t i = 0; i < P->nranges; i++) {
		const unsigned char *u = P->unions + i * rb;
		for (size_t w = 0; w < rb; w += 8) {
			uint64_t a, b;
			memcpy(&a, seen + w, 8);
			memcpy(&b, u + w, 8);
			for (unsigned s = 1; (a & b) && s <= lay->nslots; s++)
				for (size_t k = w; k < w + 8; k++)
					if (seen[k] && u[k] && k >= lay->slot_off[s] &&
					    k < lay->slot_off[s] + lay->slot_pages[s])
						shared |= (uint64_t)1 << s;
		}
		vrt_pas_or(seen, u, rb);
	}
	vrt_free(seen);
	return shared;
}

/* The most pages one slot of a range planned against budget may have
 * (0: any). Where a set spans several buffers, a slot's pages lie in one
 * (place_frames): ranges whose slots pass one only shrink the budget
 * there, a range at a time, into sets of one buffer. */
static size_t slot_max_of(const paged *P, unsigned long long budget)
{
	return (budget / P->nsets >> P->lay.page_shift) > P->per_buf ? P->per_buf : 0;
}

/* Ranges and their unions against budget/sets: from the PAS rows
 * (Algorithm 1), or with `boxes` straight from the footprint boxes
 * (fpplan.c: no rows; *from_fp becomes 1 exact, 2 a superset). */
static int plan_ranges(vrt_launch *L, paged *P, unsigned long long budget, int boxes,
                       int *from_fp, size_t *bad)
{
	vrt_free(P->ranges);
	vrt_free(P->unions);
	P->ranges = NULL;
	P->unions = NULL;
	double t0 = vrt_now_ms();
	int r, exact;
	if (boxes) {
		size_t slot_max = slot_max_of(P, budget);
		r = vrt_fp_plan_ranges(P->fp, &P->lay, L->groups, budget, P->nsets, slot_max,
		                       &P->ranges, &P->nranges, &P->unions, bad, &exact);
		*from_fp = exact ? 1 : 2;
	} else {
		r = vrt_pas_reduce_sets(&P->lay, P->rows, P->nrows, budget, P->nsets, &P->ranges,
		                        &P->nranges, bad);
		if (r == 0 && plan_unions(P) != CL_SUCCESS)
			r = -2;
	}
	if (r == 0)
		P->shared = shared_slots(P);
	double t1 = vrt_now_ms();
	if (boxes)
		L->st->inspect_ms += t1 - t0;
	vrt_trace_host(boxes ? "footprints" : "reduce", L->k->name, t0, t1, -1, 0);
	return r;
}

/* The launch's budget for P->nsets sets: a set's frames are
 * VAST_FRAME_BUFS buffers at most, less those of the resident slots. */
static unsigned long long sets_budget(const vrt_launch *L, const paged *P)
{
	unsigned long long budget = L->budget;
	unsigned long long most = (unsigned long long)P->per_buf * vrt_set_bufs(&P->lay)
	                          << P->lay.page_shift;
	if (budget / P->nsets > most)
		budget = most * P->nsets;
	return budget;
}

/* The ranges, then their frames laid out in device buffers; where they
 * do not fit, cut ranges against a smaller budget. The same returns as
 * vrt_fp_plan_ranges (-3: only with boxes). */
static int reduce(vrt_launch *L, paged *P, int boxes, int *from_fp, size_t *bad)
{
	unsigned long long budget = sets_budget(L, P);
	for (;;) {
		int r = plan_ranges(L, P, budget, boxes, from_fp, bad);
		if (r)
			return r;
		double t1 = vrt_now_ms();
		r = place_frames(P, budget / P->nsets);
		vrt_trace_host("place", L->k->name, t1, vrt_now_ms(), -1, 0);
		if (r != 1)
			return r;
		budget -= budget / 8;
	}
}

/* Smaller ranges (budget/N for N sets in flight) send again the pages
 * that neighbouring ranges share, a stencil's halo planes. When the
 * ranges of N sets would move more than VRT_MAX_RESEND times the pages
 * the launch touches, one set of larger ranges is faster: measured on
 * the H100 (4 GiB, budget 1 GiB), fdtd3d sent 1.47x the bytes with 3
 * sets and took 2.8x as long (1809 vs 655 ms), while blackscholes, whose
 * ranges share no pages, ran 1.5x faster (164 vs 247 ms). Returns 1 when
 * the ranges resend too much, 0 when not. */
#define VRT_MAX_RESEND 1.25

static int resends_too_much(const vrt_launch *L, const paged *P)
{
	size_t moved = 0, rb = P->lay.row_bytes;
	const unsigned char *all = P->unions + P->nranges * rb;
	/* Pages of a read-only slot that a range shares with the one
	 * before come from its frames (share_reads), not the host. A
	 * written slot's shared pages still go home from both ranges.
	 * Boxed slots have no pages here: their boxes overlap only by a
	 * stencil's halo rows. */
	int shared = vrt_cfg.resident && !L->share;
	for (size_t i = 0; i < P->nranges; i++) {
		const unsigned char *u = P->unions + i * rb, *prev = u - rb;
		for (unsigned s = 1; s <= P->lay.nslots; s++) {
			size_t at = P->lay.slot_off[s], n = P->lay.slot_pages[s];
			int reads = shared && i > 0 && !(L->slot_mode[s] & VAST_MODE_W) &&
			            vrt_paged_may_reside(L, s);
			/* A slot's pages start 8-aligned, padded with zeros
			 * (vrt_layout_init): counted a word at a time. */
			size_t n8 = (n + 7) & ~(size_t)7;
			moved += reads ? vrt_pas_count_new(u + at, prev + at, n8) : vrt_pas_count(u + at, n8);
		}
	}
	size_t touched = vrt_pas_count(all, rb);
	vrt_log(VRT_LOG_DEBUG, "kernel '%s': %zu ranges on %u sets move %zu pages of the %zu they touch",
	        L->k->name, P->nranges, P->nsets, moved, touched);
	return (double)moved > VRT_MAX_RESEND * (double)touched;
}

/* The inspector marks the pages of resident slots too: they take no
 * frames (the slot's whole buffer is bound), so no range counts them. */
static void unmark_resident(const vrt_layout *lay, unsigned char *rows, size_t nrows)
{
	for (unsigned s = 1; s <= lay->nslots; s++)
		for (size_t r = 0; lay->res_buf[s] && r < nrows; r++)
			memset(rows + r * lay->row_bytes + lay->slot_off[s], 0, lay->slot_pages[s]);
}

/* VAST_FOOTPRINTS=check: the inspector's rows too; refuses the launch
 * when it marks a page the descriptors did not. */
static cl_int check_rows(vrt_launch *L, const paged *P)
{
	size_t n = P->nrows * P->lay.row_bytes;
	unsigned char *insp = vrt_malloc(n);
	if (!insp)
		return CL_OUT_OF_HOST_MEMORY;
	cl_int err = vrt_inspect_run(L, &P->lay, P->wpp, insp, P->nrows);
	if (err == CL_SUCCESS) {
		vrt_pas_normalize(insp, n);
		unmark_resident(&P->lay, insp, P->nrows);
		for (size_t i = 0; i < n; i++)
			if (insp[i] && !P->rows[i]) {
				vrt_log(VRT_LOG_WARN, "kernel '%s': its footprint descriptors miss a page its inspector marks (row %zu, byte %zu); refusing the launch",
				        L->k->name, i / P->lay.row_bytes, i % P->lay.row_bytes);
				err = CL_INVALID_OPERATION;
				break;
			}
	}
	vrt_free(insp);
	return err;
}

/* Group `g` of L (its window's first group 0) as the refusals name it:
 * a group of one work-item by its global id (OpenCL 1.2 §6.12.1). */
static void group_name(const vrt_launch *L, size_t g, char *buf, size_t cap)
{
	if (L->lsize[0] * L->lsize[1] * L->lsize[2] != 1) {
		snprintf(buf, cap, "work-group %zu", g);
		return;
	}
	size_t id[3], f = L->group_base + g;
	for (unsigned d = 0; d < 3; d++) {
		id[d] = f % L->ngroups[d] + L->goff[d];
		f /= L->ngroups[d];
	}
	if (L->dim == 1)
		snprintf(buf, cap, "work-item %zu", id[0]);
	else if (L->dim == 2)
		snprintf(buf, cap, "work-item (%zu, %zu)", id[0], id[1]);
	else
		snprintf(buf, cap, "work-item (%zu, %zu, %zu)", id[0], id[1], id[2]);
}

/* What group 0 of W (a window of one group) needs at least, at any page
 * size planning tries: the bytes of the smallest pages it touches, from
 * its inspector (larger pages hold the same bytes and more), plus the
 * least of the scratch frame and the LPT over those page sizes
 * (vrt_range_footprint). 0 with *err set when the inspector failed. */
static unsigned long long probe_bytes(vrt_launch *W, const paged *P, cl_int *err)
{
	vrt_layout lay = P->lay;
	lay.page_shift = VRT_MIN_PAGE_SHIFT;
	vrt_layout_init(&lay);
	unsigned char *row = vrt_malloc(lay.row_bytes);
	if (!row) {
		*err = CL_OUT_OF_HOST_MEMORY;
		return 0;
	}
	*err = vrt_inspect_run(W, &lay, 1, row, 1);
	unsigned long long n = 0, least = ~0ull;
	if (*err == CL_SUCCESS) {
		vrt_pas_normalize(row, lay.row_bytes);
		n = (unsigned long long)vrt_pas_count(row, lay.row_bytes) << VRT_MIN_PAGE_SHIFT;
		for (unsigned sh = VRT_MIN_PAGE_SHIFT; sh <= P->first_shift; sh++) {
			lay.page_shift = sh;
			vrt_layout_init(&lay);
			if (vrt_range_footprint(&lay, 0) < least)
				least = vrt_range_footprint(&lay, 0);
		}
		n += least;
	}
	vrt_free(row);
	return n;
}

/* Before the inspector runs over the whole launch, its first work-group
 * alone (its first work-item, where the launch may take smaller groups:
 * vrt_local_may_shrink), inspected at the smallest pages: when that
 * passes the whole budget, no plan holds it at any page size, in any
 * ranges, with or without buffers kept whole, and the launch is refused
 * now instead of after inspections at every row and page size (a
 * covariance whose first work-item reads the whole matrix: 105 s of
 * inspecting on PoCL, then the same refusal). Where the launch may
 * shrink and its first work-item fits but its first group does not,
 * CL_MEM_OBJECT_ALLOCATION_FAILURE: launch.c halves the groups. The
 * bound holds only for plans in pages: called where the inspector plans
 * (packed boxes, fpplan.c, are never tried after it). A probe that fails
 * proves nothing: the full inspection reports it. Not an inspector that
 * reads buffers (an indirect kernel's index array): its data would go to
 * the device, or the CPU inspector be set up, twice. */
static cl_int probe_first(vrt_launch *L, paged *P)
{
	if (P->probed || L->share)
		return CL_SUCCESS;
	P->probed = 1;
	for (unsigned s = 1; s <= L->nslots; s++)
		if (L->slot_inspect_reads[s])
			return CL_SUCCESS;
	size_t lwg = L->lsize[0] * L->lsize[1] * L->lsize[2];
	int shrink = vrt_local_may_shrink(L) && lwg > 1;
	vrt_launch W = *L;
	W.groups = 1;
	char who[96];
	cl_int err;
	double t0 = vrt_now_ms();
	for (int item = shrink; item >= 0; item--) {
		if (item)
			for (unsigned d = 0; d < 3; d++)
				W.lsize[d] = 1, W.ngroups[d] = L->gsize[d];
		else
			memcpy(W.lsize, L->lsize, sizeof W.lsize), memcpy(W.ngroups, L->ngroups, sizeof W.ngroups);
		unsigned long long need = probe_bytes(&W, P, &err);
		if (err == CL_OUT_OF_HOST_MEMORY)
			return err;
		if (err != CL_SUCCESS || need <= P->full_budget)
			continue;
		L->st->inspect_ms += vrt_now_ms() - t0;
		group_name(&W, 0, who, sizeof who);
		/* With buffers kept whole or a hold, vrt_paged_run pages them
		 * all next, and probes again; smaller groups may fit (launch.c). */
		if ((!item && shrink) || P->nres || P->hold_bytes) {
			vrt_log(VRT_LOG_DEBUG, "kernel '%s': %s alone needs at least %llu bytes of device memory, more than the budget of %llu",
			        L->k->name, who, need, P->full_budget);
			return CL_MEM_OBJECT_ALLOCATION_FAILURE;
		}
		vrt_log(VRT_LOG_WARN, "kernel '%s': %s alone needs at least %llu bytes of device memory, more than the budget of %llu",
		        L->k->name, who, need, P->full_budget);
		L->no_retry = 1;
		return CL_MEM_OBJECT_ALLOCATION_FAILURE;
	}
	L->st->inspect_ms += vrt_now_ms() - t0;
	return CL_SUCCESS;
}

/* The launch's PAS rows: from the footprint descriptors when they cover
 * the kernel (*from_fp set: 1 exact, 2 a superset), else from its
 * inspector. */
static cl_int fill_rows(vrt_launch *L, paged *P, int *from_fp)
{
	int got = *from_fp ? vrt_fp_rows(P->fp, &P->lay, P->wpp, P->rows, P->nrows) : 0;
	cl_int err = CL_SUCCESS;
	if (got < 0)
		return CL_OUT_OF_HOST_MEMORY;
	if (!got && (err = probe_first(L, P)) != CL_SUCCESS)
		return err;
	double t0 = vrt_now_ms();
	*from_fp = got;
	if (got && vrt_cfg.footprints == VRT_FP_CHECK) {
		err = check_rows(L, P);
	} else if (!got) {
		vrt_log(VRT_LOG_INFO, "kernel '%s': inspecting %zu work-groups, %zu a PAS row, %u-byte pages",
		        L->k->name, L->groups, P->wpp, 1u << P->lay.page_shift);
		err = vrt_inspect_run(L, &P->lay, P->wpp, P->rows, P->nrows);
	}
	double t1 = vrt_now_ms();
	L->st->inspect_ms += t1 - t0;
	vrt_trace_host(got ? "footprints" : "inspect", L->k->name, t0, t1, -1, 0);
	if (err == CL_SUCCESS && !got) {
		vrt_pas_normalize(P->rows, P->nrows * P->lay.row_bytes);
		unmark_resident(&P->lay, P->rows, P->nrows);
	}
	return err;
}

/* The launch's refusal when work-group `bad` alone does not fit, at the
 * smallest pages: its bytes pass the budget, or they are within it but
 * one buffer's pages do not fit one device buffer (a slot's frames never
 * cross buffers, lpt.c) or the slots need more than VAST_FRAME_BUFS. */
static cl_int refuse_group(vrt_launch *L, paged *P, size_t bad, const unsigned char *row)
{
	const vrt_layout *lay = &P->lay;
	/* Boxed slots (boxframes.c) take their boxes' frames, not pages. */
	vrt_box2d bx[VAST_MAX_SLOTS + 1];
	size_t boxed = 0, bf[VAST_MAX_SLOTS + 1] = {0};
	if (vrt_fp_boxed_any(P->fp) &&
	    (boxed = vrt_fp_box_frames(P->fp, lay->page_shift, bad, bad + 1, bx)) != (size_t)-1)
		for (unsigned s = 1; s <= lay->nslots; s++)
			bf[s] = (size_t)((bx[s].width * bx[s].rows + (1ull << lay->page_shift) - 1) >>
			                 lay->page_shift);
	else
		boxed = 0;
	unsigned long long need = vrt_range_footprint(lay, vrt_pas_count(row, lay->row_bytes) + boxed);
	const char *kn = L->k->name;
	char who[96];
	group_name(L, bad, who, sizeof who);
	/* With buffers kept whole, vrt_paged_run pages them all instead: no
	 * refusal yet. */
	int lvl = P->nres || P->hold_bytes ? VRT_LOG_DEBUG : VRT_LOG_WARN;
	if (need > L->budget) {
		vrt_log(lvl, "kernel '%s': %s alone needs %llu bytes of device memory, more than the budget of %llu",
		        kn, who, need, L->budget);
		return CL_MEM_OBJECT_ALLOCATION_FAILURE;
	}
	unsigned big = 1;
	size_t most = 0;
	for (unsigned s = 1; s <= lay->nslots; s++) {
		size_t n = vrt_pas_count(row + lay->slot_off[s], lay->slot_pages[s]) + bf[s];
		if (n > most)
			most = n, big = s;
	}
	unsigned long long cap = (unsigned long long)P->per_buf << lay->page_shift;
	const char *arg = "?";
	for (cl_uint i = 0; i < L->k->nargs && i < VRT_MAX_ARGS; i++)
		if (L->arg_slot[i] == big && L->k->info)
			arg = L->k->info->params[i].name;
	if (((unsigned long long)most << lay->page_shift) > cap)
		vrt_log(lvl, "kernel '%s': %s alone needs %llu bytes of argument '%s', more than one device buffer holds (%llu bytes: CL_DEVICE_MAX_MEM_ALLOC_SIZE or VAST_MAX_ALLOC), within the budget of %llu",
		        kn, who, (unsigned long long)most << lay->page_shift, arg, cap, L->budget);
	else
		vrt_log(lvl, "kernel '%s': %s alone needs %llu bytes of device memory, within the budget of %llu but not in %u device buffers of %llu bytes (CL_DEVICE_MAX_MEM_ALLOC_SIZE or VAST_MAX_ALLOC)",
		        kn, who, need, L->budget, vrt_set_bufs(lay), cap);
	return CL_MEM_OBJECT_ALLOCATION_FAILURE;
}

/* refuse_group for a plan from the boxes (no rows): group bad's own
 * pages, from its boxes, and the frames of its boxed slots. */
static cl_int refuse_boxed_group(vrt_launch *L, paged *P, size_t bad)
{
	/* A group whose bytes of a boxed slot are no one box needs its
	 * pages: the refusal counts them. */
	if (vrt_fp_boxed_any(P->fp) &&
	    vrt_fp_box_frames(P->fp, P->lay.page_shift, bad, bad + 1, NULL) == (size_t)-1)
		vrt_fp_unbox(P->fp, 0);
	unsigned char *row = vrt_malloc(P->lay.row_bytes);
	int got = row ? vrt_fp_union(P->fp, &P->lay, bad, bad + 1, row) : -1;
	/* planning evaluated these boxes already: they do not fail now */
	cl_int err = got > 0 ? refuse_group(L, P, bad, row) : CL_OUT_OF_HOST_MEMORY;
	vrt_free(row);
	return err;
}

/* Boxes where pages waste the link (boxframes.c), tried once a launch:
 * the slots whose bytes in the plan's first range stride and whose
 * pages there hold VRT_BOX_WASTE times those bytes, or lie in
 * VRT_BOX_RUNS runs or more, go in as packed boxes, planned again. A
 * column strip of a transpose's output moved whole pages both ways: 40x
 * its bytes at a tenth of the data (PoCL). fdtd3d's strips of rows, one
 * run in each of its 812 planes, took 16 us of the host's per copy on
 * the H100 (1.1 s of enqueueing for 42 ranges); a box is one copy. A
 * range whose box of a slot is whole rows still runs straight (lpt.c):
 * only ranges with a strided box pay a division per access. */
#define VRT_BOX_WASTE 2
#define VRT_BOX_RUNS 64
static int boxes_worth(const vrt_launch *L, paged *P, int *tried)
{
	if (*tried || !P->nranges)
		return 0;
	*tried = 1;
	const vrt_range *R = &P->ranges[0];
	int nb = vrt_fp_choose_boxes(P->fp, &P->lay, R->first_row * P->wpp,
	                             (R->last_row + 1) * P->wpp, VRT_BOX_WASTE, VRT_BOX_RUNS);
	if (nb > 0)
		vrt_log(VRT_LOG_DEBUG, "kernel '%s': %d buffers go in as strided boxes, their pages %dx their bytes or %d runs or more",
		        L->k->name, nb, VRT_BOX_WASTE, VRT_BOX_RUNS);
	return nb > 0;
}

cl_int vrt_paged_inspect_and_reduce(vrt_launch *L, paged *P)
{
	vrt_kernel *k = L->k;
	size_t G = L->groups;
	size_t first_wpp = G > 512 ? (G + 511) / 512 : 1;
	unsigned first_shift = P->lay.page_shift;
	P->first_shift = first_shift;
	int oom;
	vrt_fp_plan_free(P->fp);
	oom = 0;
	P->fp = vrt_fp_plan_new(L, &oom);
	if (oom)
		return CL_OUT_OF_HOST_MEMORY;
	int from_fp = P->fp != NULL;
	/* Descriptors plan from their boxes, without rows (fpplan.c);
	 * VAST_FOOTPRINTS=check builds rows to compare with the inspector's. */
	int boxes = from_fp && vrt_cfg.footprints != VRT_FP_CHECK;
	P->wpp = first_wpp;
	/* The last launch of the kernel like this one (its groups, budget
	 * and page size) found that smaller ranges resend too much: plan
	 * with one set at once, not twice (fdtd3d alternates its buffers,
	 * so no plan is kept, and planned twice a launch). Not the shares of
	 * a split launch: they plan on threads of their own. */
	struct vrt_resend_hint *h = L->share ? NULL : &k->resend;
	int one_set = h && h->groups == G && h->budget == L->budget && h->shift == first_shift &&
	              !vrt_cfg.pipeline_forced;
	if (one_set)
		P->nsets = 1;
	/* Boxes tried (boxes_worth, below; the fallback), and boxes_worth's in use. */
	int tried_waste = 0, tried_fallback = 0, worth = 0;
	for (;;) {
		vrt_free(P->rows);
		P->rows = NULL;
		if (boxes) {
			P->wpp = 1;
			P->nrows = G;
		} else {
			P->nrows = (G + P->wpp - 1) / P->wpp;
			P->rows = vrt_malloc(P->nrows * P->lay.row_bytes);
			if (!P->rows)
				return CL_OUT_OF_HOST_MEMORY;
			cl_int err = fill_rows(L, P, &from_fp);
			if (err != CL_SUCCESS)
				return err;
		}
		double t1 = vrt_now_ms();
		size_t bad = 0;
		int r;
		/* A row that does not fit budget/k first costs a frame set (no
		 * new inspection), down to the old synchronous schedule. */
		while ((r = reduce(L, P, boxes, &from_fp, &bad)) == -1 && P->wpp == 1 && P->nsets > 1)
			P->nsets--;
		if (r == 0 && P->nsets > 1 && !vrt_cfg.pipeline_forced) {
			double t2 = vrt_now_ms();
			int t = resends_too_much(L, P);
			vrt_trace_host("resends", k->name, t2, vrt_now_ms(), -1, 0);
			if (t) {
				P->nsets = 1;
				r = reduce(L, P, boxes, &from_fp, &bad);
				if (r == 0 && h)
					*h = (struct vrt_resend_hint){G, L->budget, first_shift};
			}
		}
		if (r == 0 && P->nsets > P->nranges)
			P->nsets = (unsigned)P->nranges;
		/* 0 sets: this plan failed (a finer inspection follows). */
		vrt_trace_plan(k->name, t1, vrt_now_ms(), r ? 0 : P->nranges, r ? 0 : P->nsets);
		if (r == -2)
			return CL_OUT_OF_HOST_MEMORY;
		if (r == -3) {
			/* A descriptor cannot be evaluated: the inspector plans. */
			boxes = from_fp = 0;
			P->wpp = first_wpp;
			P->nsets = vrt_cfg.pipeline;
			continue;
		}
		if (r == 0 && boxes && boxes_worth(L, P, &tried_waste)) {
			use_shift(P, first_shift);
			P->nsets = vrt_cfg.pipeline;
			worth = 1;
			continue;
		}
		if (r && worth && !tried_fallback) {
			/* Pages fitted where the boxes chosen for them do not (a
			 * range whose bytes are no one box): pages again. */
			vrt_fp_unbox(P->fp, 0);
			worth = 0;
			use_shift(P, first_shift);
			P->nsets = vrt_cfg.pipeline;
			continue;
		}
		if (r == 0) {
			L->st->fp_plans += from_fp != 0;
			P->from_fp = from_fp != 0;
			return CL_SUCCESS;
		}
		if (P->wpp == 1) {
			size_t lwg = L->lsize[0] * L->lsize[1] * L->lsize[2];
			if (L->local_free && lwg > 1)
				return CL_MEM_OBJECT_ALLOCATION_FAILURE; /* launch.c retries */
			if (P->lay.page_shift > VRT_MIN_PAGE_SHIFT) {
				/* A group that touches a few bytes of many pages
				 * (a strided or column walk) needs fewer bytes with
				 * smaller pages: halve them and plan again. */
				use_shift(P, P->lay.page_shift - 1);
				P->wpp = first_wpp;
				P->nsets = vrt_cfg.pipeline;
				vrt_log(VRT_LOG_DEBUG, "kernel '%s': work-group %zu does not fit; trying %u-byte pages",
				        k->name, bad, 1u << P->lay.page_shift);
				continue;
			}
			/* Slots whose bytes stride go in as packed boxes
			 * (boxframes.c), planned again from the first page
			 * size. */
			if ((boxes || from_fp) && P->fp && !tried_fallback) {
				tried_fallback = 1;
				int nb = vrt_fp_choose_boxes(P->fp, &P->lay, bad, bad + 1, 0, 0);
				if (nb > 0) {
					vrt_log(VRT_LOG_DEBUG, "kernel '%s': work-group %zu does not fit in pages; %d buffers go in as strided boxes",
					        k->name, bad, nb);
					boxes = 1;
					use_shift(P, first_shift);
					P->nsets = vrt_cfg.pipeline;
					continue;
				}
			}
			if (from_fp == 2 && !vrt_fp_boxed_any(P->fp)) {
				/* An inexact descriptor is a superset: the
				 * inspector's exact pages may still fit (exact
				 * ones mark the inspector's pages: no use). */
				boxes = from_fp = 0;
				use_shift(P, first_shift);
				P->wpp = first_wpp;
				P->nsets = vrt_cfg.pipeline;
				continue;
			}
			/* The program's own local size, kept while pages or
			 * boxes of any size hold a group (a column walk's packed
			 * boxes move its bytes once, smaller groups whole pages
			 * of them); where none does, a kernel whose work-items
			 * are independent takes smaller groups (launch.c). */
			if (vrt_local_may_shrink(L) && lwg > 1) {
				vrt_log(VRT_LOG_DEBUG, "kernel '%s': work-group %zu does not fit at any page size",
				        k->name, bad);
				return CL_MEM_OBJECT_ALLOCATION_FAILURE;
			}
			return P->rows ? refuse_group(L, P, bad, P->rows + bad * P->lay.row_bytes)
			               : refuse_boxed_group(L, P, bad);
		}
		/* A row does not fit: inspect again with finer rows. */
		P->wpp = P->wpp / 4 ? P->wpp / 4 : 1;
		vrt_log(VRT_LOG_DEBUG, "kernel '%s': re-inspecting with %zu groups per PAS row",
		        k->name, P->wpp);
	}
}

/* Whether running a fused launch's two kernels range by range gives
 * what running L's kernel whole and then L2's gives: no page of a slot
 * either writes that L2's kernel touches on one range and L's on
 * another, in whichever order the ranges run (range_at). OpenCL orders
 * the work-groups of neither launch (OpenCL 1.2 §3.2) but every one of
 * L's before L2's (in-order queue, §5.11); pages are a superset of the
 * bytes, so this refuses some pairs that would be exact. 1 yes, 0 no,
 * -1 out of memory. */
static int fused_exact(vrt_launch *L, paged *P)
{
	const vrt_layout *lay = &P->lay;
	size_t rb = lay->row_bytes;
	unsigned *ranges_of = vrt_calloc(rb, sizeof *ranges_of);
	unsigned char *u1 = vrt_malloc(rb), *u2 = vrt_malloc(rb);
	int ok = ranges_of && u1 && u2 ? 1 : -1;
	/* ranges_of[p]: how many ranges L's kernel touches page p on */
	for (size_t i = 0; ok == 1 && i < P->nranges; i++) {
		size_t g0 = P->ranges[i].first_row * P->wpp, g1 = (P->ranges[i].last_row + 1) * P->wpp;
		if (g1 > L->groups)
			g1 = L->groups;
		ok = vrt_fp_union_own(P->fp, lay, g0, g1, u1) > 0;
		for (size_t b = 0; ok == 1 && b < rb; b++)
			ranges_of[b] += u1[b];
	}
	for (size_t i = 0; ok == 1 && i < P->nranges; i++) {
		size_t g0 = P->ranges[i].first_row * P->wpp, g1 = (P->ranges[i].last_row + 1) * P->wpp;
		if (g1 > L->groups)
			g1 = L->groups;
		ok = vrt_fp_union_own(P->fp, lay, g0, g1, u1) > 0 &&
		     vrt_fp_union_own(P->fp2, lay, g0, g1, u2) > 0;
		for (unsigned s = 1; ok == 1 && s <= lay->nslots; s++) {
			if (!((P->mode1[s] | P->L2->slot_mode[s]) & VAST_MODE_W))
				continue;
			size_t o = lay->slot_off[s];
			for (size_t p = 0; ok == 1 && p < lay->slot_pages[s]; p++)
				ok = !u2[o + p] || ranges_of[o + p] == u1[o + p];
		}
	}
	vrt_free(ranges_of);
	vrt_free(u1);
	vrt_free(u2);
	return ok;
}

/* A fused launch's plan: ranges cut against both kernels' pages
 * (vrt_fp_follow), from their descriptors alone, in pages (no boxes, no
 * inspector); VRT_NOT_FUSED, nothing run, where that cannot be done or
 * would not be exact (fused_exact). Kept for the next launch of the pair
 * like a single launch's (plancache.c): it depends on nothing that
 * launch's key leaves out (plans.c), not on what earlier launches left
 * on the device. */
int vrt_paged_fused_descriptors(vrt_launch *L, paged *P)
{
	int oom = 0;
	vrt_fp_plan_free(P->fp);
	vrt_fp_plan_free(P->fp2);
	P->fp2 = NULL;
	P->fp = vrt_fp_plan_new(L, &oom);
	if (!oom)
		P->fp2 = vrt_fp_plan_new(P->L2, &oom);
	if (oom)
		return -1;
	if (!vrt_fp_complete(P->fp) || !vrt_fp_complete(P->fp2))
		return 0;
	vrt_fp_follow(P->fp, P->fp2);
	return 1;
}

cl_int vrt_paged_plan_fused(vrt_launch *L, paged *P)
{
	double t0 = vrt_now_ms();
	int d = vrt_paged_fused_descriptors(L, P);
	if (d < 0)
		return CL_OUT_OF_HOST_MEMORY;
	if (!d)
		return VRT_NOT_FUSED;
	vrt_free(P->rows);
	P->rows = NULL;
	P->wpp = 1;
	P->nrows = L->groups;
	int from_fp = 1, r;
	size_t bad = 0;
	while ((r = reduce(L, P, 1, &from_fp, &bad)) == -1 && P->nsets > 1)
		P->nsets--;
	if (r == -2)
		return CL_OUT_OF_HOST_MEMORY;
	if (r)
		return VRT_NOT_FUSED;
	if (P->nsets > P->nranges)
		P->nsets = (unsigned)P->nranges;
	vrt_trace_plan(L->k->name, t0, vrt_now_ms(), P->nranges, P->nsets);
	int exact = fused_exact(L, P);
	if (exact < 0)
		return CL_OUT_OF_HOST_MEMORY;
	if (!exact) {
		vrt_log(VRT_LOG_DEBUG, "kernel '%s': not fused with '%s': a page one writes lies in another range of the other",
		        L->k->name, P->L2->k->name);
		return VRT_NOT_FUSED;
	}
	P->from_fp = 1;
	L->st->fp_plans++;
	return CL_SUCCESS;
}

/* The layout of a paged launch of L's slots before it plans, around the
 * buffers it keeps whole (L->res_buf, P->nres) and the hold
 * (L->hold_slot): a fused launch has neither (paged_run, fused_plan). */
void vrt_paged_first_layout(vrt_launch *L, paged *P)
{
	P->maxalloc = vrt_max_alloc(L->dev);
	P->nsets = vrt_cfg.pipeline;
	P->lay.nslots = L->nslots;
	memcpy(P->lay.res_buf, L->res_buf, sizeof P->lay.res_buf);
	P->lay.hold_slot = L->hold_slot;
	P->lay.hold_buf = VAST_FRAME_BUFS - 1 - P->nres;
	unsigned long long share = L->budget / P->nsets;
	for (unsigned s = 1; s <= L->nslots; s++)
		P->lay.slot_size[s] = L->slot_mem[s]->size;
	use_shift(P,
	          vrt_paged_choose_shift(P->maxalloc && P->maxalloc < share ? P->maxalloc : share));
}

/* Frees a plan of fused_plan's that no launch took. */
void vrt_paged_drop_plan(paged *D)
{
	vrt_fp_plan_free(D->fp);
	vrt_fp_plan_free(D->fp2);
	vrt_free(D->ranges);
	vrt_free(D->unions);
	vrt_free(D);
}

/* A fused launch planned as paged_run plans it, with nothing on the
 * device or in the host copies touched: CL_SUCCESS, *plan its plan for
 * paged_run to take (plan_fused), where it may run; VRT_NOT_FUSED where
 * not (the pair then runs one launch after the other exactly as if never
 * tried: the buffers kept whole and the hold, which a fused launch goes
 * without, stay), or an error. L keeps nothing whole and has no hold. */
cl_int vrt_paged_fused_plan(vrt_launch *L, vrt_launch *L2, const unsigned *mode1, paged **plan)
{
	paged *P = vrt_calloc(1, sizeof *P);
	*plan = NULL;
	if (!P)
		return CL_OUT_OF_HOST_MEMORY;
	P->L2 = L2;
	memcpy(P->mode1, mode1, sizeof P->mode1);
	/* Counted once the launch runs. */
	vrt_kstats *st = L->st, scratch = {0};
	L->st = &scratch;
	vrt_paged_first_layout(L, P);
	cl_int err = vrt_paged_plan_fused(L, P);
	L->st = st;
	if (err == CL_SUCCESS)
		*plan = P;
	else
		vrt_paged_drop_plan(P);
	return err;
}
