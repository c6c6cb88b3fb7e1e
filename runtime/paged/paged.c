/* SPDX-License-Identifier: MIT */
/*
 * paged.c - the paged path of a launch (DESIGN §3, VAST §4).
 *
 *   inspect -> PAS rows -> reduction (Algorithm 1) -> per range:
 *   plan (LPT), gather frames, H2D, vast_paged_K (vast_straight_K when
 *   every slot's pages are one run), D2H of the written slots and the
 *   fault word, fault check, scatter into the host copies.
 *
 * Ranges are pipelined (VAST_PIPELINE=k frame sets, default 3): each range
 * owns one frame set (frame buffer, LPT, fault word, staging area) and
 * its commands go to three queues of the runtime's own, joined by events:
 * H2D on one, kernels (and page forwarding) on another, D2H on a third.
 * While range i's kernel runs, range i+1's frames go in and range i-1's
 * come out; the host thread plans and gathers range i+1 meanwhile, and
 * finishes range i-k+1 (fault check, scatter) only when its set is needed
 * again. The budget covers all k sets, so the reduction cuts ranges
 * against budget/k, and the first range is cut smaller still so the
 * pipeline fills fast.
 *
 * Exactness: a page of a written slot that an earlier range still in
 * flight also touches is not taken from the host copy (which that range
 * has not written back yet) but copied on the device from the earlier
 * range's frame, after its kernel (the paper's shared PAS forwarding,
 * done device-side). Write-backs reach the host copies in range order:
 * a slot moves either straight between its pinned host copy and the
 * frames or through the staging area for the whole launch, and both
 * paths are ordered (one in-order D2H queue; scatters in range order).
 * A read-only slot whose pages and frames did not change since the
 * set's previous range is not sent again. The last range on each set
 * leaves what it writes in its frames, dirty, for the host to fetch
 * when it needs it (lazy_slot, remember, write_home: written data
 * goes home lazily). A fault in any range means the
 * inspector missed a page: the launch fails rather than give a wrong
 * result.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paged/paged.h"

/* Default page: 64 KiB, where copies reach a useful fraction of the link
 * (DESIGN §3: 17.6 GB/s vs 1.5 GB/s at 4 KiB) while runs of pages still
 * coalesce into larger spans. Small budgets get smaller pages (at least
 * 64 frames, at least 4 KiB) so a work-group's pages fit; so does a
 * VAST_PAGE_SIZE too large for the budget (a page larger than the budget
 * would refuse every launch), with one warning. */
static unsigned choose_shift(unsigned long long budget)
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

/* The runtime's own queues on one device of a context, made once and
 * kept (they hold a reference to the context), with profiling on for
 * VAST_TRACE and kernel_ms. Guarded by the runtime lock. */
typedef struct queues {
	cl_context ctx;
	cl_device_id dev;
	cl_command_queue in, run, out;
	struct queues *next;
} queues;
static queues *all_queues;

static queues *make_queues(cl_context ctx, cl_device_id dev, cl_int *err)
{
	queues *q;
	for (q = all_queues; q; q = q->next)
		if (q->ctx == ctx && q->dev == dev)
			return q;
	if (!(q = vrt_calloc(1, sizeof *q))) {
		*err = CL_OUT_OF_HOST_MEMORY;
		return NULL;
	}
	cl_command_queue_properties pr = CL_QUEUE_PROFILING_ENABLE;
	if (!(q->in = vrt_queue_create(ctx, dev, pr, err)) ||
	    !(q->run = vrt_queue_create(ctx, dev, pr, err)) ||
	    !(q->out = vrt_queue_create(ctx, dev, pr, err))) {
		if (q->in)
			vrt_real.clReleaseCommandQueue(q->in);
		if (q->run)
			vrt_real.clReleaseCommandQueue(q->run);
		vrt_free(q);
		return NULL;
	}
	vrt_trace_queue(q->in, "queue H2D");
	vrt_trace_queue(q->run, "queue kernels");
	vrt_trace_queue(q->out, "queue D2H");
	clRetainContext(ctx);
	q->ctx = ctx;
	q->dev = dev;
	q->next = all_queues;
	all_queues = q;
	return q;
}

/* The shares of a split launch (multi.c) run paged launches on several
 * threads at once, the runtime lock held by their caller: the list has
 * a lock of its own. */
static queues *queues_for(cl_context ctx, cl_device_id dev, cl_int *err)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	pthread_mutex_lock(&lock);
	queues *q = make_queues(ctx, dev, err);
	pthread_mutex_unlock(&lock);
	return q;
}

/* One frame set: what one range in flight holds. */
typedef struct fset {
	cl_mem frames[VAST_FRAME_BUFS], lptbuf, fault;
	unsigned char *stage;       /* staged slots' frames, one after another */
	size_t stage_off[VAST_MAX_SLOTS + 1]; /* a staged slot's place in stage */
	unsigned char *u, *prev_u;  /* union row of its range, of the previous one */
	unsigned char *fill;        /* the pages of u filled from the host */
	const uint32_t *lpt;        /* its range's LPT: the plan's (plan_tables),
	                             * or lpt_own built for it */
	uint32_t *lpt_own;
	cl_mem lptarg;              /* where its kernel reads it: the plan's
	                             * copy on the device, or lptbuf */
	vrt_frames fr, prev_fr;     /* where its range's frames lie, the previous one's */
	vrt_box2d box[VAST_MAX_SLOTS + 1]; /* its range's boxed slots (boxframes.c) */
	long range;                 /* the range in flight on it, -1: none */
	size_t plan_r;              /* its place in the plan's ranges (range_at) */
	int lazy;                   /* its range is among the launch's last
	                             * nsets: lazy slots stay in its frames */
	int used;                   /* prev_u and prev_fr are a range's */
	/* First and last command of each phase (last NULL: only one). */
	cl_event in[2], run, out[2];
	cl_event run0;              /* the first kernel, when the range ran several */
	cl_event reader;            /* last forwarding copy out of these frames */
	cl_uint *fault_word;        /* where the fault word is read: in the
	                             * launch's tail, which may outlive it */
	int checked;                /* its fault word is read (start_range) */
	unsigned long long in_bytes, out_bytes;
	double gather_ms;
} fset;

typedef struct paged {
	vrt_layout lay;
	size_t wpp, nrows;
	unsigned char *rows;
	vrt_range *ranges;
	size_t nranges;
	unsigned char *unions;      /* a row per range, then all (plan_ranges) */
	unsigned nsets;
	fset set[VRT_MAX_SETS];
	size_t done;                /* ranges finished, in order */
	cl_ulong maxalloc;          /* largest device buffer (VAST_MAX_ALLOC), 0: any */
	unsigned units;             /* the device's compute units, 0: unknown */
	size_t per_buf;             /* frames one device buffer may hold */
	size_t buf_frames[VAST_FRAME_BUFS]; /* frames of buffer b of each set */
	cl_mem dummy;               /* one page, bound to the buffers a set lacks */
	unsigned long long device_bytes; /* of the buffers made for this plan */
	queues *qs;
	cl_kernel kp;               /* the paged variant */
	cl_kernel ks;               /* the straight variant, NULL: none */
	int direct[VAST_MAX_SLOTS + 1]; /* slot moves without staging */
	vrt_fp_plan *fp;            /* the kernel's descriptors, NULL: none usable */
	unsigned char *written;     /* a slot's pages a range writes whole */
	size_t written_cap;
	vrt_gap *gaps;              /* the range's pages filled by their gaps */
	size_t ngaps, gaps_cap;
	unsigned char *whole;       /* scratch row: the pages filled whole */
	size_t whole_cap;
	unsigned char *boxrow;      /* scratch row: a range's pages with its boxes' */
	size_t boxrow_cap;
	unsigned char *poolrow;     /* scratch row: a slot's pages as the pool's
	                             * location holds them (vrt_pool_pages) */
	size_t poolrow_cap;
	int cached;                 /* rows and ranges are a kept plan's (plans.c) */
	int from_fp;                /* the plan came from descriptors alone */
	vrt_devsets devs;           /* the sets' device buffers (framepool.c) */
	int loc[VAST_MAX_SLOTS + 1]; /* the pool's location in the directory of
	                             * a slot whose pages it may keep (may_reside:
	                             * poolloc.c), -1: none */
	vrt_tail *tail;             /* the fault words, and the last ranges when
	                             * the executor completes them (tail.c) */
	int reverse;                /* ranges run last first (range_at) */
	vrt_mem *res[VAST_FRAME_BUFS]; /* buffers kept whole on the device */
	unsigned nres;
	unsigned long long hold_bytes;  /* L->hold_bytes: the hold's size */
	unsigned long long full_budget; /* L->budget before their bytes came off */
	int probed;                 /* probe_first ran */
	unsigned first_shift;       /* the largest pages planning tries */
	cl_event last_run;          /* the latest range's kernel (the hold's H2D waits) */
	struct res_copy {           /* a run of pages taken from kept frames */
		unsigned set, buf, dst_buf;
		size_t src, dst, n;     /* frames */
	} *copies;
	size_t ncopies, copies_cap;
	struct forgot {             /* a page whose kept copy a range drops */
		vrt_mem *m;
		int l;
		size_t page;
	} *forgot;
	size_t forgot_cap;
	unsigned char *forgetrow;   /* a row of zeros between ranges: the pages of
	                             * slots whose kept copies a range drops */
	size_t forgetrow_cap;
	uint64_t deliver;           /* slots whose queued reads ranges fill (deliver.c) */
	uint64_t shared;            /* slots with pages several ranges touch (shared_slots) */
	struct held {               /* a straight H2D held back (send_held) */
		cl_mem fb;
		size_t dev_off, n;
		const unsigned char *src;
	} *held;
	size_t nheld, held_cap, held_next, held_sent; /* held_sent: of held[held_next] */
	unsigned long long held_bytes; /* held back in this range */
	int hold_back;              /* the range has a slot in through the ring */
	/* A fused launch (vrt_paged_run_fused): L2's kernel runs after L's on
	 * each range, on the same frames. L carries both kernels' slots (their
	 * modes joined), L2 its arguments into those slots and its own modes,
	 * mode1 L's kernel's own. NULL: a launch of one kernel. */
	vrt_launch *L2;
	unsigned mode1[VAST_MAX_SLOTS + 1];
	vrt_fp_plan *fp2;           /* L2's descriptors */
	struct paged *pre;          /* the plan fused_plan made, not yet taken */
	cl_kernel kp2, ks2;         /* L2's paged and straight variants */
	vrt_planrec *rec;           /* the ranges as they ran, for the planner
	                             * (planrec.c: VAST_PLAN_CHECK, _DUMP); NULL: not */
	unsigned char *recrows;     /* the range's whole, sent and out rows */
	size_t recrows_cap;
	/* Every range's LPT and frames, made once for a kept plan at its
	 * second launch (plan_tables) and kept with it (plans.c), or P's own
	 * (lpts_owned) until they are; NULL: each range builds its own. */
	const uint32_t *lpts;
	const vrt_frames *lpt_frames;
	size_t lpt_words;
	const unsigned char *fills; /* every range's F->fill (pages_to_fill), */
	const vrt_gap *fill_gaps;   /* its gaps, range r's from fill_gaps_at[r] */
	const size_t *fill_gaps_at; /* (NULL: worked out range by range) */
	const vrt_rect *gap_rects;  /* their copies (send_gaps), range r's of */
	const size_t *gap_rects_at; /* slot s from gap_rects_at[r * (nslots + 1) + s] */
	int lpts_owned;
	vrt_plan *kept;             /* the kept plan in use (plans.c), which the
	                             * tables made for it join; NULL: none */
	unsigned long long plan_serial; /* the kept plan's (vrt_plan.serial), 0: none */
	const cl_mem *lpt_dev;      /* range r's LPT on the device (lpts.c); NULL:
	                             * sent range by range (send_lpt_and_fault) */
	vrt_span *spans;            /* scratch: a slot's spans (move_pages,
	                             * staged_spans), grown, not made per range */
	size_t spans_cap;
	vrt_rect *rects;            /* scratch: their rectangles */
	size_t rects_cap;
} paged;

/* The range the i-th to run: the plan's order, or every other launch on
 * a pool the reverse, so that the pages the last ranges left in the
 * kept frames are the first the next launch needs (an iterative
 * program's sweeps go back and forth). OpenCL orders no work-groups
 * (OpenCL 1.2 §3.2), and pages two ranges share are forwarded or
 * written back in the order they run, whichever it is. */
static const vrt_range *range_at(const paged *P, size_t i)
{
	return &P->ranges[P->reverse ? P->nranges - 1 - i : i];
}

/* The boxes of range R's boxed slots into bx (rows 0 for the others):
 * 0, or -1 when one cannot be made (planning made them: not expected). */
static int range_boxes(const paged *P, const vrt_range *R, vrt_box2d *bx)
{
	memset(bx, 0, (VAST_MAX_SLOTS + 1) * sizeof *bx);
	if (!P->fp || !vrt_fp_boxed_any(P->fp))
		return 0;
	size_t g0 = R->first_row * P->wpp, g1 = (R->last_row + 1) * P->wpp;
	return vrt_fp_box_frames(P->fp, P->lay.page_shift, g0, g1, bx) == (size_t)-1 ? -1 : 0;
}

/* *row, a scratch row of at least n bytes (a new plan may have more
 * pages than the last); 0 when out of memory. */
static int scratch_row(unsigned char **row, size_t *cap, size_t n)
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

/* Row u of a range with the pages its boxes bx cover marked in their
 * (boxed) slots, whose rows are empty: what pending.c copies in and
 * deliver.c out, a page at a time. u itself where there are no boxes;
 * NULL when out of memory. The one scratch row: valid until the next
 * call. */
static const unsigned char *pages_of(paged *P, const unsigned char *u, const vrt_box2d *bx)
{
	const vrt_layout *lay = &P->lay;
	unsigned s;
	for (s = 1; s <= lay->nslots && !bx[s].rows; s++)
		;
	if (s > lay->nslots)
		return u;
	if (!scratch_row(&P->boxrow, &P->boxrow_cap, lay->row_bytes))
		return NULL;
	memcpy(P->boxrow, u, lay->row_bytes);
	for (s = 1; s <= lay->nslots; s++) {
		unsigned char *r = P->boxrow + lay->slot_off[s];
		for (unsigned long long k = 0; k < bx[s].rows && bx[s].width; k++) {
			unsigned long long a = bx[s].origin + k * bx[s].pitch, b = a + bx[s].width - 1;
			for (unsigned long long p = a >> lay->page_shift;
			     p <= b >> lay->page_shift && p < lay->slot_pages[s]; p++)
				r[p] = 1;
		}
	}
	return P->boxrow;
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
		if (range_boxes(P, &P->ranges[i], bx) || vrt_lpt_build(lay, P->unions + i * rb, bx,
		                                                     P->per_buf, lpt, &fr))
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
static size_t frames_per_buf(const paged *P, unsigned sh)
{
	size_t n = P->maxalloc ? P->maxalloc >> sh : VAST_NO_FRAME;
	return n >= VAST_NO_FRAME ? VAST_NO_FRAME - 1 : n;
}

static void use_shift(paged *P, unsigned sh)
{
	P->lay.page_shift = sh;
	vrt_layout_init(&P->lay);
	P->per_buf = frames_per_buf(P, sh);
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

/* The kept frames (residency.c) may hold slot s's pages: reuse is on,
 * the launch keeps its frame sets (a share of a split launch does not),
 * and the buffer is in no sub-buffer family, whose members alias each
 * other's bytes (conservative: no reuse there). */
static int may_reside(const vrt_launch *L, unsigned s)
{
	const vrt_mem *m = L->slot_mem[s];
	return vrt_cfg.resident && !L->share && !m->parent && !m->nsubs && !L->res_buf[s];
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
			            may_reside(L, s);
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

/* Ranges planned for several frame sets that cannot fill the device
 * (plan/fill.c: fewer groups than twice its units) plan again with one
 * set, which is kept where its ranges are at least twice as wide; else
 * the first plan comes back. Returns reduce's result; *one: one set
 * kept. Measured cause: nbody's ranges of 57 groups on the H100's 132
 * units each took one group's time, 8.8 ms, however few they had. */
static int fill_device(vrt_launch *L, paged *P, int boxes, int *from_fp, size_t *bad, int *one)
{
	*one = 0;
	size_t wide_k = vrt_fill_widest(P->ranges, P->nranges, P->wpp);
	if (P->nranges < 2 || !vrt_fill_narrow(wide_k, P->units))
		return 0;
	struct {
		vrt_range *ranges;
		unsigned char *unions;
		size_t nranges, buf_frames[VAST_FRAME_BUFS];
		uint64_t shared;
		int from_fp;
		unsigned nsets;
	} k = { P->ranges, P->unions, P->nranges, {0}, P->shared, *from_fp, P->nsets };
	memcpy(k.buf_frames, P->buf_frames, sizeof k.buf_frames);
	P->ranges = NULL;
	P->unions = NULL;
	P->nsets = 1;
	int r = reduce(L, P, boxes, from_fp, bad);
	size_t wide_1 = r == 0 ? vrt_fill_widest(P->ranges, P->nranges, P->wpp) : 0;
	vrt_log(VRT_LOG_DEBUG, "kernel '%s': ranges of %zu groups on %u sets cannot fill %u compute units; %zu on one set",
	        L->k->name, wide_k, k.nsets, P->units, wide_1);
	if (r == -2) {
		vrt_free(k.ranges);
		vrt_free(k.unions);
		return r;
	}
	if (r == 0 && vrt_fill_sets(k.nsets, wide_k, wide_1, P->units) == 1) {
		vrt_free(k.ranges);
		vrt_free(k.unions);
		*one = 1;
		return 0;
	}
	vrt_free(P->ranges);
	vrt_free(P->unions);
	P->ranges = k.ranges;
	P->unions = k.unions;
	P->nranges = k.nranges;
	memcpy(P->buf_frames, k.buf_frames, sizeof k.buf_frames);
	P->shared = k.shared;
	*from_fp = k.from_fp;
	P->nsets = k.nsets;
	return 0;
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

static cl_int inspect_and_reduce(vrt_launch *L, paged *P)
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
		if (r == 0 && P->nsets > 1 && !vrt_cfg.pipeline_forced) {
			/* Too narrow to fill the device: one set, remembered as
			 * the resend rule's is (a launch like it plans once). */
			int one;
			r = fill_device(L, P, boxes, &from_fp, &bad, &one);
			if (r == 0 && one && h)
				*h = (struct vrt_resend_hint){G, L->budget, first_shift};
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

/* Pinned host copies move span by span, straight between the host copy
 * and the frames, when the spans are large enough for a copy to reach the
 * link's speed (DESIGN §3: 1 MiB pieces 48 GB/s, 64 KiB 17.6 GB/s);
 * everything else is gathered into the pinned staging area and moves in
 * one piece. Decided once per launch and slot, from the runs of pages
 * the whole launch touches, so that write-backs of one slot all take the
 * same (ordered) path.
 *
 * A staging area is a second host copy of what it stages, and a pinned
 * one is a buffer the device caps at its largest allocation: a set's
 * staging stays within VRT_STAGE_MAX and that size, and a slot whose
 * share of it (its pages, at most the set's budget) would pass the bound
 * moves straight from its host copy too, pinned or not (a 32 GiB
 * USE_HOST_PTR array on a 128 GiB host has no room for staging the size
 * of the budget). */
#define VRT_DIRECT_SPAN (256u << 10)
#define VRT_STAGE_MAX (512ull << 20)

static void choose_direct(vrt_launch *L, paged *P)
{
	const vrt_layout *lay = &P->lay;
	const unsigned char *all = P->unions + P->nranges * lay->row_bytes;
	unsigned long long room = VRT_STAGE_MAX, share = L->budget / P->nsets;
	if (P->maxalloc && P->maxalloc < room)
		room = P->maxalloc;
	for (unsigned s = 1; s <= lay->nslots; s++) {
		const unsigned char *row = all + lay->slot_off[s];
		size_t pages = 0, runs = 0;
		for (size_t p = 0; p < lay->slot_pages[s]; p++) {
			pages += row[p];
			runs += row[p] && (p == 0 || !row[p - 1]);
		}
		unsigned long long bytes = (unsigned long long)pages << lay->page_shift;
		unsigned long long staged = bytes < share ? bytes : share;
		P->direct[s] = (L->slot_mem[s]->pin.buf && runs && bytes / runs >= VRT_DIRECT_SPAN) ||
		               staged > room || vrt_fp_boxed(P->fp, s);
		if (!P->direct[s])
			room -= staged;
		else if (!L->slot_mem[s]->pin.buf)
			vrt_log(VRT_LOG_INFO, "kernel '%s': slot %u moves unstaged, from pageable memory (%llu bytes a range would pass the staging bound)",
			        L->k->name, s, staged);
	}
}

/* Remembers a command of a phase: ev[0] the first, ev[1] the last. */
static void keep(cl_event ev[2], cl_event e)
{
	if (!ev[0]) {
		ev[0] = e;
		return;
	}
	if (ev[1])
		vrt_real.clReleaseEvent(ev[1]);
	ev[1] = e;
}

static cl_event last_of(cl_event ev[2])
{
	return ev[1] ? ev[1] : ev[0];
}

static void drop_events(fset *F)
{
	cl_event *all[] = {&F->in[0], &F->in[1], &F->run0, &F->run, &F->out[0], &F->out[1]};
	for (size_t i = 0; i < sizeof all / sizeof *all; i++)
		if (*all[i]) {
			vrt_real.clReleaseEvent(*all[i]);
			*all[i] = NULL;
		}
}

typedef struct span_job {
	const vrt_layout *lay;
	const vrt_span *sp;
	unsigned char *host, *stage;
} span_job;

static void gather_share(void *ctx, size_t begin, size_t end)
{
	span_job *j = ctx;
	for (size_t i = begin; i < end; i++)
		vrt_gather(j->lay, &j->sp[i], j->host, j->stage);
}

static void scatter_share(void *ctx, size_t begin, size_t end)
{
	span_job *j = ctx;
	for (size_t i = begin; i < end; i++)
		vrt_scatter(j->lay, &j->sp[i], j->host, j->stage);
}

/* Lays out the staged slots of F's range one after another in its
 * staging area, sized to them alone: pinning a staging area costs about
 * what moving it does (measured on the H100: 1.5 GB of full-frame
 * staging took 0.55-0.67 s before the first range). */
static cl_int stage_layout(vrt_launch *L, paged *P, fset *F)
{
	size_t total = 0;
	for (unsigned s = 1; s <= P->lay.nslots; s++) {
		F->stage_off[s] = total;
		if (!P->direct[s] && !P->lay.res_buf[s] && F->fr.held != s)
			total += F->fr.count[s] << P->lay.page_shift;
	}
	if (!total)
		return CL_SUCCESS;
	F->stage = vrt_staging(L->ctx, L->stage_base + (unsigned)(F - P->set), total);
	return F->stage ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
}

/* Spans of staged slot s with frames relative to its place in the
 * staging area, in *sp (P's scratch, valid until the next call);
 * (size_t)-1 when out of memory. */
static size_t staged_spans(paged *P, const fset *F, const unsigned char *u, unsigned s,
                           vrt_span **sp)
{
	size_t nsp = vrt_spans_in(&P->lay, u, F->lpt, s, &P->spans, &P->spans_cap);
	*sp = P->spans;
	if (nsp == (size_t)-1)
		return nsp;
	for (size_t i = 0; i < nsp; i++)
		(*sp)[i].frame -= F->fr.first[s];
	return nsp;
}

/* Writes the frames of staged spans sp (in page order, frames relative to
 * img) from img to fb at off: in one piece, except where frames that need
 * nothing from the host (pages a range writes whole, pages_to_fill) leave
 * a gap of VRT_DIRECT_SPAN or more between spans, which one more copy
 * skips. */
static cl_int write_staged(cl_command_queue q, cl_mem fb, size_t off, const unsigned char *img,
                           const vrt_span *sp, size_t nsp, unsigned sh, cl_event ev[2],
                           unsigned long long *count)
{
	for (size_t i = 0; i < nsp;) {
		size_t a = sp[i].frame, z = a + sp[i].npages;
		for (i++; i < nsp && (sp[i].frame - z) << sh < VRT_DIRECT_SPAN; i++)
			z = sp[i].frame + sp[i].npages;
		cl_event e;
		cl_int err = vrt_real.clEnqueueWriteBuffer(q, fb, CL_FALSE, off + (a << sh),
		                                           (z - a) << sh, img + (a << sh), 0, NULL,
		                                           &e);
		if (err)
			return err;
		keep(ev, e);
		*count += (z - a) << sh;
	}
	return CL_SUCCESS;
}

/* The pages of slot s that go in whole (F->fill's 1s), as a row like
 * F->fill: F->fill itself when no page of s goes by its gaps. NULL when
 * out of memory. */
static const unsigned char *filled_whole(paged *P, const fset *F, unsigned s)
{
	const vrt_layout *lay = &P->lay;
	const unsigned char *fill = F->fill + lay->slot_off[s];
	if (!memchr(fill, 2, lay->slot_pages[s]))
		return F->fill;
	if (!scratch_row(&P->whole, &P->whole_cap, lay->row_bytes))
		return NULL;
	unsigned char *w = P->whole + lay->slot_off[s];
	for (size_t p = 0; p < lay->slot_pages[s]; p++)
		w[p] = fill[p] == 1;
	return P->whole;
}

/* Enqueues on F's H2D queue the gaps of slot s's pages still filled by
 * their gaps (use_kept may have found a kept copy of one since), from the
 * host copy, as rectangles. */
static cl_int send_gaps(vrt_launch *L, paged *P, fset *F, unsigned s)
{
	const vrt_layout *lay = &P->lay;
	const unsigned char *fill = F->fill + lay->slot_off[s];
	/* Slot s's gaps, a block of P->gaps (pieces go in slot by slot:
	 * pages_to_fill), are packed within that block: the slots go in two
	 * passes when one goes through the ring (start_range), so a later
	 * slot may be sent first, and packing from the front overwrote an
	 * earlier slot's gaps before they were sent. */
	size_t a = 0;
	while (a < P->ngaps && P->gaps[a].slot != s)
		a++;
	size_t end = a, n = 0;
	for (; end < P->ngaps && P->gaps[end].slot == s; end++)
		if (fill[P->gaps[end].page] == 2)
			P->gaps[a + n++] = P->gaps[end];
	vrt_gap *gaps = P->gaps + a;
	/* The plan's copies of them, where use_kept took none of their
	 * pages (it only takes pages out: the count tells). */
	size_t k = F->plan_r * (lay->nslots + 1) + s, nplan = 0, nrc;
	for (size_t i = P->gap_rects ? P->fill_gaps_at[F->plan_r] : 0;
	     P->gap_rects && i < P->fill_gaps_at[F->plan_r + 1]; i++)
		nplan += P->fill_gaps[i].slot == s;
	vrt_rect *rc = NULL;
	const vrt_rect *use;
	if (P->gap_rects && nplan == n) {
		use = P->gap_rects + P->gap_rects_at[k];
		nrc = P->gap_rects_at[k + 1] - P->gap_rects_at[k];
	} else {
		nrc = vrt_gap_rects(gaps, n, lay->page_shift, vrt_lpt_table(F->lpt, s), &rc);
		if (nrc == (size_t)-1)
			return CL_OUT_OF_HOST_MEMORY;
		use = rc;
	}
	vrt_log(VRT_LOG_DEBUG, "slot %u: %zu gaps of pages written in part, in %zu copies", s, n,
	        nrc);
	cl_int err = CL_SUCCESS;
	for (size_t i = 0; i < nrc && !err; i++) {
		cl_event e;
		if (!(err = vrt_rect_move(P->qs->in, F->frames[F->fr.buf[s]], &use[i],
		                          L->slot_mem[s]->host, 0, NULL, &e)))
			keep(F->in, e);
		F->in_bytes += use[i].rows * use[i].row_bytes;
	}
	vrt_free(rc);
	return err;
}

/* Whether slot s of F's range goes in straight from a plain host copy,
 * through the pinned ring (move_pages). */
static int in_by_ring(vrt_launch *L, paged *P, const fset *F, unsigned s)
{
	return (P->direct[s] || F->fr.held == s) && !F->box[s].rows && !L->slot_mem[s]->pin.buf &&
	       vrt_ring_usable(L->ctx, L->stage_base / VRT_MAX_SETS);
}

/* A range whose pages go in both through the ring and straight from
 * pinned host copies: the ring's copy of each chunk waits for the chunk's
 * previous transfer, queued behind every straight transfer enqueued
 * before it (the 96 GiB triad: 1.15 GB a range from pinned memory, 21 ms
 * of the link, stalled the ring's copies every range). So while the
 * range has a slot in through the ring (P->hold_back), its straight
 * single-row transfers are held back and sent a piece at a time between
 * the ring's chunks: the link moves both while the host copies. */
static int hold_piece(paged *P, cl_mem fb, size_t dev_off, const unsigned char *src, size_t n)
{
	if (P->nheld == P->held_cap) {
		size_t cap = P->held_cap ? 2 * P->held_cap : 64;
		struct held *h = vrt_realloc(P->held, cap * sizeof *h);
		if (!h)
			return -1;
		P->held = h;
		P->held_cap = cap;
	}
	P->held[P->nheld++] = (struct held){fb, dev_off, n, src};
	P->held_bytes += n;
	return 0;
}

/* Sends up to `bytes` of the held transfers on q, in order. */
static cl_int send_held(paged *P, cl_command_queue q, cl_event ev[2], size_t bytes)
{
	cl_int err = CL_SUCCESS;
	while (bytes && P->held_next < P->nheld && !err) {
		struct held *h = &P->held[P->held_next];
		size_t n = h->n - P->held_sent < bytes ? h->n - P->held_sent : bytes;
		cl_event e;
		err = vrt_real.clEnqueueWriteBuffer(q, h->fb, CL_FALSE, h->dev_off + P->held_sent, n,
		                                    h->src + P->held_sent, 0, NULL, &e);
		if (err)
			break;
		keep(ev, e);
		bytes -= n;
		if ((P->held_sent += n) == h->n) {
			P->held_next++;
			P->held_sent = 0;
		}
	}
	if (P->held_next == P->nheld)
		P->nheld = P->held_next = P->held_sent = 0;
	return err;
}

/* What a D2H of F's range (out) waits for: its kernel, on another
 * queue, for the range's first D2H (the fault word's, where it is read,
 * else its first frames'); NULL for the others, which follow it on the
 * in-order D2H queue, and for an H2D. */
static cl_event after_run(const fset *F, int out)
{
	return out && !F->out[0] ? F->run : NULL;
}

/* Enqueues the pages u marks of slot s's frames of set F in (H2D,
 * gathering first when staged) or out (D2H; the scatter of a staged slot
 * comes in finish_range). */
static cl_int move_pages(vrt_launch *L, paged *P, fset *F, unsigned s, int out,
                         const unsigned char *u)
{
	vrt_layout *lay = &P->lay;
	unsigned sh = lay->page_shift;
	vrt_mem *m = L->slot_mem[s];
	cl_command_queue q = out ? P->qs->out : P->qs->in;
	cl_mem fb = F->frames[F->fr.buf[s]];
	cl_event *ev = out ? F->out : F->in, e;
	unsigned long long *count = out ? &F->out_bytes : &F->in_bytes;
	cl_int err = CL_SUCCESS;
	if (P->direct[s] || F->fr.held == s) { /* the hold has no staging */
		size_t nsp = vrt_spans_in(lay, u, F->lpt, s, &P->spans, &P->spans_cap), nrc = 0;
		if (nsp == (size_t)-1 ||
		    (nrc = vrt_span_rects_in(lay, P->spans, nsp, &P->rects, &P->rects_cap)) ==
		            (size_t)-1)
			return CL_OUT_OF_HOST_MEMORY;
		const vrt_rect *rc = P->rects;
		if (nrc < nsp)
			vrt_log(VRT_LOG_DEBUG, "slot %u: %zu spans in %zu rectangular copies", s, nsp, nrc);
		/* Only the buffer's valid bytes: the frames past its end hold
		 * nothing of the program's. Strided spans move as rectangles;
		 * spans of a plain host copy go in through the pinned ring. */
		unsigned ring = L->stage_base / VRT_MAX_SETS;
		int by_ring = !out && in_by_ring(L, P, F, s);
		if (by_ring) { /* the ring waits on q: nothing it needs unflushed */
			vrt_log(VRT_LOG_DEBUG, "slot %u in through the pinned ring", s);
			vrt_real.clFlush(P->qs->run);
			vrt_real.clFlush(P->qs->out);
			vrt_real.clFlush(q);
		}
		for (size_t i = 0; i < nrc && !err; i++) {
			*count += rc[i].rows * rc[i].row_bytes;
			if (!by_ring && !out && P->hold_back && rc[i].rows == 1) {
				if (hold_piece(P, fb, rc[i].dev_off, m->host + rc[i].host_off,
				               rc[i].row_bytes))
					err = CL_OUT_OF_HOST_MEMORY;
				continue;
			}
			if (!by_ring || rc[i].rows > 1) {
				if (!(err = vrt_rect_move(q, fb, &rc[i], m->host, out, after_run(F, out),
				                          &e)))
					keep(ev, e);
				continue;
			}
			for (size_t done = 0, sent; done < rc[i].row_bytes && !err; done += sent)
				if (!(err = vrt_ring_write(L->ctx, ring, q, fb, rc[i].dev_off + done,
				                           m->host + rc[i].host_off + done,
				                           rc[i].row_bytes - done, &sent, &e))) {
					keep(ev, e);
					err = send_held(P, q, ev, sent);
				}
		}
		return err;
	}
	size_t off = F->fr.first[s] << sh, n = F->fr.count[s] << sh;
	unsigned char *img = F->stage + F->stage_off[s];
	if (!out) {
		vrt_span *sp;
		size_t nsp = staged_spans(P, F, u, s, &sp);
		if (nsp == (size_t)-1)
			return CL_OUT_OF_HOST_MEMORY;
		span_job j = {lay, sp, m->host, img};
		vrt_parallel(nsp, n, gather_share, &j);
		return write_staged(q, fb, off, img, sp, nsp, sh, ev, count);
	}
	cl_event after = after_run(F, out);
	err = vrt_real.clEnqueueReadBuffer(q, fb, CL_FALSE, off, n, img, after != NULL,
	                                   after ? &after : NULL, &e);
	if (!err)
		keep(ev, e);
	*count += n;
	return err;
}

/* Before the first H2D into F's frames: the previous launch's last
 * range on them may still run (defer_ranges). A range that sends
 * nothing waits for nothing: a barrier on another queue's event costs
 * the host up to 30 us on NVIDIA's driver. */
static cl_int after_busy(paged *P, fset *F)
{
	vrt_devset *ds = &P->devs.set[F - P->set];
	if (!ds->busy)
		return CL_SUCCESS;
	cl_int err = vrt_real.clEnqueueBarrierWithWaitList(P->qs->in, 1, &ds->busy, NULL);
	vrt_real.clReleaseEvent(ds->busy);
	ds->busy = NULL;
	return err;
}

/* Before range i's box of written slot s goes in: the ranges still in
 * flight whose boxes of s share bytes with it have written them back.
 * A box goes back whole, bytes the kernel did not write as they came in
 * (no forwarding, as pages have), so this range's must be theirs: a
 * byte two ranges write is a race in the program, but bytes one writes
 * and the other's box merely spans are not. */
static cl_int after_box_writers(vrt_launch *L, paged *P, size_t i, fset *F, unsigned s)
{
	cl_event wait[VRT_MAX_SETS];
	cl_uint n = 0;
	if (!(L->slot_mode[s] & VAST_MODE_W))
		return CL_SUCCESS;
	for (size_t j = i; j-- > P->done;) {
		fset *G = &P->set[j % P->nsets];
		if (G != F && last_of(G->out) && vrt_box2d_overlap(&G->box[s], &F->box[s]))
			wait[n++] = last_of(G->out);
	}
	return n ? vrt_real.clEnqueueBarrierWithWaitList(P->qs->in, n, wait, NULL) : CL_SUCCESS;
}

/* Enqueues boxed slot s's box of F's range (range i) in (H2D) or out
 * (D2H), its rows packed one after another in the slot's frames: one
 * copy straight between the host copy and the frames, rectangular unless
 * the box is whole rows. In whole, written or not: a byte the kernel
 * does not write goes back as it came; a box whose every byte the range
 * must write (exact must-write descriptors) does not go in at all. */
static cl_int move_box(vrt_launch *L, paged *P, size_t i, fset *F, unsigned s, int out)
{
	const vrt_box2d *bx = &F->box[s];
	int whole = bx->width == bx->pitch;
	vrt_rect r = { whole ? 1 : bx->rows, bx->origin, F->fr.first[s] << P->lay.page_shift,
	               whole ? bx->width * bx->rows : bx->width, bx->pitch, bx->width };
	cl_event e;
	if (!out && L->slot_mode[s] == VAST_MODE_W) {
		/* A box the range writes whole, of a slot the kernel only
		 * writes (it reads nothing of it first), needs nothing from
		 * the host. */
		const vrt_range *R = range_at(P, i);
		int w = vrt_fp_box_written(P->fp, &P->lay, s, R->first_row * P->wpp,
		                           (R->last_row + 1) * P->wpp, bx);
		vrt_log(VRT_LOG_DEBUG, "range %zu: slot %u: a box of %llu rows of %llu bytes at %llu, pitch %llu%s",
		        i, s, bx->rows, bx->width, bx->origin, bx->pitch,
		        w > 0 ? ", all written: not filled" : "");
		if (w)
			return w < 0 ? CL_OUT_OF_HOST_MEMORY : CL_SUCCESS;
	}
	cl_int err = out ? CL_SUCCESS : after_busy(P, F);
	if (!err && !out)
		err = after_box_writers(L, P, i, F, s);
	if (!err)
		err = vrt_rect_move(out ? P->qs->out : P->qs->in, F->frames[F->fr.buf[s]], &r,
		                    L->slot_mem[s]->host, out, after_run(F, out), &e);
	if (err)
		return err;
	keep(out ? F->out : F->in, e);
	*(out ? &F->out_bytes : &F->in_bytes) += bx->width * bx->rows;
	return CL_SUCCESS;
}

/* Enqueues slot s's frames of set F in or out (move_pages): in, the
 * pages filled whole, then the gaps of those filled by their gaps, last:
 * a staged slot's copy may span a page of the second kind (write_staged)
 * with stale bytes of the staging area, which the gaps then overwrite. */
static cl_int move_frames(vrt_launch *L, paged *P, fset *F, unsigned s, int out)
{
	const unsigned char *u = out ? F->u : filled_whole(P, F, s);
	if (!u)
		return CL_OUT_OF_HOST_MEMORY;
	cl_int err = out ? CL_SUCCESS : after_busy(P, F);
	if (err)
		return err;
	err = move_pages(L, P, F, s, out, u);
	if (!err && !out && u != F->fill)
		err = send_gaps(L, P, F, s);
	return err;
}

/* The range in flight that last brings page p of slot s back: its frame
 * holds the page's current bytes once its kernel ran. NULL: the host
 * copy is current. */
static fset *writer_of(vrt_launch *L, paged *P, size_t i, unsigned s, size_t p)
{
	if (!(L->slot_mode[s] & VAST_MODE_W))
		return NULL;
	for (size_t j = i; j-- > P->done;) {
		fset *G = &P->set[j % P->nsets];
		if (G->u[P->lay.slot_off[s] + p])
			return G;
	}
	return NULL;
}

/* Copies, on the kernel queue (after the earlier ranges' kernels and this
 * range's H2D), every page of F that a range still in flight writes from
 * that range's frame; runs of pages consecutive in both move together. */
static cl_int forward(vrt_launch *L, paged *P, size_t i, fset *F)
{
	const vrt_layout *lay = &P->lay;
	unsigned sh = lay->page_shift;
	cl_event after = last_of(F->in);
	for (unsigned s = 1; s <= lay->nslots; s++) {
		if (!(L->slot_mode[s] & VAST_MODE_W) || P->done == i)
			continue;
		const unsigned char *row = F->u + lay->slot_off[s];
		for (size_t p = 0; p < lay->slot_pages[s];) {
			fset *G = row[p] ? writer_of(L, P, i, s, p) : NULL;
			if (!G) {
				p++;
				continue;
			}
			const uint32_t *tg = vrt_lpt_table(G->lpt, s), *tf = vrt_lpt_table(F->lpt, s);
			size_t q = p + 1;
			while (q < lay->slot_pages[s] && row[q] && writer_of(L, P, i, s, q) == G &&
			       tg[q] == tg[p] + (q - p) && tf[q] == tf[p] + (q - p))
				q++;
			/* Both bound to the hold: the page is where G wrote it,
			 * and F's kernel follows G's on the in-order queue. */
			if (G->fr.held == s && F->fr.held == s) {
				p = q;
				continue;
			}
			cl_event e;
			vrt_log(VRT_LOG_DEBUG, "range %zu: %zu pages of slot %u forwarded from range %ld",
			        i, q - p, s, G->range);
			cl_int err = vrt_real.clEnqueueCopyBuffer(P->qs->run, G->frames[G->fr.buf[s]],
			                                          F->frames[F->fr.buf[s]],
			                                          (size_t)tg[p] << sh, (size_t)tf[p] << sh,
			                                          (q - p) << sh, after != NULL,
			                                          after ? &after : NULL, &e);
			if (err)
				return err;
			/* G's frames are refilled only after this copy (start_range). */
			if (G->reader)
				vrt_real.clReleaseEvent(G->reader);
			G->reader = e;
			p = q;
		}
	}
	return CL_SUCCESS;
}

/* Bytes of page p of a buffer of `size` bytes. */
static size_t page_bytes(const vrt_layout *lay, size_t size, size_t p)
{
	size_t at = p << lay->page_shift, n = (size_t)1 << lay->page_shift;
	return size - at < n ? size - at : n;
}

/* Page p of slot s, which the range's must-write boxes (fp, just asked)
 * cover only in part, goes in by its gaps alone (gaps.c): into
 * P->gaps, and 1; 0 to fill it whole (large gaps, or more than
 * VRT_GAPS_MAX); -1 out of memory. */
static int by_gaps(const vrt_launch *L, paged *P, const vrt_fp_plan *fp, unsigned s, size_t p)
{
	const vrt_layout *lay = &P->lay;
	size_t lo[VRT_GAPS_MAX], hi[VRT_GAPS_MAX], bytes = 0;
	size_t n = vrt_fp_gaps(fp, p, lay->page_shift, L->slot_mem[s]->size, lo, hi,
	                       VRT_GAPS_MAX);
	if (!n || n > VRT_GAPS_MAX)
		return 0;
	for (size_t i = 0; i < n; i++)
		bytes += hi[i] - lo[i];
	if (bytes * 4 > page_bytes(lay, L->slot_mem[s]->size, p))
		return 0; /* most of the page: one linear copy moves it better */
	if (P->ngaps + n > P->gaps_cap) {
		size_t cap = P->gaps_cap ? P->gaps_cap * 2 : 256;
		while (cap < P->ngaps + n)
			cap *= 2;
		vrt_gap *g = vrt_realloc(P->gaps, cap * sizeof *g);
		if (!g)
			return -1;
		P->gaps = g;
		P->gaps_cap = cap;
	}
	for (size_t i = 0; i < n; i++)
		P->gaps[P->ngaps++] = (vrt_gap){ s, p, lo[i], hi[i] };
	return 1;
}

/* Slot s's pages by their gaps (pieces P->gaps[first..]) go in whole
 * after all when the copies of their gaps would take longer
 * (vrt_gaps_worth); 0 out of memory, else 1. */
static int gaps_or_whole(const vrt_launch *L, paged *P, unsigned char *fillrow,
                         const uint32_t *lpt, unsigned s, size_t first)
{
	const vrt_layout *lay = &P->lay;
	unsigned char *fill = fillrow + lay->slot_off[s];
	vrt_rect *rc;
	size_t nrc = vrt_gap_rects(P->gaps + first, P->ngaps - first, lay->page_shift,
	                           vrt_lpt_table(lpt, s), &rc);
	if (nrc == (size_t)-1)
		return 0;
	size_t rows = 0;
	for (size_t i = 0; i < nrc; i++)
		rows += rc[i].rows;
	vrt_free(rc);
	unsigned long long whole = 0;
	for (size_t p = 0; p < lay->slot_pages[s]; p++)
		if (fill[p] == 2)
			whole += page_bytes(lay, L->slot_mem[s]->size, p);
	if (vrt_gaps_worth(nrc, rows, whole))
		return 1;
	for (size_t p = 0; p < lay->slot_pages[s]; p++)
		if (fill[p] == 2)
			fill[p] = 1;
	P->ngaps = first;
	return 1;
}

/* fill: the pages of u (a range's, its frames fr and LPT lpt) that go in
 * from the host copies, 1 whole, 2 by their gaps (P->gaps). A slot the
 * kernel only writes (no reads, no atomics) needs none of the pages its
 * range certainly writes whole
 * (exact must-write descriptors): every byte of them comes back from the
 * kernel; of a page they write in part, only the bytes they leave out.
 * Every other page is filled, so bytes a kernel does not write keep
 * their values. In a fused launch the kernel that touches the slot first
 * on the range decides: L's where it has the slot, else L2's (the bytes
 * L's kernel writes whole are all L2's kernel sees of them). */
static cl_int fill_of(vrt_launch *L, paged *P, const unsigned char *u, const vrt_frames *fr,
                      const uint32_t *lpt, size_t g0, size_t g1, unsigned char *fillrow)
{
	const vrt_layout *lay = &P->lay;
	memcpy(fillrow, u, lay->row_bytes);
	P->ngaps = 0;
	if (!P->fp)
		return CL_SUCCESS;
	for (unsigned s = 1; s <= lay->nslots; s++) {
		unsigned mode = L->slot_mode[s];
		vrt_fp_plan *fp = P->fp;
		if (P->L2) {
			mode = P->mode1[s] ? P->mode1[s] : P->L2->slot_mode[s];
			fp = P->mode1[s] ? P->fp : P->fp2;
		}
		if (mode != VAST_MODE_W || !fr->count[s] || lay->res_buf[s])
			continue;
		if (P->written_cap < lay->slot_pages[s]) {
			/* a new plan may have smaller pages: more of them */
			unsigned char *w = vrt_realloc(P->written, lay->slot_pages[s]);
			if (!w)
				return CL_OUT_OF_HOST_MEMORY;
			P->written = w;
			P->written_cap = lay->slot_pages[s];
		}
		int r = vrt_fp_must_write(fp, lay, s, g0, g1, P->written);
		if (r < 0)
			return CL_OUT_OF_HOST_MEMORY;
		unsigned char *fill = fillrow + lay->slot_off[s];
		size_t first = P->ngaps;
		for (size_t p = 0; r && p < lay->slot_pages[s]; p++) {
			if (P->written[p]) {
				fill[p] = 0;
				continue;
			}
			int g = fill[p] ? by_gaps(L, P, fp, s, p) : 0;
			if (g < 0)
				return CL_OUT_OF_HOST_MEMORY;
			if (g)
				fill[p] = 2;
		}
		if (first < P->ngaps && !gaps_or_whole(L, P, fillrow, lpt, s, first))
			return CL_OUT_OF_HOST_MEMORY;
	}
	return CL_SUCCESS;
}

/* F->fill and P->gaps of F's range, plan range r of groups [g0, g1)
 * (fill_of): the plan's, worked out once with it (plan_tables), else
 * here. */
static cl_int pages_to_fill(vrt_launch *L, paged *P, fset *F, size_t r, size_t g0, size_t g1)
{
	if (!P->fills)
		return fill_of(L, P, F->u, &F->fr, F->lpt, g0, g1, F->fill);
	size_t a = P->fill_gaps_at[r], n = P->fill_gaps_at[r + 1] - a;
	memcpy(F->fill, P->fills + r * P->lay.row_bytes, P->lay.row_bytes);
	if (n > P->gaps_cap) {
		vrt_gap *g = vrt_realloc(P->gaps, n * sizeof *g);
		if (!g)
			return CL_OUT_OF_HOST_MEMORY;
		P->gaps = g;
		P->gaps_cap = n;
	}
	if (n)
		memcpy(P->gaps, P->fill_gaps + a, n * sizeof *P->gaps);
	P->ngaps = n;
	return CL_SUCCESS;
}

/* Slot s, written, may leave its pages in the last ranges' frames dirty
 * rather than write them home now: they may reside, and the host copy
 * is ours. A CL_MEM_USE_HOST_PTR buffer's host copy is the program's
 * memory, which it may read after clFinish with no command of ours in
 * between (OpenCL 1.2 §5.2.1 leaves it undefined, but programs do): it
 * goes home eagerly. */
static int lazy_slot(const vrt_launch *L, unsigned s)
{
	return (L->slot_mode[s] & VAST_MODE_W) && may_reside(L, s) &&
	       !(L->slot_mem[s]->flags & CL_MEM_USE_HOST_PTR);
}

/* Whether range F's written pages of slot s go home when it finishes
 * (not kept whole, held or left dirty in the frames; a box always does). */
static int goes_home_now(const vrt_launch *L, const paged *P, const fset *F, unsigned s)
{
	return (L->slot_mode[s] & VAST_MODE_W) && F->fr.count[s] && !P->lay.res_buf[s] &&
	       F->fr.held != s && (F->box[s].rows || !(F->lazy && lazy_slot(L, s)));
}

/* Enqueues on q the copy of pages page..page+n-1 of m (clipped to its
 * size) from frames frame.. of fb into the host copy; adds the bytes. */
static cl_int read_home(cl_command_queue q, cl_mem fb, size_t frame, vrt_mem *m, size_t page,
                        size_t n, unsigned sh, unsigned long long *bytes)
{
	size_t at = page << sh, len = n << sh;
	if (at >= m->size)
		return CL_SUCCESS;
	if (len > m->size - at)
		len = m->size - at;
	*bytes += len;
	return vrt_real.clEnqueueReadBuffer(q, fb, CL_FALSE, frame << sh, len, m->host + at, 0,
	                                    NULL, NULL);
}

/* Before reading frames on the D2H queue q: kernels left in flight with
 * no D2H after them (defer_ranges) wrote them on another queue. */
static cl_int after_kernels(vrt_devsets *d, cl_command_queue q)
{
	cl_int err = CL_SUCCESS;
	for (unsigned i = 0; i < VRT_MAX_SETS && !err; i++) {
		vrt_devset *ds = &d->set[i];
		if (!ds->unread)
			continue;
		err = vrt_real.clEnqueueBarrierWithWaitList(q, 1, &ds->unread, NULL);
		vrt_real.clReleaseEvent(ds->unread);
		ds->unread = NULL;
	}
	return err;
}

/* Writes home (blocking) the pages of runs: the host holds them too
 * from then on (poolloc.c). */
static cl_int write_runs_home(vrt_devsets *d, cl_command_queue q, const vrt_res_run *runs,
                              size_t n)
{
	unsigned long long bytes = 0;
	cl_int err = after_kernels(d, q);
	for (size_t i = 0; i < n && !err; i++) {
		vrt_mem *m = vrt_mem_by_serial(runs[i].serial);
		int hold = runs[i].set == VRT_HOLD_SET;
		err = read_home(q, hold ? d->hold : d->set[runs[i].set].frames[runs[i].buf],
		                runs[i].frame, m, runs[i].page, runs[i].n,
		                hold ? d->hold_shift : d->res.page_shift, &bytes);
	}
	if (!err)
		err = vrt_real.clFinish(q);
	vrt_kstats *st = vrt_stats_for(NULL);
	if (st && !err)
		st->d2h += bytes;
	if (!err)
		vrt_pool_homed(d, runs, n);
	return err;
}

/* Writes home (blocking) the pages d holds newer than every other copy
 * (the directory says which: poolloc.c), of the family of `only` (NULL:
 * of every buffer), in `where`: its hold, its frame sets or both
 * (VRT_POOL_HOLD, VRT_POOL_FRAMES; VRT_POOL_MOVE: every page held that
 * the host lacks). Where they cannot go, their buffer
 * is refused, never read with stale pages (vrt_mem_check), and d's
 * copies of it dropped. */
static cl_int newer_home(vrt_devsets *d, cl_context ctx, cl_device_id dev, const vrt_mem *only,
                         int where)
{
	vrt_res_run *runs;
	size_t n = vrt_pool_newer_runs(d, only, where, NULL, NULL, &runs);
	if (!n)
		return CL_SUCCESS;
	if (n == (size_t)-1)
		return CL_OUT_OF_HOST_MEMORY;
	cl_int err;
	queues *qs = queues_for(ctx, dev, &err);
	if (qs)
		err = write_runs_home(d, qs->out, runs, n);
	vrt_log(VRT_LOG_DEBUG, "%zu runs of pages kept on the device of %s written home", n,
	        only ? "a buffer" : "every buffer");
	for (size_t i = 0; i < n && err; i++) {
		vrt_mem *m = vrt_mem_by_serial(runs[i].serial);
		if (!m || vrt_pool_find(d, m) < 0)
			continue;
		if (!m->failed[0]) {
			vrt_log(VRT_LOG_WARN, "writing pages kept on the device home failed: %s",
			        vrt_cl_error_name(err));
			vrt_mem_fail(m, "(pages kept on the device)");
		}
		vrt_pool_drop_loc(d, m);
	}
	vrt_free(runs);
	return err;
}

/* The sets' home (framepool.c): the pages d holds newer than every
 * other copy (move: every one the host lacks), hold and frames. */
static cl_int write_home(vrt_devsets *d, cl_context ctx, cl_device_id dev,
                         const vrt_mem *only, int move)
{
	return newer_home(d, ctx, dev, only,
	                  VRT_POOL_HOLD | VRT_POOL_FRAMES | (move ? VRT_POOL_MOVE : 0));
}

/* Read-only slot s of F's range is in place: the set's previous range
 * of this launch had the same pages in the same frames. */
static int in_place(const vrt_launch *L, const paged *P, const fset *F, unsigned s)
{
	const vrt_layout *lay = &P->lay;
	return F->used && !(L->slot_mode[s] & VAST_MODE_W) && F->prev_fr.first[s] == F->fr.first[s] &&
	       F->prev_fr.buf[s] == F->fr.buf[s] &&
	       !memcmp(F->u + lay->slot_off[s], F->prev_u + lay->slot_off[s], lay->slot_pages[s]);
}

/* Whether slot s (not a box) sends pages into F's frames: some to fill,
 * and not all in place from the set's previous range. */
static int sends_in(const vrt_launch *L, const paged *P, const fset *F, unsigned s)
{
	const vrt_layout *lay = &P->lay;
	return F->fr.count[s] && vrt_pas_count(F->fill + lay->slot_off[s], lay->slot_pages[s]) &&
	       !in_place(L, P, F, s);
}

/* What range i on set `set` (frame set F) overwrites: the frames its LPT
 * gives out, and, of the slots it writes, its pages (it writes them
 * back: a kept copy of one is stale from then on). */
typedef struct overwrite {
	const vrt_launch *L;
	const paged *P;
	const fset *F;
	unsigned set;
} overwrite;

static int in_frames(const overwrite *o, unsigned set, unsigned buf, size_t frame)
{
	const vrt_frames *fr = &o->F->fr;
	for (unsigned s = 1; s <= o->P->lay.nslots; s++)
		if (set == o->set && fr->count[s] && buf == fr->buf[s] && frame >= fr->first[s] &&
		    frame < fr->first[s] + fr->count[s])
			return 1;
	return 0;
}

static int overwritten(const vrt_resident *e, void *ctx)
{
	const overwrite *o = ctx;
	const vrt_layout *lay = &o->P->lay;
	if (in_frames(o, e->set, e->buf, e->frame))
		return 1;
	for (unsigned s = 1; s <= lay->nslots; s++)
		if ((o->L->slot_mode[s] & VAST_MODE_W) && e->serial == o->L->slot_mem[s]->serial &&
		    e->page < lay->slot_pages[s] && o->F->u[lay->slot_off[s] + e->page])
			return 1;
	return 0;
}

/* Page p of slot s, to go in from the host, lies in a kept frame (or
 * the hold) whose copy is current (`held`, the directory's answer: the
 * pool's location holds the page's bytes) and that this range does not
 * overwrite before reading it: that frame; NULL otherwise. *here: it is
 * the very frame p goes to. */
static const vrt_resident *kept_page(const vrt_launch *L, const paged *P, const overwrite *o,
                                     unsigned s, size_t p, int held, int *here,
                                     vrt_resident *hold_at)
{
	const vrt_mem *m = L->slot_mem[s];
	const fset *F = o->F;
	if (!held)
		return NULL;
	if (P->devs.hold && vrt_hold_has(&P->devs, m->serial, p)) {
		*here = F->fr.held == s; /* page p in frame p, as the hold has it */
		*hold_at = (vrt_resident){m->serial, p, VRT_HOLD_SET, 0, p};
		return hold_at;
	}
	const vrt_resident *e = vrt_res_find(&P->devs.res, m->serial, p);
	if (!e || e->set >= P->nsets || !P->set[e->set].frames[e->buf])
		return NULL;
	const uint32_t *tf = vrt_lpt_table(F->lpt, s);
	*here = e->set == o->set && e->buf == F->fr.buf[s] && e->frame == tf[p];
	return *here || !in_frames(o, e->set, e->buf, e->frame) ? e : NULL;
}

static cl_int add_copy(paged *P, const vrt_resident *e, unsigned dst_buf, size_t dst)
{
	struct res_copy *c = P->ncopies ? &P->copies[P->ncopies - 1] : NULL;
	if (c && c->set == e->set && c->buf == e->buf && c->dst_buf == dst_buf &&
	    c->src + c->n == e->frame && c->dst + c->n == dst) {
		c->n++;
		return CL_SUCCESS;
	}
	if (P->ncopies == P->copies_cap) {
		size_t cap = P->copies_cap ? 2 * P->copies_cap : 16;
		struct res_copy *n = vrt_realloc(P->copies, cap * sizeof *n);
		if (!n)
			return CL_OUT_OF_HOST_MEMORY;
		P->copies = n;
		P->copies_cap = cap;
	}
	P->copies[P->ncopies++] = (struct res_copy){e->set, e->buf, dst_buf, e->frame, dst, 1};
	return CL_SUCCESS;
}

/* Page e, newer in its kept frame than every other copy, must go home
 * before range o->F's frames go in: the range fills it from the host
 * copy (no kept frame served it), or forgets it (overwritten) without
 * writing it home itself, whole: the range writes back every page it
 * touches of a slot it writes, its fill taken from this very entry
 * (use_kept) or not needed (written whole). */
static int goes_home(const vrt_resident *e, void *ctx)
{
	const overwrite *o = ctx;
	const vrt_layout *lay = &o->P->lay;
	for (unsigned s = 1; s <= lay->nslots; s++) {
		if (o->L->slot_mem[s]->serial != e->serial || e->page >= lay->slot_pages[s])
			continue;
		size_t at = lay->slot_off[s] + e->page;
		if (o->F->fr.count[s] && o->F->fill[at])
			return 1;
		if ((o->L->slot_mode[s] & VAST_MODE_W) && o->F->u[at])
			return 0;
	}
	return overwritten(e, ctx);
}

/* Writes home (blocking) the pages goes_home names. They lie in frames
 * of the launch before, which no range of this one has refilled yet
 * (the range that does forgets them first, here). */
static cl_int write_lost_home(vrt_launch *L, paged *P, overwrite *o)
{
	vrt_res_run *runs;
	if (!P->devs.res.n)
		return CL_SUCCESS;
	size_t n = vrt_pool_newer_runs(&P->devs, NULL, VRT_POOL_FRAMES, goes_home, o, &runs);
	if (!n)
		return CL_SUCCESS;
	if (n == (size_t)-1)
		return CL_OUT_OF_HOST_MEMORY;
	unsigned long long d2h = L->st->d2h;
	cl_int err = write_runs_home(&P->devs, P->qs->out, runs, n);
	vrt_log(VRT_LOG_DEBUG, "kernel '%s': %zu runs of pages only kept frames held written home (%llu bytes)",
	        L->k->name, n, L->st->d2h - d2h);
	vrt_free(runs);
	return err;
}

/* The buffers a range's overwritten entries are of, and their pool
 * locations, a few remembered (the map's entries come in hash order);
 * the pages whose copies the pool forgets with the entries, to be
 * forgotten in runs: one directory update a page, in hash order, cuts
 * its runs up, each update then moving all of them. The pages of a
 * slot's buffer are marked in its place of a row (P->forgetrow), in
 * order without a sort; those of other buffers (an earlier launch's,
 * in the frames the range gives out) gathered in P->forgot and sorted. */
typedef struct forgetting {
	const overwrite *o;
	paged *P;
	struct {
		unsigned long long serial;
		vrt_mem *m;
		int l;
		unsigned slot;          /* the first of the launch's slots of m, 0: none */
	} seen[8];
	unsigned next;
	size_t n;                   /* pages gathered in P->forgot */
	unsigned char *row;         /* P->forgetrow, NULL: every page gathered */
	size_t lo[VAST_MAX_SLOTS + 1], hi[VAST_MAX_SLOTS + 1]; /* a slot's pages
	                             * marked in row lie in [lo, hi) (none: equal) */
	int l[VAST_MAX_SLOTS + 1];  /* the location a slot's marked pages are of */
	vrt_mem *oom;               /* a buffer whose copies could not be forgotten */
} forgetting;

/* P->forgetrow, all zeros (every use leaves it so); NULL out of memory. */
static unsigned char *forget_row(paged *P)
{
	size_t rb = P->lay.row_bytes;
	if (P->forgetrow_cap < rb) {
		unsigned char *r = vrt_realloc(P->forgetrow, rb);
		if (!r)
			return NULL;
		memset(r, 0, rb);
		P->forgetrow = r;
		P->forgetrow_cap = rb;
	}
	return P->forgetrow;
}

/* The first slot of L whose buffer is m and may keep pages, 0: none. */
static unsigned slot_of(const vrt_launch *L, const vrt_mem *m)
{
	for (unsigned s = 1; s <= L->nslots; s++)
		if (L->slot_mem[s] == m && may_reside(L, s))
			return s;
	return 0;
}

static int forget_overwritten(const vrt_resident *e, void *ctx)
{
	forgetting *f = ctx;
	if (!overwritten(e, (void *)f->o))
		return 0;
	paged *P = f->P;
	unsigned k = 0;
	while (k < 8 && f->seen[k].serial != e->serial)
		k++;
	if (k == 8) {
		k = f->next++ % 8;
		vrt_mem *m = vrt_mem_by_serial(e->serial);
		f->seen[k].serial = e->serial;
		f->seen[k].m = m;
		f->seen[k].l = m ? vrt_pool_find(&P->devs, m) : -1;
		f->seen[k].slot = m ? slot_of(f->o->L, m) : 0;
	}
	vrt_mem *m = f->seen[k].m;
	int l = f->seen[k].l;
	/* the hold's copy, should it have the page too, is the hold's */
	if (!m || l < 0 || vrt_hold_has(&P->devs, e->serial, e->page))
		return 1;
	unsigned s = f->seen[k].slot;
	if (s && f->row && e->page < P->lay.slot_pages[s]) {
		f->row[P->lay.slot_off[s] + e->page] = 1;
		if (f->lo[s] == f->hi[s]) {
			f->lo[s] = e->page;
			f->hi[s] = e->page + 1;
		} else if (e->page < f->lo[s]) {
			f->lo[s] = e->page;
		} else if (e->page >= f->hi[s]) {
			f->hi[s] = e->page + 1;
		}
		f->l[s] = l;
		return 1;
	}
	if (f->n == P->forgot_cap) {
		size_t cap = P->forgot_cap ? 2 * P->forgot_cap : 64;
		struct forgot *g = vrt_realloc(P->forgot, cap * sizeof *g);
		if (!g) { /* out of memory: forgotten one by one */
			if (vrt_pool_forget(m, l, e->page, 1, P->lay.page_shift))
				f->oom = m;
			return 1;
		}
		P->forgot = g;
		P->forgot_cap = cap;
	}
	P->forgot[f->n++] = (struct forgot){m, l, e->page};
	return 1;
}

static int by_buffer_page(const void *a, const void *b)
{
	const struct forgot *x = a, *y = b;
	if (x->m != y->m)
		return x->m < y->m ? -1 : 1;
	return x->page < y->page ? -1 : x->page > y->page;
}

/* The pool forgets the pages gathered and marked, in runs of
 * consecutive ones; the row is left all zeros. */
static void forget_gathered(paged *P, forgetting *f)
{
	const vrt_layout *lay = &P->lay;
	for (unsigned s = 1; f->row && s <= lay->nslots; s++) {
		unsigned char *r = f->row + lay->slot_off[s];
		vrt_mem *m = f->o->L->slot_mem[s];
		for (size_t p = f->lo[s], q; p < f->hi[s]; p = q) {
			for (q = p; q < f->hi[s] && r[q]; q++)
				;
			if (q > p) {
				if (vrt_pool_forget(m, f->l[s], p, q - p, lay->page_shift))
					f->oom = m;
				memset(r + p, 0, q - p);
			} else {
				q++;
			}
		}
	}
	struct forgot *g = P->forgot;
	if (!f->n)
		return;
	qsort(g, f->n, sizeof *g, by_buffer_page);
	for (size_t i = 0, j; i < f->n; i = j) {
		for (j = i + 1; j < f->n && g[j].m == g[i].m && g[j].page == g[j - 1].page + 1; j++)
			;
		if (vrt_pool_forget(g[i].m, g[i].l, g[i].page, j - i, P->lay.page_shift))
			f->oom = g[i].m;
	}
}

/* The hold's copies of the pages F's range writes are stale from now:
 * it writes them back itself, or, bound to the hold, records them anew
 * (record_held). -1: out of memory forgetting them. */
static int forget_written_held(const vrt_launch *L, paged *P, const fset *F)
{
	const vrt_layout *lay = &P->lay;
	for (unsigned s = 1; P->devs.held && s <= lay->nslots; s++) {
		if (!(L->slot_mode[s] & VAST_MODE_W) || L->slot_mem[s]->serial != P->devs.hold_serial)
			continue;
		const unsigned char *u = F->u + lay->slot_off[s];
		vrt_mem *m = L->slot_mem[s];
		int l = vrt_pool_find(&P->devs, m);
		size_t end = lay->slot_pages[s] < P->devs.hold_pages ? lay->slot_pages[s]
		                                                      : P->devs.hold_pages;
		for (size_t p = 0; p < end;) {
			size_t q = p;
			while (q < end && u[q] && vrt_hold_has(&P->devs, m->serial, q))
				vrt_hold_forget(&P->devs, q++);
			if (q > p && l >= 0 && vrt_pool_forget(m, l, p, q - p, lay->page_shift))
				return -1;
			p = q + 1;
		}
	}
	return 0;
}

/* The pages [*first, *last] of slot s from the first to the last that
 * `row` (a range's row) marks, in P->poolrow (at the slot's place in a
 * row) as the pool's location holds them (vrt_pool_pages): one walk of
 * the directory for the slot, not a query a page. 1; 0: none marked;
 * -1: out of memory. */
static int pool_pages(const vrt_launch *L, paged *P, const unsigned char *row, unsigned s,
                      size_t *first, size_t *last)
{
	const vrt_layout *lay = &P->lay;
	const unsigned char *r = row + lay->slot_off[s];
	size_t a = 0, b = lay->slot_pages[s];
	while (a < b && !r[a])
		a++;
	while (b > a && !r[b - 1])
		b--;
	if (a == b)
		return 0;
	if (!scratch_row(&P->poolrow, &P->poolrow_cap, lay->row_bytes))
		return -1;
	vrt_pool_pages(L->slot_mem[s], P->loc[s], a, b - a, lay->page_shift,
	               P->poolrow + lay->slot_off[s] + a);
	*first = a;
	*last = b - 1;
	return 1;
}

/* Takes from the kept frames the pages of F's range (range i) that
 * would go in from the host (F->fill) where kept_page finds them: one
 * already in its frame stays there, the others are copied device-side
 * after the range's H2D (copy_kept). A staged slot goes in as one write
 * of all its frames (move_frames), over any page left in place: there
 * pages stay in place only when no page of the slot is left to send.
 * Then forgets what the range overwrites. */
static cl_int use_kept(vrt_launch *L, paged *P, size_t i, fset *F)
{
	const vrt_layout *lay = &P->lay;
	overwrite o = {L, P, F, (unsigned)(F - P->set)};
	P->ncopies = 0;
	if (!P->devs.res.n && !P->devs.held)
		return CL_SUCCESS;
	for (unsigned s = 1; s <= lay->nslots; s++) {
		size_t a, b;
		int some;
		if (!F->fr.count[s] || !may_reside(L, s) || P->loc[s] < 0 || in_place(L, P, F, s) ||
		    !(some = pool_pages(L, P, F->fill, s, &a, &b)))
			continue;
		/* Out of memory: not sent from the host instead, as the hold's
		 * copy may be the only current one (write_lost_home writes
		 * home the frames' alone). */
		if (some < 0)
			return CL_OUT_OF_HOST_MEMORY;
		unsigned char *fill = F->fill + lay->slot_off[s];
		const unsigned char *pool = P->poolrow + lay->slot_off[s];
		const uint32_t *tf = vrt_lpt_table(F->lpt, s);
		size_t want = 0, kept = 0;
		int here;
		vrt_resident at;
		for (size_t p = a; p <= b; p++)
			if (fill[p]) {
				want++;
				kept += kept_page(L, P, &o, s, p, pool[p] & VRT_DIR_PAGE_HELD, &here,
				                  &at) != NULL;
			}
		int stay = P->direct[s] || F->fr.held == s || kept == want;
		for (size_t p = a; p <= b && kept; p++) {
			const vrt_resident *e =
				fill[p] ? kept_page(L, P, &o, s, p, pool[p] & VRT_DIR_PAGE_HELD, &here, &at)
				        : NULL;
			if (!e || (here && !stay))
				continue;
			cl_int err = here ? CL_SUCCESS : add_copy(P, e, F->fr.buf[s], tf[p]);
			if (err)
				return err;
			if (fill[p] == 1) /* a page by its gaps saved few */
				L->st->h2d_saved += page_bytes(lay, L->slot_mem[s]->size, p);
			fill[p] = 0;
		}
	}
	vrt_log(VRT_LOG_DEBUG, "range %zu: %zu runs of pages copied from kept frames", i, P->ncopies);
	double th = vrt_now_ms();
	cl_int err = write_lost_home(L, P, &o);
	vrt_trace_host("home", L->k->name, th, vrt_now_ms(), (long)i, 0);
	if (err)
		return err;
	forgetting f = {.o = &o, .P = P, .row = forget_row(P)};
	vrt_res_drop_if(&P->devs.res, forget_overwritten, &f);
	forget_gathered(P, &f);
	if (f.oom || forget_written_held(L, P, F)) {
		/* The pool's copies could not all be forgotten: they go whole,
		 * and the buffer with them (never read stale). */
		vrt_mem *m = f.oom ? f.oom : vrt_mem_by_serial(P->devs.hold_serial);
		if (m) {
			vrt_mem_fail(m, L->k->name);
			vrt_pool_drop_loc(&P->devs, m);
		}
		return CL_OUT_OF_HOST_MEMORY;
	}
	return CL_SUCCESS;
}

/* The current copy of a page lies in the hold. A range bound to the
 * hold records its pages there as it goes (record_held), and a range
 * that writes one of them forgets the hold's entry first (use_kept): so
 * the hold's current copy is the latest; frames that hold the page too
 * (the range before in the same launch) must not take its place. */
static int in_hold_now(const paged *P, const vrt_mem *m, int l, size_t p)
{
	return vrt_hold_has(&P->devs, m->serial, p) && vrt_pool_holds(m, l, p, P->lay.page_shift);
}

/* Another slot of L names s's buffer and writes it: what s's frames
 * read is not what the launch leaves. */
static int written_by_another(const vrt_launch *L, unsigned s)
{
	for (unsigned t = 1; t <= L->nslots; t++)
		if (t != s && L->slot_mem[t] == L->slot_mem[s] && (L->slot_mode[t] & VAST_MODE_W))
			return 1;
	return 0;
}

/* Pages of one buffer recorded one by one into the pool's index, given
 * one directory transition a run of consecutive ones (poolloc.c). */
typedef struct pages_run {
	vrt_mem *m;
	int l, wrote;               /* wrote: newer than any other copy */
	size_t p, n;
} pages_run;

static int run_flush(pages_run *r, unsigned sh)
{
	int err = 0;
	if (r->n)
		err = r->wrote ? vrt_pool_wrote(r->m, r->l, r->p, r->n, sh)
		               : vrt_pool_copied(r->m, r->l, r->p, r->n, sh);
	r->n = 0;
	return err;
}

static int run_add(pages_run *r, vrt_mem *m, int l, size_t p, int wrote, unsigned sh)
{
	if (r->n && r->m == m && r->l == l && r->wrote == wrote && r->p + r->n == p) {
		r->n++;
		return 0;
	}
	int err = run_flush(r, sh);
	*r = (pages_run){m, l, wrote, p, 1};
	return err;
}

/* The pages of F's read-only slots lie in its frames once its H2D and
 * device copies are done: recorded, current (the pool's location holds
 * them: copied), so that the next ranges (on other sets) copy the pages
 * they share with it, a stencil's halo planes or a vector every row
 * reads, device-side instead of sending them again (use_kept). Those
 * copies go on the in-order kernel queue after this range's kernel,
 * which waits for its H2D; the frames are refilled only after them
 * (copy_kept's reader). A page whose recorded copy is newer than the
 * host's keeps its entry: the only place its bytes are indexed. Out of
 * memory, a page is simply not recorded. */
static void share_reads(const vrt_launch *L, paged *P, const fset *F)
{
	const vrt_layout *lay = &P->lay;
	vrt_residency *r = &P->devs.res;
	unsigned sh = lay->page_shift;
	pages_run run = {NULL, -1, 0, 0, 0};
	for (unsigned s = 1; s <= lay->nslots; s++) {
		if (!F->fr.count[s] || F->box[s].rows || (L->slot_mode[s] & VAST_MODE_W) ||
		    !may_reside(L, s) || F->fr.held == s || !(P->shared >> s & 1) ||
		    written_by_another(L, s))
			continue;
		vrt_mem *m = L->slot_mem[s];
		int l = P->loc[s];
		const unsigned char *u = F->u + lay->slot_off[s];
		const uint32_t *tf = vrt_lpt_table(F->lpt, s);
		size_t a, b;
		/* The directory as it is now for the slot's pages, another
		 * slot's of the same buffer recorded first; recording the
		 * slot's pages changes no other page of it. */
		int some = run_flush(&run, sh) ? -1 : pool_pages(L, P, F->u, s, &a, &b);
		if (some < 0)
			return;
		const unsigned char *pool = P->poolrow + lay->slot_off[s];
		for (size_t p = a; some && p <= b; p++) {
			/* the hold's copy is the current one (in_hold_now) */
			if (!u[p] || (vrt_hold_has(&P->devs, m->serial, p) &&
			              (pool[p] & VRT_DIR_PAGE_HELD)))
				continue;
			const vrt_resident *old = vrt_res_find(r, m->serial, p);
			if (old && (pool[p] & VRT_DIR_PAGE_SOLE))
				continue;
			if (m->serial == P->devs.hold_serial)
				vrt_hold_forget(&P->devs, p); /* stale there */
			vrt_resident e = {m->serial, p, (unsigned)(F - P->set), F->fr.buf[s], tf[p]};
			if (vrt_res_put(r, &e) || run_add(&run, m, l, p, 0, sh))
				return;
		}
	}
	run_flush(&run, sh);
}

/* Enqueues use_kept's copies on the kernel queue, after F's H2D (the
 * in-order queue keeps them before its kernel and forwarding copies).
 * The frames they read are refilled only after them: the next range on
 * the source set waits for its reader (start_range). */
static cl_int copy_kept(paged *P, fset *F)
{
	unsigned sh = P->lay.page_shift;
	cl_event after = last_of(F->in);
	for (size_t c = 0; c < P->ncopies; c++) {
		const struct res_copy *k = &P->copies[c];
		int hold = k->set == VRT_HOLD_SET;
		fset *G = hold ? NULL : &P->set[k->set];
		cl_event e;
		cl_int err = vrt_real.clEnqueueCopyBuffer(P->qs->run, hold ? P->devs.hold : G->frames[k->buf],
		                                          F->frames[k->dst_buf], k->src << sh,
		                                          k->dst << sh, k->n << sh, after != NULL,
		                                          after ? &after : NULL, &e);
		if (err)
			return err;
		/* The hold is refilled only after the kernels before it
		 * (hold_in), which follow this copy. */
		if (hold) {
			vrt_real.clReleaseEvent(e);
			continue;
		}
		if (G->reader)
			vrt_real.clReleaseEvent(G->reader);
		G->reader = e;
	}
	return CL_SUCCESS;
}

/* Out of memory recording them: the lazy pages of the last ranges go
 * home now, later ranges over earlier ones (one in-order queue), and so
 * do the pages newer than the host recorded before; then the frames
 * keep nothing. */
static void remember_nothing(vrt_launch *L, paged *P, size_t k0)
{
	const vrt_layout *lay = &P->lay;
	unsigned long long bytes = 0;
	cl_int err = after_kernels(&P->devs, P->qs->out);
	for (size_t k = k0; k < P->nranges; k++) {
		const fset *F = &P->set[k % P->nsets];
		for (unsigned s = 1; s <= lay->nslots; s++) {
			if (!F->fr.count[s] || !(F->lazy && lazy_slot(L, s)) || F->fr.held == s)
				continue;
			const unsigned char *u = F->u + lay->slot_off[s];
			const uint32_t *tf = vrt_lpt_table(F->lpt, s);
			for (size_t p = 0; p < lay->slot_pages[s] && !err; p++)
				if (u[p])
					err = read_home(P->qs->out, F->frames[F->fr.buf[s]], tf[p],
					                L->slot_mem[s], p, 1, lay->page_shift, &bytes);
		}
	}
	if (!err)
		err = vrt_real.clFinish(P->qs->out);
	L->st->d2h += bytes;
	/* Home, the host copy holds their newest bytes. */
	for (size_t k = k0; k < P->nranges && !err; k++) {
		const fset *F = &P->set[k % P->nsets];
		for (unsigned s = 1; s <= lay->nslots; s++) {
			if (!F->fr.count[s] || !(F->lazy && lazy_slot(L, s)) || F->fr.held == s)
				continue;
			const unsigned char *u = F->u + lay->slot_off[s];
			for (size_t p = 0; p < lay->slot_pages[s]; p++)
				if (u[p] && vrt_pool_wrote(L->slot_mem[s], VRT_DIR_HOST, p, 1,
				                           lay->page_shift))
					vrt_mem_fail(L->slot_mem[s], L->k->name);
		}
	}
	for (unsigned s = 1; err && s <= lay->nslots; s++)
		if (lazy_slot(L, s))
			vrt_mem_fail(L->slot_mem[s], L->k->name);
	write_home(&P->devs, L->ctx, L->dev, NULL, 0);
	vrt_pool_forget_frames(&P->devs);
	vrt_res_clear(&P->devs.res);
}

/* After a launch that went well, the frames of the last range on each
 * set hold copies of its pages: current ones, sent or written back
 * (copied: the pool's location holds them beside the host), and newer
 * ones, what it wrote of a lazy slot (wrote: the location alone holds
 * them, until they go home). Recorded for the next launch, later
 * ranges over earlier ones (the last nsets ranges are the last on their
 * sets; a page two of them hold is the later one's). A copy of a page
 * the location held newer than the host (a range took it from a kept
 * frame, use_kept) is as new: copied keeps the host out. `written`: the
 * slots the launch writes, after it went well; else those it only
 * reads, as soon as its last range started (run_ranges): recorded while
 * the last ranges' transfers run rather than after them (3-4 ms of
 * reduction's 91 ms on the H100, 16 K pages of its input). Should a
 * range fail after that, the frames and their records go (drop_sets).
 * Out of memory there, the rest are simply not recorded (what the
 * launch wrote goes home: remember_nothing). */
static void remember(vrt_launch *L, paged *P, int written)
{
	const vrt_layout *lay = &P->lay;
	vrt_residency *r = &P->devs.res;
	unsigned sh = lay->page_shift;
	pages_run run = {NULL, -1, 0, 0, 0};
	size_t k0 = P->nranges > P->nsets ? P->nranges - P->nsets : 0;
	for (size_t k = k0; k < P->nranges; k++) {
		const fset *F = &P->set[k % P->nsets];
		for (unsigned s = 1; s <= lay->nslots; s++) {
			/* the hold's pages were recorded as they went there */
			if (!F->fr.count[s] || !may_reside(L, s) || F->fr.held == s ||
			    !(L->slot_mode[s] & VAST_MODE_W) != !written ||
			    (!written && written_by_another(L, s)))
				continue;
			vrt_mem *m = L->slot_mem[s];
			int l = P->loc[s], newer = F->lazy && lazy_slot(L, s);
			const unsigned char *u = F->u + lay->slot_off[s];
			const uint32_t *tf = vrt_lpt_table(F->lpt, s);
			for (size_t p = 0; p < lay->slot_pages[s]; p++) {
				if (!u[p] || in_hold_now(P, m, l, p))
					continue;
				if (m->serial == P->devs.hold_serial)
					vrt_hold_forget(&P->devs, p); /* stale there */
				vrt_resident e = {m->serial, p, (unsigned)(k % P->nsets), F->fr.buf[s],
				                  tf[p]};
				if (vrt_res_put(r, &e) || run_add(&run, m, l, p, newer, sh))
					goto oom;
			}
		}
	}
	if (!run_flush(&run, sh))
		return;
oom:
	if (written)
		remember_nothing(L, P, k0);
}

/* Sends F's LPT and a cleared fault word, unless the device holds them
 * already: the plan's tables are there, every range's (tables_on_device),
 * or the set's last range (of this launch or of an earlier one, its
 * buffers kept: framepool.c) had the same LPT; and the fault word was
 * read back as 0 (the kernels write it only on a fault, which fails the
 * launch and releases the buffers). A launch whose plan is cached sends
 * neither: one command less on the way to its kernel, each range. */
static cl_int send_lpt_and_fault(paged *P, fset *F)
{
	static const cl_uint clear = VAST_FAULT_CLEAR;
	vrt_devset *ds = &P->devs.set[F - P->set];
	size_t lb = vrt_lpt_bytes(&P->lay);
	cl_event e;
	cl_int err;
	if (!P->lpt_dev &&
	    (!ds->lpt_held || ds->lpt_held_bytes != lb || memcmp(ds->lpt_held, F->lpt, lb))) {
		if ((err = after_busy(P, F)) ||
		    (err = vrt_real.clEnqueueWriteBuffer(P->qs->in, F->lptbuf, CL_FALSE, 0, lb, F->lpt,
		                                         0, NULL, &e)))
			return err;
		keep(F->in, e);
		F->in_bytes += lb;
		/* Out of memory: unknown, sent again next time. */
		if (ds->lpt_held_bytes != lb) {
			vrt_free(ds->lpt_held);
			ds->lpt_held = vrt_malloc(lb);
			ds->lpt_held_bytes = lb;
		}
		if (ds->lpt_held)
			memcpy(ds->lpt_held, F->lpt, lb);
	}
	if (ds->fault_clear)
		return CL_SUCCESS;
	if ((err = after_busy(P, F)) ||
	    (err = vrt_real.clEnqueueWriteBuffer(P->qs->in, F->fault, CL_FALSE, 0, sizeof clear,
	                                         &clear, 0, NULL, &e)))
		return err;
	keep(F->in, e);
	return CL_SUCCESS;
}

/* The straight kernel on groups [g0, g1) of the launch: each buffer
 * parameter's run from its arguments (the frame buffer of its slot's run
 * and the delta to it), then one N-D launch per box of groups
 * (groupbox.c) with the original local size and a global offset, so the
 * kernel's work-item ids are the device's own. The first waits for `in`;
 * the rest follow it on the in-order queue. */
static cl_int launch_straight(vrt_launch *L, paged *P, cl_kernel ks, fset *F, size_t g0,
                              size_t g1, cl_event in, int second)
{
	unsigned sh = P->lay.page_shift;
	size_t nbuf = 0;
	cl_int err;
	for (cl_uint i = 0; i < L->k->nargs; i++) {
		unsigned kind = L->k->info->params[i].kind;
		if (kind != VAST_PARAM_GLOBAL && kind != VAST_PARAM_CONSTANT)
			continue;
		unsigned s = L->arg_slot[i];
		int run = s && F->fr.count[s];
		cl_mem fb = run ? F->frames[F->fr.buf[s]] : NULL;
		cl_ulong delta = run ? ((cl_ulong)s << VAST_VA_SHIFT) +
		                               (cl_ulong)F->fr.lo[s] -
		                               ((cl_ulong)F->fr.first[s] << sh)
		                     : 0;
		vrt_tailargs t = { .sbuf = &fb, .sdelta = &delta, .each_first = nbuf++, .neach = 1 };
		if ((err = vrt_tailargs_set(ks, L->k->nargs, VAST_HAS_STRAIGHT, &t)))
			return err;
	}
	size_t ngrp[3], goff[3], gsize[3];
	for (unsigned d = 0; d < 3; d++)
		ngrp[d] = L->gsize[d] / L->lsize[d];
	vrt_gbox box[5];
	unsigned nb = vrt_group_boxes(g0, g1, ngrp, box);
	if (nb > 1)
		vrt_log(VRT_LOG_DEBUG, "kernel '%s': straight on groups %zu..%zu as %u boxes",
		        L->k->name, g0, g1 - 1, nb);
	for (unsigned b = 0; b < nb; b++) {
		cl_ulong4 origin = { { box[b].origin[0], box[b].origin[1], box[b].origin[2], 0 } };
		for (unsigned d = 0; d < 3; d++) {
			goff[d] = L->goff[d] + box[b].origin[d] * L->lsize[d];
			gsize[d] = box[b].count[d] * L->lsize[d];
		}
		int first = b == 0, last = b + 1 == nb;
		cl_event *ev = last ? &F->run : first && !second ? &F->run0 : NULL;
		vrt_tailargs t = { .origin = &origin };
		if ((err = vrt_tailargs_set(ks, L->k->nargs, VAST_HAS_STRAIGHT, &t)) ||
		    (err = vrt_real.clEnqueueNDRangeKernel(P->qs->run, ks, L->dim, goff, gsize,
		                                           L->lsize, first && in,
		                                           first && in ? &in : NULL, ev)))
			return err;
	}
	return CL_SUCCESS;
}

/* Before a range's H2D into the hold: the kernels before it, and the
 * device copies out of the hold that precede them on the in-order
 * kernel queue, are done. A page goes in from the host only when the
 * hold's copy is not current, and an earlier range may still read that
 * copy (one in between wrote the page in frames of its own and dropped
 * the hold's entry). Rare once the hold is filled: its pages stay. */
static cl_int hold_in(paged *P)
{
	if (!P->last_run)
		return CL_SUCCESS;
	return vrt_real.clEnqueueBarrierWithWaitList(P->qs->in, 1, &P->last_run, NULL);
}

/* F's range bound the hold's slot to the hold: its pages there are the
 * current ones once its kernel ran, recorded now (later ranges and
 * launches take them from there: use_kept), and a kept frame's entry
 * of one is dropped (the hold's is the index now). Newer than any other
 * copy where the kernel writes the slot (wrote), else as new as the copy
 * they came from (copied): they go home when the host needs them, as
 * kept frames' do (write_home). Out of memory recording them, the
 * buffer is refused and the pool's copies of it go. */
static cl_int record_held(vrt_launch *L, paged *P, const fset *F, size_t i)
{
	unsigned s = F->fr.held;
	if (!s)
		return CL_SUCCESS;
	vrt_residency *r = &P->devs.res;
	vrt_mem *m = L->slot_mem[s];
	const unsigned char *u = F->u + P->lay.slot_off[s];
	int writes = (L->slot_mode[s] & VAST_MODE_W) != 0;
	unsigned sh = P->lay.page_shift;
	pages_run run = {NULL, -1, 0, 0, 0};
	int err = 0;
	vrt_log(VRT_LOG_DEBUG, "range %zu: slot %u in the hold (%llu bytes in)", i, s,
	        F->in_bytes);
	for (size_t p = 0; p < P->lay.slot_pages[s] && p < P->devs.hold_pages && !err; p++) {
		if (!u[p])
			continue;
		if (r->n)
			vrt_res_forget(r, m->serial, p);
		vrt_hold_put(&P->devs, p);
		err = run_add(&run, m, P->loc[s], p, writes, sh);
	}
	if (!err)
		err = run_flush(&run, sh);
	if (!err)
		return CL_SUCCESS;
	vrt_mem_fail(m, L->k->name);
	vrt_pool_drop_loc(&P->devs, m);
	return CL_OUT_OF_HOST_MEMORY;
}

/* F's range writes home, as it finishes, the pages it touches of the
 * slots that go home at once (goes_home_now): the host copy holds their
 * newest bytes, and every other copy of them (a frame pool's) is stale.
 * Recorded as the range is enqueued, in the order the ranges run, as
 * the hold's pages are (record_held), so that the directory ends with
 * what the last range to touch a page left. Not for a share of a split
 * launch (its private views have no directory), nor for a buffer no
 * other location is registered for (nothing to make stale). Out of
 * memory, the buffer is refused. */
static cl_int record_home(vrt_launch *L, paged *P, const fset *F)
{
	const vrt_layout *lay = &P->lay;
	for (unsigned s = 1; !L->share && s <= lay->nslots; s++) {
		vrt_mem *m = L->slot_mem[s];
		if (!m->dir || !(m->dir->used & ~VRT_LOC(VRT_DIR_HOST)) ||
		    !goes_home_now(L, P, F, s))
			continue;
		const unsigned char *u = F->u + lay->slot_off[s], *end = u + lay->slot_pages[s];
		for (const unsigned char *a = u; a < end;) {
			while (a < end && !*a)
				a++;
			const unsigned char *b = a;
			while (b < end && *b)
				b++;
			if (b > a && vrt_pool_wrote(m, VRT_DIR_HOST, (size_t)(a - u), (size_t)(b - a),
			                            lay->page_shift)) {
				vrt_mem_fail(m, L->k->name);
				return CL_OUT_OF_HOST_MEMORY;
			}
			a = b;
		}
	}
	return CL_SUCCESS;
}

/* Whether a whole write is pending for some slot of L (pending.c): only
 * then is the next range's box worked out ahead of it. */
static int any_pending(const vrt_launch *L)
{
	for (unsigned s = 1; s <= L->nslots; s++)
		if (vrt_pend_has(L->slot_mem[s]))
			return 1;
	return 0;
}

/* Enqueues range F's kernel of launch Lk on the kernel queue, groups
 * [g0, g1): the straight variant ks where the range allows, else the paged
 * kp; *kr the one enqueued. `second`: the second kernel of a fused launch,
 * after the first on the same in-order queue, with the same frames, LPT
 * and fault word (F->run0 keeps the first's first kernel, F->run becomes
 * its own last). */
static cl_int enqueue_kernel(vrt_launch *Lk, paged *P, fset *F, cl_kernel kp, cl_kernel ks,
                             size_t g0, size_t g1, int second, cl_kernel *kr_out)
{
	const vrt_layout *lay = &P->lay;
	queues *qs = P->qs;
	cl_int err;
	cl_ulong first = Lk->group_base + g0;
	cl_uint n = Lk->k->nargs;
	/* Every slot's pages one run: the straight variant translates each
	 * access with one add and no check. The plan (the inspector's PAS or
	 * the descriptors' boxes) holds every address the range's work-items
	 * reach, so the check could never fail (vrt_straight_may_run says where
	 * that is not known). */
	cl_kernel kr = ks && F->fr.straight ? ks : kp;
	*kr_out = kr;
	/* Arguments are captured at enqueue (OpenCL 1.2 §5.7.2), so one
	 * kernel object serves every range. Buffer 0 takes the accesses of
	 * a fault (the dummy page where the set has none); a buffer no slot
	 * of the range uses is NULL (OpenCL 1.2 §5.7.2: a NULL global
	 * pointer): NVIDIA's enqueue costs more with each buffer bound. */
	unsigned used = 1;
	for (unsigned s = 1; s <= lay->nslots; s++)
		if (F->fr.count[s])
			used |= 1u << F->fr.buf[s];
	cl_mem frames[VAST_FRAME_BUFS];
	for (unsigned b = 0; b < VAST_FRAME_BUFS; b++)
		frames[b] = !(used >> b & 1) ? NULL : F->frames[b] ? F->frames[b] : P->dummy;
	vrt_tailargs t = { .frames = frames, .lpt = &F->lptarg, .fault = &F->fault,
	                   .first_group = &first };
	if ((err = vrt_tailargs_set(kr, n, kr == ks ? VAST_HAS_STRAIGHT : VAST_HAS_PAGED, &t)))
		return err;
	/* Nothing went in (every page kept, the same LPT): the kernel waits
	 * only for the copies before it on its own queue. */
	cl_event in = second ? NULL : last_of(F->in);
	if (second) {
		if (!F->run0)
			F->run0 = F->run;
		else
			vrt_real.clReleaseEvent(F->run);
		F->run = NULL;
	}
	if (kr == ks) {
		err = launch_straight(Lk, P, ks, F, first, first + (g1 - g0), in, second);
	} else {
		size_t lwg = Lk->lsize[0] * Lk->lsize[1] * Lk->lsize[2];
		size_t global = (g1 - g0) * lwg;
		err = vrt_real.clEnqueueNDRangeKernel(qs->run, kr, 1, NULL, &global, &lwg,
		                                      in != NULL, in ? &in : NULL, &F->run);
	}
	if (err != CL_SUCCESS) {
		vrt_log(VRT_LOG_WARN, "kernel '%s': launching its paged variant failed: %s",
		        Lk->k->name, vrt_cl_error_name(err));
		return err;
	}
	return CL_SUCCESS;
}

/* What range i's executor did, for the planner's check and dump
 * (planrec.c), in P->recrows: the pages it writes whole, with nothing
 * read first (pages_to_fill left them out of F->fill), ... */
static void record_whole(paged *P, const fset *F)
{
	size_t rb = P->lay.row_bytes;
	if (!P->rec)
		return;
	if (!scratch_row(&P->recrows, &P->recrows_cap, 3 * rb)) {
		vrt_planrec_end(P->rec, 0); /* out of memory: no check */
		P->rec = NULL;
		return;
	}
	memset(P->recrows, 0, 3 * rb);
	for (size_t k = 0; k < rb; k++)
		P->recrows[k] = F->u[k] && !F->fill[k];
}

/* ... the pages it sends from the host (use_kept took the kept ones out
 * of F->fill; `sending`, the slots that send), ... */
static void record_sent(paged *P, const fset *F, uint64_t sending)
{
	if (!P->rec)
		return; /* nor recrows: no row past it */
	const vrt_layout *lay = &P->lay;
	unsigned char *sent = P->recrows + lay->row_bytes;
	for (unsigned s = 1; s <= lay->nslots; s++)
		for (size_t p = 0; (sending >> s & 1) && p < lay->slot_pages[s]; p++)
			sent[lay->slot_off[s] + p] = F->fill[lay->slot_off[s] + p] != 0;
}

/* ... and where its written pages go (VRT_OUT_*, as goes_home_now). */
static void record_range(const vrt_launch *L, paged *P, const fset *F, size_t i)
{
	const vrt_layout *lay = &P->lay;
	size_t rb = lay->row_bytes;
	if (!P->rec)
		return;
	unsigned char *out = P->recrows + 2 * rb;
	for (unsigned s = 1; s <= lay->nslots; s++) {
		if (!(L->slot_mode[s] & VAST_MODE_W) || !F->fr.count[s] || lay->res_buf[s] ||
		    F->box[s].rows)
			continue;
		unsigned kind = F->fr.held == s ? VRT_OUT_HELD
		                : goes_home_now(L, P, F, s) ? VRT_OUT_HOME : VRT_OUT_DIRTY;
		for (size_t p = 0; p < lay->slot_pages[s]; p++)
			out[lay->slot_off[s] + p] = F->u[lay->slot_off[s] + p] ? kind : VRT_OUT_NONE;
	}
	vrt_planrec_range rr = {F->u, P->recrows, P->recrows + rb, out, F->in_bytes,
	                        F->out_bytes};
	vrt_planrec_put(P->rec, i, &rr);
}

/* Plans range i on its frame set (free: its previous range finished),
 * gathers and enqueues its H2D, kernel (a fused launch's two) and D2H. */
static cl_int start_range(vrt_launch *L, paged *P, size_t i)
{
	const vrt_range *R = range_at(P, i);
	vrt_layout *lay = &P->lay;
	size_t rb = lay->row_bytes;
	fset *F = &P->set[i % P->nsets];
	queues *qs = P->qs;
	cl_int err;

	double t0 = vrt_trace_now();
	memcpy(F->u, P->unions + (size_t)(R - P->ranges) * rb, rb);
	if (range_boxes(P, R, F->box))
		return CL_OUT_OF_RESOURCES;
	const unsigned char *pages = pages_of(P, F->u, F->box);
	if (!pages)
		return CL_OUT_OF_HOST_MEMORY;
	vrt_deliver_start(L, lay, P->deliver, i, pages);
	/* A whole write left pending for this launch: its pages of the
	 * range reach the host copy before anything reads them (pending.c). */
	vrt_pend_fill_row(L, lay, pages);
	/* The next range's pages of them start their copy now, on a thread,
	 * while this one is planned, sent and launched and the next one's
	 * plan goes on (pending.c): begun after this range's enqueue, the
	 * copies idled for its host work. */
	if (i + 1 < P->nranges && any_pending(L)) {
		const vrt_range *N = range_at(P, i + 1);
		vrt_box2d nbx[VAST_MAX_SLOTS + 1];
		if (range_boxes(P, N, nbx) ||
		    !(pages = pages_of(P, P->unions + (size_t)(N - P->ranges) * rb, nbx)))
			return CL_OUT_OF_RESOURCES;
		vrt_pend_prefetch(L, lay, pages);
	}
	/* The plan's table of the range (plan_tables), else built here:
	 * place_frames laid out every range, this one fits. */
	size_t r = (size_t)(R - P->ranges);
	F->plan_r = r;
	if (P->lpts) {
		F->lpt = P->lpts + r * P->lpt_words;
		F->fr = P->lpt_frames[r];
	} else {
		if (vrt_lpt_build(lay, F->u, F->box, P->per_buf, F->lpt_own, &F->fr))
			return CL_OUT_OF_RESOURCES;
		F->lpt = F->lpt_own;
	}
	F->lptarg = P->lpt_dev ? P->lpt_dev[r] : F->lptbuf;
	if ((err = stage_layout(L, P, F)) != CL_SUCCESS)
		return err;
	double t1 = vrt_trace_now();
	vrt_trace_host("plan", L->k->name, t0, t1, (long)i, 0);

	/* Forwarding copies may still read these frames. */
	if (F->reader) {
		err = vrt_real.clEnqueueBarrierWithWaitList(qs->in, 1, &F->reader, NULL);
		vrt_real.clReleaseEvent(F->reader);
		F->reader = NULL;
		if (err)
			return err;
	}
	size_t g0 = R->first_row * P->wpp;
	size_t g1 = (R->last_row + 1) * P->wpp;
	if (g1 > L->groups)
		g1 = L->groups;
	if ((err = pages_to_fill(L, P, F, r, g0, g1)) != CL_SUCCESS)
		return err;
	record_whole(P, F);
	double tk = vrt_trace_now();
	err = use_kept(L, P, i, F);
	vrt_trace_host("kept", L->k->name, tk, vrt_trace_now(), (long)i, 0);
	if (err != CL_SUCCESS)
		return err;
	/* Frames in: every touched page of every slot, except read-only
	 * slots already in place from the set's previous range and pages
	 * the range writes whole. */
	F->in_bytes = F->out_bytes = 0;
	double tm = vrt_trace_now();
	/* Slots through the ring last, with the others' straight transfers
	 * held back to go between its chunks (hold_piece). */
	uint64_t sending = 0, ringed = 0;
	for (unsigned s = 1; s <= lay->nslots; s++)
		if (!F->box[s].rows && sends_in(L, P, F, s)) {
			sending |= (uint64_t)1 << s;
			ringed |= (uint64_t)in_by_ring(L, P, F, s) << s;
		}
	record_sent(P, F, sending);
	P->hold_back = ringed != 0;
	P->nheld = P->held_next = P->held_sent = 0;
	P->held_bytes = 0;
	for (int pass = 0; pass <= P->hold_back; pass++)
	for (unsigned s = 1; s <= lay->nslots; s++) {
		if (P->hold_back && (int)(ringed >> s & 1) != pass)
			continue;
		if (F->box[s].rows) {
			if ((err = move_box(L, P, i, F, s, 0)) != CL_SUCCESS)
				return err;
			continue;
		}
		if (!(sending >> s & 1))
			continue;
		if ((F->fr.held == s && (err = hold_in(P)) != CL_SUCCESS) ||
		    (err = move_frames(L, P, F, s, 0)) != CL_SUCCESS)
			return err;
	}
	P->hold_back = 0;
	if ((err = send_held(P, qs->in, F->in, SIZE_MAX)) != CL_SUCCESS)
		return err;
	if (P->held_bytes)
		vrt_log(VRT_LOG_DEBUG, "kernel '%s' range %zu: %llu bytes from pinned memory sent between the ring's chunks",
		        L->k->name, i, P->held_bytes);
	vrt_trace_host("move", L->k->name, tm, vrt_trace_now(), (long)i, F->in_bytes);
	if ((err = send_lpt_and_fault(P, F)) != CL_SUCCESS)
		return err;
	L->st->h2d += F->in_bytes;
	double t2 = vrt_trace_now();
	vrt_trace_host("gather", L->k->name, t1, t2, (long)i, F->in_bytes);
	/* Flushed only when something went in (5 us of the host's on NVIDIA
	 * otherwise). */
	if ((F->in[0] && (err = vrt_real.clFlush(qs->in))) || (err = copy_kept(P, F)) ||
	    (err = forward(L, P, i, F)))
		return err;
	/* The last range's pages are remember()ed with the launch. */
	if (i + 1 < P->nranges)
		share_reads(L, P, F);

	cl_kernel kr, kr2 = NULL;
	if ((err = enqueue_kernel(L, P, F, P->kp, P->ks, g0, g1, 0, &kr)) != CL_SUCCESS ||
	    (P->L2 && (err = enqueue_kernel(P->L2, P, F, P->kp2, P->ks2, g0, g1, 1, &kr2)) !=
	                  CL_SUCCESS))
		return err;
	L->st->straight += kr == P->ks;
	if ((err = vrt_real.clFlush(qs->run)))
		return err;

	/* From here the host copies may change (direct D2H into pinned host
	 * copies): a failure now must refuse the written buffers (launch.c). */
	L->partial = 1;
	if ((err = record_held(L, P, F, i)) != CL_SUCCESS ||
	    (err = record_home(L, P, F)) != CL_SUCCESS)
		return err;
	if (P->last_run)
		vrt_real.clReleaseEvent(P->last_run);
	vrt_real.clRetainEvent(F->run);
	P->last_run = F->run;
	/* The frames stay on the device (framepool.c): in a launch whose
	 * ranges all have frame sets of their own, what they write of a lazy
	 * slot stays there, dirty, until the host needs it (remember,
	 * write_home). Not when ranges reuse sets: a later launch would
	 * refill those frames and first have to fetch their dirty pages,
	 * blocking its pipeline (measured on the H100: jacobi2d at twice its
	 * budget 1.20x -> 1.56x its bound, fdtd2d 2.2x -> 2.8x, the same
	 * bytes moved); written home at once, the reads overlap the next
	 * ranges. */
	F->lazy = P->nranges <= P->nsets;
	int back = 0;
	for (unsigned s = 1; s <= lay->nslots; s++)
		back |= (L->slot_mode[s] & VAST_MODE_W) && F->fr.count[s] && !lay->res_buf[s] &&
		        F->fr.held != s && !(F->lazy && lazy_slot(L, s) && !F->box[s].rows);
	/* Out: the fault word first, then the frames of the slots the
	 * kernel may write; the first waits for the kernel, the others
	 * follow it (the queue is in order: after_run). The straight
	 * variant never writes the fault word: its ranges read none back
	 * (measured on the H100: the read costs the host 15 us, a third of
	 * a cached launch), and one with nothing else to bring back sends
	 * nothing out. */
	F->checked = kr != P->ks || (kr2 && kr2 != P->ks2);
	if (F->checked) {
		cl_event e;
		if ((err = vrt_real.clEnqueueReadBuffer(qs->out, F->fault, CL_FALSE, 0,
		                                        sizeof *F->fault_word, F->fault_word, 1,
		                                        &F->run, &e)))
			return err;
		keep(F->out, e);
	}
	for (unsigned s = 1; s <= lay->nslots && back; s++) {
		if (!(L->slot_mode[s] & VAST_MODE_W) || !F->fr.count[s] || lay->res_buf[s] ||
		    F->fr.held == s)
			continue;
		/* A box always goes home: no kept frame remembers it. */
		if (F->box[s].rows)
			err = move_box(L, P, i, F, s, 1);
		else if (!(F->lazy && lazy_slot(L, s)))
			err = move_frames(L, P, F, s, 1);
		if (err != CL_SUCCESS)
			return err;
	}
	L->st->d2h += F->out_bytes;
	F->range = (long)i;
	record_range(L, P, F, i);
	err = F->out[0] ? vrt_real.clFlush(qs->out) : CL_SUCCESS;
	vrt_trace_host("enqueue", L->k->name, t2, vrt_trace_now(), (long)i, 0);
	return err;
}

/* Range j's commands on set F, for tail.c. */
static vrt_tail_range tail_range(const vrt_launch *L, const paged *P, const fset *F, size_t j)
{
	const vrt_range *R = range_at(P, j);
	size_t g1 = (R->last_row + 1) * P->wpp;
	vrt_tail_range r = {P->qs->in, P->qs->run, P->qs->out, {F->in[0], F->in[1]}, F->run,
	                    {F->out[0], F->out[1]}, F->run0, F->in_bytes, F->out_bytes, (long)j,
	                    R->first_row * P->wpp, g1 > L->groups ? L->groups : g1,
	                    F->checked ? F->fault_word : NULL, vrt_cfg.stats > 1 || L->share};
	return r;
}

/* Waits for range j's D2H, checks its fault word and scatters its staged
 * written slots into the host copies. Ranges finish in order. */
static cl_int finish_range(vrt_launch *L, paged *P, size_t j)
{
	fset *F = &P->set[j % P->nsets];
	const vrt_layout *lay = &P->lay;
	cl_event done = F->out[0] ? last_of(F->out) : F->run;
	const char *kn = L->k->name;
	double tw = vrt_trace_now();
	cl_int err = vrt_real.clWaitForEvents(1, &done);
	vrt_trace_host("drain", kn, tw, vrt_trace_now(), (long)j, 0);
	if (err)
		return err;
	vrt_tail_range r = tail_range(L, P, F, j);
	if ((err = vrt_tail_check(kn, &r, L->st, L->group_base)) != CL_SUCCESS)
		return err;
	P->devs.set[j % P->nsets].fault_clear = 1;
	double t0 = vrt_trace_now();
	unsigned long long bytes = 0;
	for (unsigned s = 1; s <= lay->nslots; s++) {
		if (!(L->slot_mode[s] & VAST_MODE_W) || !F->fr.count[s] || P->direct[s] ||
		    lay->res_buf[s] || F->fr.held == s || (F->lazy && lazy_slot(L, s)))
			continue;
		vrt_span *sp;
		size_t nsp = staged_spans(P, F, F->u, s, &sp);
		if (nsp == (size_t)-1)
			return CL_OUT_OF_HOST_MEMORY;
		size_t n = F->fr.count[s] << lay->page_shift;
		span_job job = {lay, sp, L->slot_mem[s]->host, F->stage + F->stage_off[s]};
		vrt_parallel(nsp, n, scatter_share, &job);
		bytes += n;
	}
	vrt_trace_host("scatter", kn, t0, vrt_trace_now(), (long)j, bytes);
	/* The program's reads queued behind the launch take the pages now
	 * home that no later range writes (deliver.c). */
	uint64_t went = 0;
	for (unsigned s = 1; vrt_deliver_follows(L) && s <= lay->nslots; s++)
		if (goes_home_now(L, P, F, s))
			went |= (uint64_t)1 << s;
	const unsigned char *pages = went ? pages_of(P, F->u, F->box) : F->u;
	if (!pages)
		return CL_OUT_OF_HOST_MEMORY;
	if (went)
		vrt_deliver_finish(L, lay, went, j, pages);
	memcpy(F->prev_u, F->u, lay->row_bytes);
	F->prev_fr = F->fr;
	F->used = 1;
	F->range = -1;
	drop_events(F);
	P->done = j + 1;
	return CL_SUCCESS;
}

/* The ranges still in flight at the end of the launch may finish after
 * it returns (tail.c) when nothing of theirs is left for the host to
 * do: they send nothing home (their written slots are lazy), the
 * executor allows it, and the launch is a whole one. */
static int may_defer(const vrt_launch *L, const paged *P)
{
	if (!L->may_defer || L->share)
		return 0;
	for (size_t j = P->done; j < P->nranges; j++)
		if (P->set[j % P->nsets].out_bytes)
			return 0;
	return 1;
}

/* Hands the ranges in flight to the launch's tail: their events, and
 * every set's frames marked busy until the launch's last kernel ends, so
 * that the next launch's H2D into them waits (after_busy; its kernels
 * and D2H follow on the same in-order queues). Not only the sets of the
 * ranges in flight: device copies out of any set (forward, copy_kept)
 * run on the kernel queue, before that last kernel. The host memory
 * their H2D read (the LPT, staging) goes with the launch: those commands
 * must be done.
 * Their fault words are taken as clear from now, as if read back so;
 * a range that faulted refuses its launch and every one in flight
 * after it, and drops the kept sets (queue.c, tail.c). */
static cl_int defer_ranges(vrt_launch *L, paged *P)
{
	for (size_t j = P->done; j < P->nranges; j++) {
		fset *F = &P->set[j % P->nsets];
		cl_event in = last_of(F->in);
		cl_int err = in ? vrt_real.clWaitForEvents(1, &in) : CL_SUCCESS;
		if (err != CL_SUCCESS)
			return err;
	}
	cl_event last = P->set[(P->nranges - 1) % P->nsets].run;
	/* The resident buffers' next commands, on their own queues, follow
	 * the last kernel (the kernel queue is in order: every kernel). */
	for (unsigned i = 0; i < P->nres; i++) {
		cl_int err = vrt_real.clEnqueueBarrierWithWaitList(P->res[i]->dev_queue, 1, &last, NULL);
		if (err != CL_SUCCESS)
			return err;
	}
	for (unsigned s = 0; s < P->nsets; s++) {
		vrt_devset *ds = &P->devs.set[s];
		if (ds->busy)
			vrt_real.clReleaseEvent(ds->busy);
		ds->busy = last;
		vrt_real.clRetainEvent(last);
	}
	for (size_t j = P->done; j < P->nranges; j++) {
		fset *F = &P->set[j % P->nsets];
		vrt_devset *ds = &P->devs.set[j % P->nsets];
		P->tail->r[j % P->nsets] = tail_range(L, P, F, j);
		if (!F->out[0]) {
			if (ds->unread)
				vrt_real.clReleaseEvent(ds->unread);
			ds->unread = F->run;
			vrt_real.clRetainEvent(ds->unread);
		}
		ds->fault_clear = 1; /* sent as 0 before, or read so: a straight kernel never writes it */
		/* the tail owns them now */
		memset(F->in, 0, sizeof F->in);
		memset(F->out, 0, sizeof F->out);
		F->run = F->run0 = NULL;
		F->range = -1;
	}
	P->tail->n = P->nsets;
	P->done = P->nranges;
	L->tail = P->tail;
	P->tail = NULL;
	return CL_SUCCESS;
}

static cl_int place_hold(vrt_launch *L, paged *P);

/* A device buffer of `bytes`, backed now: NVIDIA's driver allocates a
 * buffer's memory at its first use, so a one-byte write makes an
 * out-of-memory show here, before any range has run, rather than in
 * the middle of the launch. VAST_FAIL_DEVICE_MEM (a testing knob) fails
 * the buffers past that many bytes of a launch in the same way. */
static cl_mem backed_buffer(vrt_launch *L, paged *P, size_t bytes, cl_int *err)
{
	static const unsigned char zero;
	cl_mem m = vrt_real.clCreateBuffer(L->ctx, CL_MEM_READ_WRITE, bytes, NULL, err);
	if (!m)
		return NULL;
	P->device_bytes += bytes;
	if (vrt_cfg.fail_device_mem && P->device_bytes > vrt_cfg.fail_device_mem)
		*err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
	else
		*err = vrt_real.clEnqueueWriteBuffer(P->qs->in, m, CL_TRUE, bytes - 1, 1, &zero,
		                                     0, NULL, NULL);
	if (*err) {
		vrt_real.clReleaseMemObject(m);
		return NULL;
	}
	return m;
}

static void drop_hold(vrt_devsets *d, cl_context ctx, cl_device_id dev);

static cl_int make_sets(vrt_launch *L, paged *P)
{
	size_t rb = P->lay.row_bytes, lb = vrt_lpt_bytes(&P->lay);
	unsigned sh = P->lay.page_shift;
	cl_int err = CL_SUCCESS;
	/* The buffers an earlier launch left, where large enough; the
	 * others made here, their sizes recorded. */
	vrt_devsets want, *d = &P->devs;
	memset(&want, 0, sizeof want);
	want.dummy_bytes = (size_t)1 << sh;
	want.nsets = P->nsets;
	/* A set of one frame buffer gets all the room its share of the
	 * budget leaves: the kernels of a pipeline (fdtd2d's three) then
	 * keep one another's buffers, and the pages in them, where each
	 * sized to its own plan made the next that needed more drop them. */
	size_t whole = P->buf_frames[0] << sh;
	unsigned long long share = L->budget / P->nsets, data = 1;
	for (unsigned s = 1; s <= P->lay.nslots; s++)
		data += P->lay.slot_pages[s];
	if (!P->buf_frames[1] && share > lb) {
		/* what place_frames lets a plan fill: its frames and LPT; no
		 * more than all the launch's pages (and the scratch frame) on
		 * a budget larger than its data (VAST_MODE=paged) */
		unsigned long long room = vrt_frames_beside_lpt(share, lb, sh);
		if (room > data)
			room = data;
		if (room << sh > whole && (!P->maxalloc || room << sh <= P->maxalloc))
			whole = (size_t)(room << sh);
	}
	vrt_log(VRT_LOG_DEBUG, "kernel '%s': %u frame sets of %zu bytes (the plan needs %zu)",
	        L->k->name, P->nsets, whole, (size_t)(P->buf_frames[0] << sh));
	for (unsigned i = 0; i < P->nsets; i++) {
		want.set[i].lpt_bytes = lb;
		for (unsigned b = 0; b < VAST_FRAME_BUFS; b++)
			want.set[i].frame_bytes[b] = b ? P->buf_frames[b] << sh : whole;
	}
	/* Shares of a split launch run on threads (multi.c): the pool is
	 * the executor's alone. */
	if (!L->share)
		vrt_framepool_take(L->ctx, L->dev, d);
	d->home = write_home;
	/* Pages the pools of the context's other devices alone hold (their
	 * launches left them) come home first: this launch fills its frames
	 * from the host copy. */
	for (unsigned s = 1; !L->share && s <= L->nslots; s++)
		if (vrt_framepool_newer(L->slot_mem[s]) &&
		    (err = vrt_framepool_write_home(L->slot_mem[s])) != CL_SUCCESS)
			return err;
	/* Frame buffers fit drops, or pages of another size, take the pages
	 * they hold with them: those newer than the host go home first (the
	 * hold's with its buffer where the page size changes: the hold's
	 * pages are the frames' size, poolloc.c). */
	/* The plan's sets fill the budget (place_frames), the dummy page
	 * aside. */
	unsigned long long room = L->budget + want.dummy_bytes;
	if (d->res.n && (d->res.page_shift != sh || !vrt_devsets_fit_keeps(d, &want, room)) &&
	    (err = newer_home(d, L->ctx, L->dev, NULL, VRT_POOL_FRAMES)) != CL_SUCCESS)
		return err;
	if (d->hold && d->hold_shift != sh)
		drop_hold(d, L->ctx, L->dev);
	vrt_devsets_fit(d, &want, room);
	if (d->res.page_shift != sh) {
		vrt_pool_forget_frames(d);
		vrt_res_clear(&d->res); /* its pages are not this launch's */
		d->res.page_shift = sh;
	}
	/* The pool is a location of every buffer whose pages it may keep. */
	for (unsigned s = 0; s <= VAST_MAX_SLOTS; s++)
		P->loc[s] = -1;
	for (unsigned s = 1; s <= L->nslots; s++)
		if (may_reside(L, s) && (P->loc[s] = vrt_pool_loc(d, L->slot_mem[s])) < 0)
			return CL_OUT_OF_HOST_MEMORY;
	if (vrt_cfg.resident && !L->share)
		d->reverse = !d->reverse;
	P->reverse = d->reverse;
	if (!d->dummy) {
		d->dummy_bytes = want.dummy_bytes;
		if (!(d->dummy = backed_buffer(L, P, d->dummy_bytes, &err)))
			return err;
	}
	P->dummy = d->dummy;
	if ((err = place_hold(L, P)) != CL_SUCCESS)
		return err;
	for (unsigned i = 0; i < P->nsets; i++) {
		fset *F = &P->set[i];
		vrt_devset *ds = &d->set[i], *ws = &want.set[i];
		F->range = -1;
		F->u = vrt_calloc(1, rb);
		F->prev_u = vrt_calloc(1, rb);
		F->fill = vrt_calloc(1, rb);
		F->lpt_own = vrt_malloc(lb);
		if (!F->u || !F->prev_u || !F->fill || !F->lpt_own)
			return CL_OUT_OF_HOST_MEMORY;
		for (unsigned b = 0; b < VAST_FRAME_BUFS; b++) {
			if (!ws->frame_bytes[b] || ds->frames[b])
				continue;
			ds->frame_bytes[b] = ws->frame_bytes[b];
			if (!(ds->frames[b] = backed_buffer(L, P, ds->frame_bytes[b], &err)))
				return err;
		}
		if (!ds->lptbuf) {
			vrt_free(ds->lpt_held);
			ds->lpt_held = NULL;
			ds->lpt_bytes = lb;
			if (!(ds->lptbuf = vrt_real.clCreateBuffer(L->ctx, CL_MEM_READ_ONLY, lb, NULL, &err)))
				return err;
		}
		if (!ds->fault) {
			ds->fault_clear = 0;
			if (!(ds->fault = vrt_real.clCreateBuffer(L->ctx, CL_MEM_READ_WRITE, sizeof(cl_uint),
			                                          NULL, &err)))
				return err;
		}
		memcpy(F->frames, ds->frames, sizeof F->frames);
		for (unsigned s = 1; s <= P->lay.nslots; s++)
			if (P->lay.res_buf[s])
				F->frames[P->lay.res_buf[s]] = L->slot_mem[s]->dev;
		if (P->lay.hold_pages)
			F->frames[P->lay.hold_buf] = d->hold;
		F->lptbuf = ds->lptbuf;
		F->fault = ds->fault;
		F->fault_word = &P->tail->fault[i];
	}
	return err;
}

/* Leaves the frame sets as new: their device buffers kept for the next
 * launch on L's context and device (framepool.c), or, unless `keep`,
 * released, their dirty pages written home first (or their buffers
 * refused: write_home). */
static void drop_sets(paged *P, const vrt_launch *L, int keep)
{
	for (unsigned i = 0; i < VRT_MAX_SETS; i++) {
		fset *F = &P->set[i];
		drop_events(F);
		if (F->reader)
			vrt_real.clReleaseEvent(F->reader);
		vrt_free(F->u);
		vrt_free(F->prev_u);
		vrt_free(F->fill);
		vrt_free(F->lpt_own);
		memset(F, 0, sizeof *F);
	}
	if (keep && !L->share) {
		vrt_framepool_give(L->ctx, L->dev, &P->devs);
	} else {
		if (!L->share)
			write_home(&P->devs, L->ctx, L->dev, NULL, 0);
		vrt_devsets_release(&P->devs);
	}
	P->dummy = NULL;
	P->device_bytes = 0;
}

/* Slot s is read only and each work-group reads at least half of its
 * pages (the B of a matrix multiply: a group's column strip crosses
 * every row of it), so every range, however the launch is cut, would
 * send most of it again: mm2's C, sent by each of 96 ranges beside a
 * buffer kept whole that left it no room, moved 14 times the bytes the
 * launch had to. The first, middle and last groups stand for the rest,
 * at the pages the plan starts from (first_layout); 1 yes, 0 no or not
 * known (no usable descriptor, out of memory). */
static int read_by_every_range(const vrt_launch *L, vrt_fp_plan *fp, unsigned s, unsigned sh)
{
	if (!fp || L->slot_mode[s] != VAST_MODE_R || L->groups < 2)
		return 0;
	vrt_layout lay = { .page_shift = sh };
	size_t n = (L->slot_mem[s]->size + ((size_t)1 << sh) - 1) >> sh;
	lay.slot_pages[s] = n;
	/* vrt_pas_count reads whole words: the row padded to 8, with zeros. */
	size_t n8 = (n + 7) & ~(size_t)7;
	unsigned char *pages = vrt_malloc(n8);
	if (!pages)
		return 0;
	size_t sample[3] = { 0, L->groups / 2, L->groups - 1 };
	int every = 1;
	for (unsigned i = 0; i < 3 && every; i++) {
		memset(pages, 0, n8);
		every = vrt_fp_slot_pages(fp, &lay, s, sample[i], sample[i] + 1, pages) == 1 &&
		        2 * vrt_pas_count(pages, n8) >= n;
	}
	vrt_free(pages);
	return every;
}

/* The buffers a paged launch keeps whole on the device rather than
 * paging them (data one kernel produces and the next consumes stays on
 * the device when it fits): those already there, then those an
 * earlier paged launch used (an iterative program's: fdtd2d's hz, which
 * all three of its kernels use), as long as they take at most 3/4 of the
 * budget; the frames get the rest. Before the latter, a buffer the launch
 * only reads, through addresses that are data (spmv's x[col[i]],
 * vrt_fp_slot_indirect): whole on the device it needs no inspector, and
 * each range would otherwise bring most of its pages again; then one it
 * only reads that every range would send again (read_by_every_range):
 * whole, it is sent once for the launch, and stays for the next while
 * it fits (the first pass), where a buffer an earlier launch used would
 * save at most one transfer of itself. Any other
 * buffer neither on the device nor used by an earlier paged launch pages,
 * so a program of one paged launch over buffers it wrote from the host
 * pages as before. Each is bound
 * whole as a frame buffer of its own (lpt.c), from the top index down;
 * its pages are in no range's rows, never sent nor written back: the
 * native path's device copy (mem.c) is the current one. */
static void keep_resident(vrt_launch *L, paged *P)
{
	unsigned long long room = L->budget / 4 * 3, used = 0, most = vrt_max_alloc(L->dev);
	unsigned sh = choose_shift(L->budget / vrt_cfg.pipeline);
	vrt_fp_plan *fp = NULL;
	int oom = 0;
	for (int pass = 0; pass < 4; pass++) {
		if (pass == 2 && !(fp = vrt_fp_plan_new(L, &oom)))
			continue;
		for (unsigned s = 1; s <= L->nslots && P->nres + 1 < VAST_FRAME_BUFS; s++) {
			vrt_mem *m = L->slot_mem[s];
			if (L->res_buf[s] || m->parent || m->nsubs || used + m->size > room)
				continue;
			/* Not one no device buffer can hold: placing it would fail,
			 * and the launch would then keep nothing whole. */
			if (pass > 0 && most && m->size > most)
				continue;
			int want = pass == 0 ? m->dev && vrt_mem_dev_valid(m)
			           : pass == 1 ? L->slot_mode[s] == VAST_MODE_R && vrt_fp_slot_indirect(L, s)
			           : pass == 2 ? read_by_every_range(L, fp, s, sh)
			           : m->paged_uses > 0;
			if (!want)
				continue;
			L->res_buf[s] = (unsigned char)(VAST_FRAME_BUFS - 1 - P->nres);
			P->res[P->nres++] = m;
			used += m->size;
		}
	}
	vrt_fp_plan_free(fp);
	if (!P->nres)
		return;
	L->budget -= used;
	vrt_log(VRT_LOG_INFO, "kernel '%s': %u buffers (%llu bytes) kept whole on the device, %llu bytes of budget left to page the rest",
	        L->k->name, P->nres, used, L->budget);
}

/* A launch may keep buffers on the device (keep_resident, choose_hold):
 * VAST_MODE=paged pages every buffer, as it says; a launch like one
 * whose ranges did not fit what kept buffers left keeps none. */
static int keeps_allowed(const vrt_launch *L)
{
	const struct vrt_keep_hint *h = &L->k->keep_refused;
	return !L->share && vrt_cfg.resident && vrt_cfg.mode != VRT_RUN_PAGED &&
	       !(h->groups == L->groups && h->budget == L->budget);
}

/* Slot s may be the hold's: its pages may reside (may_reside: not kept
 * whole, in no sub-buffer family), its host copy is ours (not
 * CL_MEM_USE_HOST_PTR: lazy_slot), and no other slot names its buffer. */
static int may_hold(const vrt_launch *L, unsigned s)
{
	if (!may_reside(L, s) || (L->slot_mem[s]->flags & CL_MEM_USE_HOST_PTR))
		return 0;
	for (unsigned t = 1; t <= L->nslots; t++)
		if (t != s && L->slot_mem[t] == L->slot_mem[s])
			return 0;
	return 1;
}

/* No slot before s names s's buffer. */
static int first_slot_of(const vrt_launch *L, unsigned s)
{
	for (unsigned t = 1; t < s; t++)
		if (L->slot_mem[t] == L->slot_mem[s])
			return 0;
	return 1;
}

/* Releases d's hold, the pages it holds newer than the host written
 * home first (those that cannot, their buffer refused: write_home), and
 * the pool's location forgets them. */
static void drop_hold(vrt_devsets *d, cl_context ctx, cl_device_id dev)
{
	if (!d->hold)
		return;
	newer_home(d, ctx, dev, NULL, VRT_POOL_HOLD);
	vrt_pool_forget_hold(d);
	vrt_hold_free(d);
	vrt_real.clReleaseMemObject(d->hold);
	d->hold = NULL;
	d->hold_bytes = 0;
}

/* The least room of the budget the frames keep beside the hold and the
 * other buffers' device copies (vrt_room_for_paging): an eighth, and at
 * least what keeps a set at 64 pages of the default size (choose_shift):
 * smaller pages make more ranges, each sending an LPT of the launch's
 * every page. */
static unsigned long long frames_least(const vrt_launch *L)
{
	unsigned sh = vrt_cfg.page_shift ? vrt_cfg.page_shift : 16;
	unsigned long long frames = L->budget / 8, least = (unsigned long long)vrt_cfg.pipeline << (sh + 6);
	return frames > least ? frames : least;
}

/* The hold (a device page cache; docs/runtime.md): the frames are
 * refilled range after range, so what they keep for the next launch is
 * at most its last ranges' pages, and a kernel that does not use a
 * buffer (fdtd2d's ey kernel and ex) overwrites all of them. The hold
 * keeps the first pages of one more buffer beside those kept whole, in
 * a device buffer of the pool's that no range refills: a range whose
 * pages of that buffer all lie there is bound to it (lpt.c), sends only
 * those it lacks and writes none home; the others take them
 * device-side (use_kept). Its buffer: the pool's hold's, which stays
 * while it fits and its buffer lives, whatever the launch uses; or else
 * the first of the launch that two earlier paged launches used and that
 * may be held. Its size: what the buffers kept whole left, less the
 * frames' share, as much as the buffer has. Under this fixed choice
 * nothing the hold keeps is evicted, as MIN would do for a cycle of
 * kernels that each use their buffers once: fdtd2d at twice its budget
 * moves 6 - 3h of its arrays' size a step for a hold of h of one of
 * them (the per-launch bound is 4.5). Its bytes come off the budget. */
static void choose_hold(vrt_launch *L, paged *P, int allowed)
{
	/* The shares of a split launch run on threads: the pool is the
	 * executor's alone (make_sets). */
	if (L->share)
		return;
	vrt_devsets *d = vrt_framepool_peek(L->ctx, L->dev);
	unsigned sh = vrt_cfg.page_shift ? vrt_cfg.page_shift : 16;
	unsigned long long frames = frames_least(L), least = (unsigned long long)vrt_cfg.pipeline << (sh + 6);
	unsigned long long room = L->budget > frames ? L->budget - frames : 0;
	/* a frame buffer index of its own, below those kept whole */
	allowed &= vrt_cfg.hold && P->nres + 2 < VAST_FRAME_BUFS;
	if (d && d->hold) {
		const vrt_mem *m = vrt_mem_by_serial(d->hold_serial);
		unsigned s = 0;
		for (unsigned t = 1; m && t <= L->nslots; t++)
			if (L->slot_mem[t] == m)
				s = t;
		if (!allowed || !m || d->hold_bytes > room || (s && !may_hold(L, s))) {
			vrt_log(VRT_LOG_DEBUG, "kernel '%s': the hold goes", L->k->name);
			drop_hold(d, L->ctx, L->dev);
		} else {
			L->hold_slot = s;
			L->hold_bytes = d->hold_bytes;
		}
	}
	/* A new hold only where the frames of the paged launch before are
	 * still there (a native launch between paged ones takes the pool's
	 * room, mem.c, and would take a hold with it every time), and of at
	 * least what the frames keep. */
	for (unsigned s = 1; allowed && d && room >= least && !L->hold_bytes && s <= L->nslots;
	     s++) {
		vrt_mem *m = L->slot_mem[s];
		if (m->paged_uses < 2 || !may_hold(L, s))
			continue;
		L->hold_slot = s;
		L->hold_bytes = m->size < room ? m->size : room;
		vrt_log(VRT_LOG_INFO, "kernel '%s': the hold keeps %llu bytes of slot %u on the device",
		        L->k->name, L->hold_bytes, s);
	}
	L->budget -= L->hold_bytes;
	P->hold_bytes = L->hold_bytes;
}

/* The hold's device buffer, for a launch that uses it: the pool's when
 * it holds the same buffer's pages at this page size and its size, or a
 * new one (the old one's dirty pages home first). */
static cl_int place_hold(vrt_launch *L, paged *P)
{
	vrt_devsets *d = &P->devs;
	const vrt_layout *lay = &P->lay;
	if (!lay->hold_pages)
		return CL_SUCCESS;
	const vrt_mem *m = L->slot_mem[lay->hold_slot];
	if (d->hold && (d->hold_serial != m->serial || d->hold_shift != lay->page_shift ||
	                d->hold_bytes != P->hold_bytes))
		drop_hold(d, L->ctx, L->dev);
	if (d->hold)
		return CL_SUCCESS;
	cl_int err;
	if (!(d->hold = backed_buffer(L, P, lay->hold_pages << lay->page_shift, &err)))
		return err;
	d->hold_bytes = P->hold_bytes;
	if (vrt_hold_init(d, m->serial, lay->hold_pages, lay->page_shift)) {
		vrt_real.clReleaseMemObject(d->hold);
		d->hold = NULL;
		return CL_OUT_OF_HOST_MEMORY;
	}
	return CL_SUCCESS;
}

/* The resident slots' device copies, current, with nothing else in
 * flight on them (their queue finished: the paged path's kernels run on
 * queues of its own). */
static cl_int place_resident(vrt_launch *L, paged *P)
{
	cl_int err = CL_SUCCESS;
	for (unsigned i = 0; i < P->nres && !err; i++)
		err = vrt_room_to_device(P->res[i], L->q, P->full_budget, P->res, P->nres);
	for (unsigned i = 0; i < P->nres && !err; i++)
		err = vrt_real.clFinish(P->res[i]->dev_queue);
	return err;
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
 * inspector, no plan kept or reused); VRT_NOT_FUSED, nothing run, where
 * that cannot be done or would not be exact (fused_exact). */
static cl_int plan_fused(vrt_launch *L, paged *P)
{
	double t0 = vrt_now_ms();
	int oom = 0;
	vrt_fp_plan_free(P->fp);
	vrt_fp_plan_free(P->fp2);
	P->fp2 = NULL;
	P->fp = vrt_fp_plan_new(L, &oom);
	if (!oom)
		P->fp2 = vrt_fp_plan_new(P->L2, &oom);
	if (oom)
		return CL_OUT_OF_HOST_MEMORY;
	if (!vrt_fp_complete(P->fp) || !vrt_fp_complete(P->fp2))
		return VRT_NOT_FUSED;
	vrt_fp_follow(P->fp, P->fp2);
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
static void first_layout(vrt_launch *L, paged *P)
{
	P->maxalloc = vrt_max_alloc(L->dev);
	P->units = vrt_compute_units(L->dev);
	P->nsets = vrt_cfg.pipeline;
	P->lay.nslots = L->nslots;
	memcpy(P->lay.res_buf, L->res_buf, sizeof P->lay.res_buf);
	P->lay.hold_slot = L->hold_slot;
	P->lay.hold_buf = VAST_FRAME_BUFS - 1 - P->nres;
	unsigned long long share = L->budget / P->nsets;
	for (unsigned s = 1; s <= L->nslots; s++)
		P->lay.slot_size[s] = L->slot_mem[s]->size;
	use_shift(P, choose_shift(P->maxalloc && P->maxalloc < share ? P->maxalloc : share));
}

/* Frees a plan of fused_plan's that no launch took. */
static void drop_plan(paged *D)
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
static cl_int fused_plan(vrt_launch *L, vrt_launch *L2, const unsigned *mode1, paged **plan)
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
	first_layout(L, P);
	cl_int err = plan_fused(L, P);
	L->st = st;
	if (err == CL_SUCCESS)
		*plan = P;
	else
		drop_plan(P);
	return err;
}

/* P plans by c's layout, ranges and frames (P->maxalloc set): a kept
 * plan (plans.c), or a fused launch's own (take_plan). */
static void use_plan(paged *P, const vrt_plan *c)
{
	vrt_free(P->rows);
	vrt_free(P->ranges);
	P->lay = c->lay;
	/* the plan's pages, which may be smaller than the first try's */
	P->per_buf = frames_per_buf(P, P->lay.page_shift);
	P->wpp = c->wpp;
	P->nrows = c->nrows;
	P->rows = c->rows;
	P->ranges = c->ranges;
	P->nranges = c->nranges;
	P->unions = c->unions;
	P->shared = c->shared;
	P->nsets = c->nsets;
	memcpy(P->buf_frames, c->buf_frames, sizeof P->buf_frames);
	P->lpts = c->lpts;
	P->lpt_frames = c->frames;
	P->lpt_words = c->lpt_words;
	P->fills = c->fills;
	P->fill_gaps = c->gaps;
	P->fill_gaps_at = c->gaps_at;
	P->gap_rects = c->gap_rects;
	P->gap_rects_at = c->gap_rects_at;
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
static void drop_tables(paged *P)
{
	if (P->lpts_owned) {
		vrt_free((void *)P->lpts);
		vrt_free((void *)P->lpt_frames);
		vrt_free((void *)P->fills);
		vrt_free((void *)P->fill_gaps);
		vrt_free((void *)P->fill_gaps_at);
		vrt_free((void *)P->gap_rects);
		vrt_free((void *)P->gap_rects_at);
	}
	P->lpts = NULL;
	P->lpt_frames = NULL;
	P->fills = NULL;
	P->fill_gaps = NULL;
	P->fill_gaps_at = NULL;
	P->gap_rects = NULL;
	P->gap_rects_at = NULL;
	P->lpts_owned = 0;
	P->lpt_dev = NULL;
	P->plan_serial = 0;
}

/* The plan of an earlier launch like this one (plans.c), or a new one
 * (a fused launch's: the one its check made). The descriptors are L's
 * own either way: they tell pages_to_fill what a range writes whole. */
static cl_int find_or_make_plan(vrt_launch *L, paged *P)
{
	/* Shares of a split launch (multi.c) run on threads and cover a
	 * window of the groups: they plan afresh, and keep nothing. */
	const vrt_plan *c = L->share || P->L2 ? NULL : vrt_plan_find(L);
	drop_tables(P);
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
	if (P->L2)
		return plan_fused(L, P);
	if (!c) {
		return inspect_and_reduce(L, P);
	}
	int oom, boxed = 0;
	vrt_fp_plan_free(P->fp);
	P->fp = vrt_fp_plan_new(L, &oom);
	if (oom)
		return CL_OUT_OF_HOST_MEMORY;
	for (unsigned s = 0; s <= VAST_MAX_SLOTS; s++)
		boxed |= c->boxed[s];
	/* The plan's boxes are the descriptors': none, none to box with. */
	if (boxed && !P->fp)
		return inspect_and_reduce(L, P);
	if (P->fp)
		vrt_fp_boxes_set(P->fp, c->boxed);
	use_plan(P, c);
	/* The cache's own entry: the tables made at this launch join it. */
	P->kept = (vrt_plan *)c;
	P->cached = 1;
	L->st->plan_hits++;
	return CL_SUCCESS;
}

/* Keeps a new plan for the launches like this one. Not keeping it
 * (out of memory) costs only the next launch's planning. */
static void keep_plan(vrt_launch *L, paged *P)
{
	vrt_plan p = { .lay = P->lay, .wpp = P->wpp, .nrows = P->nrows, .rows = P->rows,
	               .ranges = P->ranges, .nranges = P->nranges, .unions = P->unions,
	               .shared = P->shared, .nsets = P->nsets };
	memcpy(p.buf_frames, P->buf_frames, sizeof p.buf_frames);
	if (P->fp)
		vrt_fp_boxes_get(P->fp, p.boxed);
	if (P->lpts_owned) {
		p.lpts = (uint32_t *)P->lpts;
		p.frames = (vrt_frames *)P->lpt_frames;
		p.lpt_words = P->lpt_words;
		p.fills = (unsigned char *)P->fills;
		p.gaps = (vrt_gap *)P->fill_gaps;
		p.gaps_at = (size_t *)P->fill_gaps_at;
		p.gap_rects = (vrt_rect *)P->gap_rects;
		p.gap_rects_at = (size_t *)P->gap_rects_at;
	}
	const vrt_plan *kept = P->cached || L->share || P->L2 ? NULL
	                       : vrt_plan_keep(L, &p, P->from_fp);
	if (kept) {
		P->cached = 1;
		P->lpts_owned = 0; /* the plan's now */
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
		if (fill_of(L, P, P->unions + r * rb, &fr[r], t + r * P->lpt_words, g0,
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
		if (plan_gap_rects(P, r, t + r * P->lpt_words, &rects, &nr, &rcap, rat))
			goto fail;
	}
	at[n] = ng;
	rat[nk] = nr;
	P->ngaps = 0;
	P->fills = fills;
	P->fill_gaps = gaps;
	P->fill_gaps_at = at;
	P->gap_rects = rects;
	P->gap_rects_at = rat;
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
	vrt_plan *k = P->kept;
	k->lpts = (uint32_t *)P->lpts;
	k->frames = (vrt_frames *)P->lpt_frames;
	k->lpt_words = P->lpt_words;
	k->fills = (unsigned char *)P->fills;
	k->gaps = (vrt_gap *)P->fill_gaps;
	k->gaps_at = (size_t *)P->fill_gaps_at;
	k->gap_rects = (vrt_rect *)P->gap_rects;
	k->gap_rects_at = (size_t *)P->gap_rects_at;
	P->lpts_owned = 0;
}

/* Host bytes of LPTs a plan's tables may take: above, its ranges build
 * their own (each LPT has a word for every page of the launch). */
#define VRT_PLAN_TABLES_MAX ((size_t)256 << 20)

static cl_int plan_tables(vrt_launch *L, paged *P)
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
	if (P->lpts || !n || !P->cached || !P->kept)
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
		if (range_boxes(P, &P->ranges[r], bx) ||
		    vrt_lpt_build(lay, P->unions + r * lay->row_bytes, bx, P->per_buf, t + r * words,
		                  &fr[r])) {
			/* Out of host memory, or a range that cannot be laid out:
			 * each range builds its own, and says so itself. */
			vrt_free(t);
			vrt_free(fr);
			return CL_SUCCESS;
		}
	P->lpt_words = words;
	if (plan_fills(L, P, t, fr)) {
		vrt_free(t);
		vrt_free(fr);
		return CL_SUCCESS;
	}
	P->lpts = t;
	P->lpt_frames = fr;
	P->lpts_owned = 1;
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
static void tables_on_device(vrt_launch *L, paged *P)
{
	unsigned long long room = L->budget / 32;
	if (room < 1ull << 20)
		room = 1ull << 20;
	P->lpt_dev = P->lpts ? vrt_lpts_on_device(&P->devs, L->ctx,
	                                          P->plan_serial, P->lpts, P->nranges,
	                                          P->lpt_words, room)
	                     : NULL;
}

/* Plans the launch and makes its frame sets. A device out of memory
 * (CL_MEM_OBJECT_ALLOCATION_FAILURE, or CL_OUT_OF_RESOURCES) before any
 * range ran costs a quarter of the budget, remembered for the device,
 * and a new plan: the program does not fail because the device holds
 * less than it reports. */
static cl_int plan_and_make_sets(vrt_launch *L, paged *P)
{
	for (;;) {
		cl_int err = find_or_make_plan(L, P);
		if (err != CL_SUCCESS)
			return err;
		/* The inspector may have placed index buffers on the device;
		 * the frames need that room. They are clean: eviction is free.
		 * The buffers kept whole go (or stay) there. */
		if ((err = vrt_room_for_paging(L, P->res, P->nres, L->budget)) != CL_SUCCESS ||
		    (err = place_resident(L, P)) != CL_SUCCESS)
			return err;
		size_t bufs = 0;
		for (unsigned b = 0; b < VAST_FRAME_BUFS; b++)
			bufs += P->buf_frames[b] != 0;
		vrt_log(VRT_LOG_INFO, "kernel '%s': %zu ranges, %u frame sets of %zu buffers, %zu groups per PAS row, page %u bytes",
		        L->k->name, P->nranges, P->nsets, bufs, P->wpp, 1u << P->lay.page_shift);
		double t0 = vrt_now_ms();
		choose_direct(L, P);
		vrt_trace_host("direct", L->k->name, t0, vrt_now_ms(), -1, 0);
		err = make_sets(L, P);
		if (err == CL_SUCCESS && (err = plan_tables(L, P)) == CL_SUCCESS) {
			keep_plan(L, P);
			tables_on_device(L, P);
		}
		vrt_trace_host("setup", L->k->name, t0, vrt_now_ms(), -1, 0);
		if (err == CL_SUCCESS && !P->device_bytes)
			vrt_log(VRT_LOG_INFO, "kernel '%s': every frame buffer kept from an earlier launch",
			        L->k->name);
		/* With buffers kept whole, vrt_paged_run pages them all instead. */
		if ((err != CL_MEM_OBJECT_ALLOCATION_FAILURE && err != CL_OUT_OF_RESOURCES) || P->nres ||
		    P->hold_bytes)
			return err;
		drop_sets(P, L, 0);
		unsigned long long less = L->budget - L->budget / 4;
		vrt_log(VRT_LOG_INFO, "kernel '%s': the device is out of memory under a budget of %llu bytes; planning again with %llu",
		        L->k->name, L->budget, less);
		vrt_budget_shrink(L->dev, less);
		L->budget = less;
	}
}

/* The straight variant runs with no fault check, so only where the plan
 * holds every page: not where the inspector computed addresses from a
 * buffer the kernel writes (it saw the contents before the launch). The
 * compiler gave such kernels none (lib/rewrite/kernels.c); two parameters
 * bound to one buffer make the same here, per slot. */
int vrt_straight_may_run(const vrt_launch *L)
{
	if (!vrt_cfg.straight || !(L->k->info->variants & VAST_HAS_STRAIGHT))
		return 0;
	for (unsigned s = 1; s <= L->nslots; s++)
		if (L->slot_inspect_reads[s] && (L->slot_mode[s] & VAST_MODE_W))
			return 0;
	return 1;
}

/* The arguments of variant kv that every range shares: the program's
 * own, then the geometry of the tail. */
static cl_int set_launch_args(vrt_launch *L, paged *P, cl_kernel kv, unsigned kind)
{
	cl_int err;
	if ((err = vrt_set_user_args(L, kv)) != CL_SUCCESS)
		return err;
	cl_uint shift = P->lay.page_shift;
	vrt_geometry g;
	vrt_tailargs t = { .page_shift = &shift };
	vrt_tailargs_geometry(L, &g, &t);
	return vrt_tailargs_set(kv, L->k->nargs, kind, &t);
}

/* The planner's input for P's launch (plan/moves.c): the slots' modes,
 * what the kept frames may hold of them, and in state (a row) where each
 * page lies before the first range, as use_kept would find it (a kept
 * frame's or the hold's copy where the pool's location holds the page,
 * dirty where it alone does). */
static void move_input(const vrt_launch *L, const paged *P, vrt_move_input *in,
                       unsigned char *state)
{
	const vrt_layout *lay = &P->lay;
	memset(in, 0, sizeof *in);
	in->lay = lay;
	in->nranges = P->nranges;
	in->nsets = P->nsets;
	in->state = state;
	for (unsigned s = 1; s <= lay->nslots; s++) {
		uint64_t bit = (uint64_t)1 << s;
		in->mode[s] = L->slot_mode[s];
		in->resides |= may_reside(L, s) ? bit : 0;
		in->lazy |= lazy_slot(L, s) ? bit : 0;
		in->shared |= !(L->slot_mode[s] & VAST_MODE_W) && (P->shared & bit) ? bit : 0;
	}
	for (unsigned s = 1; (P->devs.res.n || P->devs.held) && s <= lay->nslots; s++) {
		const vrt_mem *m = L->slot_mem[s];
		int l = P->loc[s];
		if (l < 0 || !(in->resides >> s & 1))
			continue;
		/* the directory's answers first, in the slot's place of the
		 * row, each replaced by where the page lies */
		vrt_pool_pages(m, l, 0, lay->slot_pages[s], lay->page_shift, state + lay->slot_off[s]);
		for (size_t p = 0; p < lay->slot_pages[s]; p++) {
			unsigned char *at = state + lay->slot_off[s] + p, pool = *at;
			const vrt_resident *e;
			*at = 0;
			if (!(pool & VRT_DIR_PAGE_HELD))
				continue;
			if (P->devs.hold && vrt_hold_has(&P->devs, m->serial, p))
				*at = VRT_AT_HOLD;
			else if ((e = vrt_res_find(&P->devs.res, m->serial, p)) && e->set < P->nsets &&
			         P->set[e->set].frames[e->buf])
				*at = pool & VRT_DIR_PAGE_SOLE ? VRT_AT_DIRTY : VRT_AT_KEPT;
		}
	}
}

/* Starts the record of the launch's ranges the planner is checked
 * against (VAST_PLAN_CHECK) or dumped with (VAST_PLAN_DUMP). */
static void record_start(const vrt_launch *L, paged *P)
{
	P->rec = NULL;
	if (!vrt_cfg.plan_check && !vrt_cfg.plan_dump)
		return;
	unsigned char *state = vrt_calloc(1, P->lay.row_bytes);
	vrt_move_input in;
	if (!state)
		return;
	move_input(L, P, &in, state);
	P->rec = vrt_planrec_new(&in, L->k->name);
	vrt_free(state);
}

/* Runs every range through the pipeline: range i waits for its set,
 * which range i - nsets held. */
static cl_int run_ranges(vrt_launch *L, paged *P)
{
	cl_int err = CL_SUCCESS;
	/* A long launch's line on a terminal (progress.c); not of a split
	 * launch's shares, which run side by side. */
	vrt_progress pr;
	vrt_progress_begin(&pr, L->k->name, P->nranges, L->share ? NULL : L->st);
	record_start(L, P);
	for (size_t i = 0; i < P->nranges && !err; i++) {
		while (!err && P->done + P->nsets <= i) {
			err = finish_range(L, P, P->done);
			vrt_progress_step(&pr, P->done);
		}
		if (!err)
			err = start_range(L, P, i);
	}
	cl_int checked = vrt_planrec_end(P->rec, !err);
	P->rec = NULL;
	if (!err)
		err = checked;
	if (!err && !L->share) {
		double t0 = vrt_now_ms();
		remember(L, P, 0);
		vrt_trace_host("remember", L->k->name, t0, vrt_now_ms(), -1, 0);
	}
	while (!err && P->done < P->nranges) {
		if (may_defer(L, P)) {
			err = defer_ranges(L, P);
			break;
		}
		err = finish_range(L, P, P->done);
		vrt_progress_step(&pr, P->done);
	}
	vrt_progress_end(&pr);
	return err;
}

/* A boxed slot goes in straight from its host copy (move_box), with no
 * page of it taken from the kept frames: pages an earlier launch left
 * there dirty go home first, from this launch's sets and any other
 * pool's. It leaves none there itself: its boxes go home at once. */
static cl_int boxes_home(vrt_launch *L, paged *P)
{
	cl_int err = CL_SUCCESS;
	for (unsigned s = 1; s <= L->nslots && !err; s++) {
		vrt_mem *m = L->slot_mem[s];
		if (L->share || !vrt_fp_boxed(P->fp, s))
			continue;
		if (vrt_pool_any_newer(&P->devs, m))
			err = write_home(&P->devs, L->ctx, L->dev, m, 0);
		if (!err && vrt_framepool_newer(m))
			err = vrt_framepool_write_home(m);
	}
	return err;
}

/* One paged launch; `keep`: some buffers may stay whole on the device
 * (keep_resident). L2 (NULL: none): a fused launch's second kernel, mode1
 * the first's own slot modes (vrt_paged_run_fused). */
static cl_int paged_run(vrt_launch *L, int keep, vrt_launch *L2, const unsigned *mode1,
                        struct paged *pre)
{
	vrt_kernel *k = L->k;
	double t0 = vrt_now_ms(), t1 = 0;
	paged *P = vrt_calloc(1, sizeof *P);
	cl_int err;
	if (!P || !(P->tail = vrt_calloc(1, sizeof *P->tail))) {
		vrt_free(P);
		return CL_OUT_OF_HOST_MEMORY;
	}
	P->L2 = L2;
	P->pre = pre;
	for (unsigned s = 0; s <= VAST_MAX_SLOTS; s++)
		P->loc[s] = -1;
	if (L2)
		memcpy(P->mode1, mode1, sizeof P->mode1);

	/* The paged path works from the host copies, and its frames need
	 * the budget: every slot gets one, and every resident buffer comes
	 * home first, but those it keeps whole there. */
	P->full_budget = L->budget;
	memset(L->res_buf, 0, sizeof L->res_buf);
	L->hold_slot = 0;
	L->hold_bytes = 0;
	L->beside = 0;
	int keeps = keep && keeps_allowed(L);
	if (keeps)
		keep_resident(L, P);
	choose_hold(L, P, keeps);
	for (unsigned s = 1; keeps && s <= L->nslots; s++)
		if (L->slot_mem[s]->paged_uses < 2 && first_slot_of(L, s))
			L->slot_mem[s]->paged_uses++;
	for (unsigned s = 1; s <= L->nslots; s++)
		if ((err = vrt_mem_host_copy(L->slot_mem[s])) != CL_SUCCESS)
			goto out;
	if ((err = vrt_room_for_paging(L, P->res, P->nres, frames_least(L))) != CL_SUCCESS)
		goto out;
	first_layout(L, P);

	if ((err = vrt_kernel_variant(k, "paged", &P->kp)) != CL_SUCCESS)
		goto out;
	if (vrt_straight_may_run(L) && (err = vrt_kernel_variant(k, "straight", &P->ks)) != CL_SUCCESS)
		goto out;
	if (L2 && ((err = vrt_kernel_variant(L2->k, "paged", &P->kp2)) != CL_SUCCESS ||
	           (vrt_straight_may_run(L2) &&
	            (err = vrt_kernel_variant(L2->k, "straight", &P->ks2)) != CL_SUCCESS)))
		goto out;
	if (!(P->qs = queues_for(L->ctx, L->dev, &err)))
		goto out;
	vrt_trace_host("prepare", k->name, t0, vrt_now_ms(), -1, 0);
	if ((err = plan_and_make_sets(L, P)) != CL_SUCCESS)
		goto out;
	/* A split launch's shares copy host copies of their own: pending
	 * writes of theirs are copied whole first (pending.c). */
	for (unsigned s = 1; L->share && s <= L->nslots; s++)
		vrt_pend_settle(L->slot_mem[s]);
	if ((err = boxes_home(L, P)) != CL_SUCCESS)
		goto out;
	/* The slots whose reads queued behind may be filled range by range
	 * (deliver.c): written, paged. */
	for (unsigned s = 1; !L->share && s <= L->nslots; s++)
		if ((L->slot_mode[s] & VAST_MODE_W) && !P->lay.res_buf[s])
			P->deliver |= (uint64_t)1 << s;
	if ((err = set_launch_args(L, P, P->kp, VAST_HAS_PAGED)) != CL_SUCCESS ||
	    (P->ks && (err = set_launch_args(L, P, P->ks, VAST_HAS_STRAIGHT)) != CL_SUCCESS) ||
	    (L2 && (err = set_launch_args(L2, P, P->kp2, VAST_HAS_PAGED)) != CL_SUCCESS) ||
	    (P->ks2 && (err = set_launch_args(L2, P, P->ks2, VAST_HAS_STRAIGHT)) != CL_SUCCESS))
		goto out;
	err = run_ranges(L, P);
	if (err == CL_SUCCESS && L2) {
		L2->st->ranges += P->nranges;
		L2->st->fused++;
	}
	/* Written slots are current on the host, or in the last ranges'
	 * frames (lazy slots, remember), as the directory says (record_home,
	 * record_held, remember), and changed: new versions, so kept plans
	 * that read them are stale (plans.c). A split launch's shares leave
	 * that to it (launch.c). */
	for (unsigned s = 1; !L->share && s <= L->nslots; s++) {
		if ((L->slot_mode[s] & VAST_MODE_W) && L->res_buf[s])
			vrt_mem_dev_written(L->slot_mem[s]);
		else if (L->slot_mode[s] & VAST_MODE_W)
			vrt_mem_changed(L->slot_mem[s]);
	}
	t1 = vrt_now_ms();
	if (err == CL_SUCCESS && !L->share)
		remember(L, P, 1);
out:
	if (P->qs && err != CL_SUCCESS) {
		/* After a failure commands may still be queued: let them drain
		 * before their buffers go. After success none is: each range's
		 * last D2H was waited for, and it follows its kernel, which
		 * follows the range's H2D and device copies (finish_range). */
		vrt_real.clFinish(P->qs->in);
		vrt_real.clFinish(P->qs->run);
		vrt_real.clFinish(P->qs->out);
	}
	/* Kept only after a launch that went well: after a device error its
	 * buffers may be what failed. */
	drop_sets(P, L, err == CL_SUCCESS);
	drop_tables(P);
	if (t1 > 0)
		vrt_trace_host("remember", k->name, t1, vrt_now_ms(), -1, 0);
	vrt_fp_plan_free(P->fp);
	vrt_fp_plan_free(P->fp2);
	if (P->pre)
		drop_plan(P->pre);
	vrt_free(P->written);
	vrt_free(P->gaps);
	vrt_free(P->whole);
	vrt_free(P->held);
	vrt_free(P->boxrow);
	vrt_free(P->poolrow);
	vrt_free(P->recrows);
	vrt_free(P->copies);
	vrt_free(P->forgot);
	vrt_free(P->forgetrow);
	vrt_free(P->spans);
	vrt_free(P->rects);
	vrt_free(P->tail); /* unless the launch's (defer_ranges) */
	if (P->last_run)
		vrt_real.clReleaseEvent(P->last_run);
	if (!P->cached) {
		vrt_free(P->rows);
		vrt_free(P->ranges);
		vrt_free(P->unions);
	}
	L->budget = P->full_budget;
	L->beside = 0;
	vrt_free(P);
	return err;
}

/* The least launch L must move across the link, on its own: of its
 * buffers' bytes F, those the budget B cannot hold must come in (F - B),
 * and as many of them go back as it writes (at most W): what h2d + d2h
 * compare with (VAST_STATS compulsory=; bench/iterative's bound). A
 * launch after it may find more on the device: over a sequence of
 * launches the sum is a bound the schedule may beat. */
static unsigned long long compulsory(const vrt_launch *L)
{
	unsigned long long f = 0, w = 0;
	for (unsigned s = 1; s <= L->nslots; s++) {
		f += L->slot_mem[s]->size;
		if (L->slot_mode[s] & VAST_MODE_W)
			w += L->slot_mem[s]->size;
	}
	unsigned long long in = f > L->budget ? f - L->budget : 0;
	return in + (w < in ? w : in);
}

/* L keeps no buffer whole and has no hold: how a launch leaves them,
 * and how a fused launch begins. */
static void keep_nothing(vrt_launch *L)
{
	memset(L->res_buf, 0, sizeof L->res_buf);
	L->hold_slot = 0;
	L->hold_bytes = 0;
}

cl_int vrt_paged_run(vrt_launch *L)
{
	if (!L->share)
		L->st->compulsory += compulsory(L);
	vrt_deliver_end(L, 0); /* an earlier try's */
	cl_int err = paged_run(L, 1, NULL, NULL, NULL);
	int kept = L->hold_bytes != 0;
	for (unsigned s = 1; s <= L->nslots; s++)
		kept |= L->res_buf[s];
	/* What the kept buffers left was too little (a work-group's pages
	 * do not fit it, or the device ran out of memory) before any range
	 * changed a byte: page them all. */
	if (err != CL_SUCCESS && kept && !L->partial && !L->no_retry) {
		vrt_log(VRT_LOG_INFO, "kernel '%s': paging every buffer after %s", L->k->name,
		        vrt_cl_error_name(err));
		L->k->keep_refused = (struct vrt_keep_hint){L->groups, L->budget};
		vrt_deliver_end(L, 0);
		err = paged_run(L, 0, NULL, NULL, NULL);
	}
	vrt_deliver_end(L, err == CL_SUCCESS);
	keep_nothing(L);
	return err;
}

cl_int vrt_paged_run_fused(vrt_launch *L, vrt_launch *L2, const unsigned *mode1)
{
	/* Nothing kept whole, no hold: the two kernels' pages share the frames. */
	keep_nothing(L);
	paged *plan;
	cl_int err = fused_plan(L, L2, mode1, &plan);
	if (err != CL_SUCCESS)
		return err;
	L->st->compulsory += compulsory(L);
	vrt_deliver_end(L, 0);
	err = paged_run(L, 0, L2, mode1, plan);
	vrt_deliver_end(L, err == CL_SUCCESS);
	return err;
}
