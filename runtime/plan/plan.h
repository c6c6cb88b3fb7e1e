/* SPDX-License-Identifier: MIT */
/*
 * plan.h - plan/: planning a paged launch, from its Page Accessed Sets
 * to ranges, frames and moves. PAS reduction (pas.c, Algorithm 1), page
 * tables and frames (lpt.c), footprints from descriptors (footprint.c,
 * footprint.h: pure, unit-tested alone; boxframes.c, cover.c), rows and
 * ranges planned from them (fprows.c, fpplan.c), the pieces of pages a
 * range writes in part (gaps.c), spans moved as rectangles (rects.c),
 * work-group boxes (groupbox.c), the plans kept for later launches
 * (plans.c) and what each range of a plan moves (moves.c). Uses mem/ and
 * the folders below it.
 */
#ifndef VRT_PLAN_H
#define VRT_PLAN_H

#include "mem/mem.h"
#include "plan/footprint.h"

#pragma GCC visibility push(hidden)

/* --- pas.c: Page Accessed Sets and their reduction (Algorithm 1) -------- */
/* The frame buffers a set may use: those below every resident slot's
 * and the hold's. */
static inline unsigned vrt_set_bufs(const vrt_layout *l)
{
	unsigned n = VAST_FRAME_BUFS;
	for (unsigned s = 1; s <= l->nslots; s++)
		if (l->res_buf[s] && l->res_buf[s] < n)
			n = l->res_buf[s];
	if (l->hold_slot && l->hold_buf < n)
		n = l->hold_buf;
	return n;
}
/* Fills pages, offsets and row_bytes from nslots, page_shift and sizes. */
void vrt_layout_init(vrt_layout *l);
/* Bytes of the LPT (uint entries) of this layout. */
size_t vrt_lpt_bytes(const vrt_layout *l);
/* Device bytes a range needs: frames of `pages` pages plus scratch frame
 * 0, plus the LPT. */
unsigned long long vrt_range_footprint(const vrt_layout *l, size_t pages);
/* The frames (pages of 2^sh bytes) a set of one frame buffer gets from
 * its share of the budget beside an LPT of lb bytes. The LPT is set
 * aside in steps of 1/32 of the share, not to the byte: the kernels of a
 * pipeline have LPTs of different sizes (fdtd2d's hz has three slots, ex
 * two), and frames sized to the byte differed by a page or two, so each
 * launch dropped the one before's frame buffers and the pages they held
 * (paged/sets.c, make_sets). */
unsigned long long vrt_frames_beside_lpt(unsigned long long share, size_t lb, unsigned sh);
/* Pages of the hold's slot union row u touches when they all lie in the
 * hold (a range bound to it, lpt.c), 0 otherwise. */
size_t vrt_pas_held(const vrt_layout *l, const unsigned char *u);
/* Pages of union row u that take frames of a set: all of them, less
 * the hold's slot's where they all lie in the hold (lpt.c binds them
 * there). */
size_t vrt_pas_frame_pages(const vrt_layout *l, const unsigned char *u);
/* vrt_pas_frame_pages of a row that was clear before marks m[0..nslots]
 * (vrt_fp_union_marked), from the marks alone: the pages they set, less
 * the hold's slot's where they all lie in the hold. */
size_t vrt_pas_marked_frames(const vrt_layout *l, const vrt_marked *m);
/* Clears the pages marks m[0..nslots] reached in row: clear again, at
 * the cost of those pages, not the row's. */
void vrt_pas_clear_marked(const vrt_layout *l, unsigned char *row, const vrt_marked *m);
/* Normalizes marks to 0/1 (any non-zero byte is a touched page). */
void vrt_pas_normalize(unsigned char *rows, size_t bytes);
/* dst |= src over n bytes (n a multiple of 8); returns the pages newly set. */
size_t vrt_pas_or(unsigned char *dst, const unsigned char *src, size_t n);
size_t vrt_pas_count(const unsigned char *row, size_t n);
/* Pages set in a and not in b, over n bytes (a multiple of 8). */
size_t vrt_pas_count_new(const unsigned char *a, const unsigned char *b, size_t n);
/* The first marked (non-zero) byte of row[from .. n), n when none (or
 * from >= n), and in *end (when not n) the end of its run: the first
 * unmarked byte after it, or n. Reads nothing at or past n; a word at a time, so a
 * walk of a row's runs costs its words and runs, not its bytes. */
size_t vrt_pas_next_run(const unsigned char *row, size_t from, size_t n, size_t *end);
/* [*lo, *hi): row[0 .. n) from its first marked byte to past its last,
 * a word at a time from both ends; *lo == *hi (0) when none is. */
void vrt_pas_extent(const unsigned char *row, size_t n, size_t *lo, size_t *hi);

typedef struct vrt_range {
	size_t first_row, last_row; /* inclusive */
	size_t pages;               /* pages in the union of its rows */
} vrt_range;
/* Algorithm 1: OR consecutive rows while the union's footprint fits the
 * budget; cut a range there. On success *ranges (vrt_free) holds the
 * ranges in order. Returns 0, or -1 with *bad_row set to a row that
 * alone does not fit, or -2 when out of memory. */
int vrt_pas_reduce(const vrt_layout *l, const unsigned char *rows,
                   size_t nrows, unsigned long long budget,
                   vrt_range **ranges, size_t *nranges, size_t *bad_row);
/* The same for `sets` frame sets in flight: ranges cut against
 * budget/sets, and with sets > 1 and several ranges the first cut again
 * against a quarter of that (when its rows allow) so a pipeline fills
 * fast. Same returns. */
int vrt_pas_reduce_sets(const vrt_layout *l, const unsigned char *rows, size_t nrows,
                        unsigned long long budget, unsigned sets, vrt_range **ranges,
                        size_t *nranges, size_t *bad_row);

/* --- lpt.c: page tables, frames and recovery ---------------------------- */
/* One run of consecutive resident pages of a slot: frames are
 * contiguous too, so a span moves with one copy. */
typedef struct vrt_span {
	unsigned slot;
	size_t page, npages, frame;
} vrt_span;
/* Where a range's frames lie: slot s has count[s] frames from frame
 * first[s] of device buffer buf[s]; buffer b holds used[b] frames. */
typedef struct vrt_frames {
	size_t first[VAST_MAX_SLOTS + 1], count[VAST_MAX_SLOTS + 1];
	unsigned buf[VAST_MAX_SLOTS + 1];
	unsigned long long lo[VAST_MAX_SLOTS + 1]; /* the run's first byte, when straight */
	size_t used[VAST_FRAME_BUFS];
	/* Every slot's frames are one run of pages or none: the straight
	 * variant may run the range (docs/generated-kernels.md). */
	int straight;
	unsigned held;              /* the hold's slot, bound to the hold (0: none) */
} vrt_frames;
/* Index in the LPT of the run table (vast/stub.h, VAST_LPT_*): the first
 * entry boundary after the header; inline, as the reduction (pas.c) sizes
 * LPTs too. */
static inline size_t vrt_lpt_runs_index(unsigned nslots)
{
	const size_t e = VAST_LPT_ENTRY_WORDS;
	return (VAST_LPT_HEADER((size_t)nslots) + e - 1) / e * e;
}
/* Slot s's page table in an LPT. */
static inline const uint32_t *vrt_lpt_table(const uint32_t *lpt, unsigned s)
{
	return lpt + lpt[VAST_LPT_TABLE(s)];
}
/* Work-groups of an N-D launch: the first in each dimension and how many
 * (groupbox.c). */
typedef struct vrt_gbox {
	size_t origin[3], count[3];
} vrt_gbox;
/* The groups [g0, g1) of a launch of ngrp[0] x ngrp[1] x ngrp[2] groups,
 * flattened with dimension 0 fastest, as at most five boxes, in order;
 * returns how many. */
unsigned vrt_group_boxes(size_t g0, size_t g1, const size_t ngrp[3], vrt_gbox box[5]);
/* Builds the LPT of a range from the union row `u` (0/1 per page): frames
 * slot by slot, pages ascending, no gaps, each slot's within one buffer
 * of at most per_buf frames (frame 0 of buffer 0 is scratch). A slot s
 * with boxes[s].rows (boxes may be NULL) takes the frames of its packed
 * box instead, and no page of it has one. lpt has vrt_lpt_bytes(l)/4
 * entries. Returns 0, or -1 when the frames do not fit VAST_FRAME_BUFS
 * such buffers. */
int vrt_lpt_build(const vrt_layout *l, const unsigned char *u, const vrt_box2d *boxes,
                  size_t per_buf, uint32_t *lpt, vrt_frames *fr);
/* Spans of slot s in u; returns the count, *spans (vrt_free) or NULL. */
size_t vrt_spans(const vrt_layout *l, const unsigned char *u,
                 const uint32_t *lpt, unsigned s, vrt_span **spans);
/* The same into *spans, a buffer of *cap spans the caller keeps (vrt_free),
 * grown when too small: no allocation per call once large enough; of
 * slot s's pages [lo, hi) alone (where u marks them all: a range's
 * extent, paged/), found a word at a time. */
size_t vrt_spans_in(const vrt_layout *l, const unsigned char *u, const uint32_t *lpt,
                    unsigned s, size_t lo, size_t hi, vrt_span **spans, size_t *cap);
/* Bytes of the span that lie inside the buffer. */
size_t vrt_span_valid(const vrt_layout *l, const vrt_span *sp);
/* Frames <- host: copies the pages of a span from the buffer's host copy
 * into the frame image (the bytes past the buffer's end are zeroed). */
void vrt_gather(const vrt_layout *l, const vrt_span *sp,
                const unsigned char *host, unsigned char *frames);
/* Host <- frames: copies the span back, only the buffer's valid bytes of
 * its last page. */
void vrt_scatter(const vrt_layout *l, const vrt_span *sp,
                 unsigned char *host, const unsigned char *frames);

/* --- rects.c: spans that move as rectangles ----------------------------- */
/* Spans sp[first .. first+rows) of one slot as one copy: row k is
 * row_bytes at host_off + k*host_pitch of the host copy and at dev_off +
 * k*dev_pitch of the frames. rows == 1: a linear copy of row_bytes. */
typedef struct vrt_rect {
	size_t rows;
	size_t host_off, dev_off, row_bytes, host_pitch, dev_pitch;
} vrt_rect;
/* Groups the spans of one slot (vrt_spans, in order) into rectangles of
 * spans of one length at one pitch whose frames follow one another;
 * returns the count and *rects (vrt_free), (size_t)-1 out of memory. */
size_t vrt_span_rects(const vrt_layout *l, const vrt_span *sp, size_t nsp, vrt_rect **rects);
/* The same into *rects, a buffer of *cap the caller keeps, grown as
 * vrt_spans_in grows its. */
size_t vrt_span_rects_in(const vrt_layout *l, const vrt_span *sp, size_t nsp, vrt_rect **rects,
                         size_t *cap);
/* Enqueues rectangle r between the host copy `host` and `frames`, to the
 * host when out, non-blocking, after the event `after` (NULL: none). */
cl_int vrt_rect_move(cl_command_queue q, cl_mem frames, const vrt_rect *r, unsigned char *host,
                     int out, cl_event after, cl_event *e);

/* --- gaps.c ------------------------------------------------------------- */
/* The pieces [lo, hi) (buffer offsets, within page `page`) of
 * pages a range writes partly whole, which alone go in from the host.
 * Groups them (in buffer order, as vrt_fp_gaps gives them page by page)
 * into rectangles of pieces of one length whose places in the buffer and
 * the frames (frame_of[page], frames of 2^shift bytes) advance by
 * constant steps; returns the count and *rects (vrt_free), (size_t)-1 out
 * of memory. */
typedef struct vrt_gap {
	unsigned slot;
	size_t page, lo, hi;
} vrt_gap;
size_t vrt_gap_rects(const vrt_gap *g, size_t n, unsigned shift, const uint32_t *frame_of,
                     vrt_rect **rects);
/* Sending nrects rectangles of `rows` rows in all is cheaper than sending
 * whole_bytes of whole pages. */
int vrt_gaps_worth(size_t nrects, size_t rows, unsigned long long whole_bytes);

/* --- plans.c ------------------------------------------------------------ */
/* A plan's tables, worked out once with it rather than range by range:
 * every range's LPT and frames (vrt_lpt_build), range r's table at
 * lpts + r * lpt_words, its frames at frames[r]; every range's pages
 * filled from the host, a row each (fills), and the pieces of those
 * filled by their gaps, range r's gaps[gaps_at[r] .. gaps_at[r + 1]);
 * and the copies of range r's gaps of slot s (vrt_gap_rects),
 * gap_rects[gap_rects_at[k] .. gap_rects_at[k + 1]), k = r * (nslots +
 * 1) + s. NULL members: not made, each range works out its own. */
typedef struct vrt_plan_tables {
	uint32_t *lpts;
	vrt_frames *frames;
	size_t lpt_words;
	unsigned char *fills;
	vrt_gap *gaps;
	size_t *gaps_at;
	vrt_rect *gap_rects;
	size_t *gap_rects_at;
} vrt_plan_tables;
/* Frees t's tables (not t). */
void vrt_plan_tables_free(vrt_plan_tables *t);
/* The plan of a paged launch, kept for later launches like it
 * (same kernel, device, budget, geometry, scalar arguments and buffers;
 * for a buffer the inspector reads, the same contents). */
typedef struct vrt_plan {
	vrt_layout lay;
	size_t wpp, nrows;
	unsigned char *rows;        /* nrows PAS rows */
	vrt_range *ranges;
	size_t nranges;
	unsigned char *unions;      /* each range's pages, then all (paged/planner.c) */
	uint64_t shared;            /* slots with pages several ranges touch */
	unsigned nsets;
	size_t buf_frames[VAST_FRAME_BUFS]; /* frames of each buffer of a set */
	unsigned char boxed[VAST_MAX_SLOTS + 1]; /* slots planned as boxes */
	/* Its tables, made at its second launch (paged/plancache.c,
	 * plan_tables) and reused by every launch that runs it. */
	vrt_plan_tables tables;
	/* Set by vrt_plan_keep, never reused: what a device's copy of the
	 * tables is kept under (paged/lpts.c). 0: a plan not kept. */
	unsigned long long serial;
	/* No plan: a fused pair that could not be fused (paged/paged.c,
	 * vrt_paged_run_fused), kept so that a pair like it is not planned
	 * again only to be refused again. */
	int refused;
} vrt_plan;
typedef struct vrt_plans vrt_plans;
/* The plan kept for a launch like L, NULL when none. It stays L->k's,
 * valid until the next vrt_plan_keep on that kernel. */
const vrt_plan *vrt_plan_find(const vrt_launch *L);
/* Keeps *p for launches like L, taking p->rows, ranges, unions and
 * tables (freed with the plan) and giving it a serial; returns the kept
 * plan, or NULL when out of memory (nothing was taken). May drop the
 * kernel's least recently used plan. from_fp:
 * the plan was made from footprint descriptors alone, so launches that
 * differ from L only in scalars they do not name share it. */
const vrt_plan *vrt_plan_keep(const vrt_launch *L, const vrt_plan *p, int from_fp);
/* vrt_plan_find and vrt_plan_keep for a fused launch (paged/planner.c,
 * plan_fused): L2's kernel runs after L's on each range, over L's slots
 * (L2's arguments mapped into them), mode1[s] the mode of L's kernel
 * alone. The plan is L->k's, as a plan of L alone is. */
const vrt_plan *vrt_plan_find_fused(const vrt_launch *L, const vrt_launch *L2,
                                    const unsigned *mode1);
const vrt_plan *vrt_plan_keep_fused(const vrt_launch *L, const vrt_launch *L2,
                                    const unsigned *mode1, const vrt_plan *p);
/* Frees a kernel's list of plans. */
void vrt_plans_free(vrt_plans *plans);

/* --- fprows.c ----------------------------------------------------------- */
/* Planning from footprint descriptors. A plan exists when some
 * global access of L's kernel has a descriptor and the arguments they
 * name are known; NULL otherwise (*oom set when out of memory). Only
 * vrt_fp_must_write answers for a kernel with accesses that have none
 * (mixed): the others then return 0. */
typedef struct vrt_fp_plan vrt_fp_plan;
vrt_fp_plan *vrt_fp_plan_new(const vrt_launch *L, int *oom);
/* Slot s of L is reached through an access whose address is data the host
 * does not evaluate (spmv's x[col[i]]): only an inspector finds its
 * pages, unless the buffer is on the device whole (L->res_buf[s]: then
 * its descriptors are not needed, and a plan of the others' is complete). */
int vrt_fp_slot_indirect(const vrt_launch *L, unsigned s);
/* named[i] = 1 (i < nargs) for each argument k's descriptors name: all a
 * plan made from them depends on of the scalars (plans.c). 0 when k has
 * no descriptors (or they are off). */
int vrt_fp_named_args(const vrt_kernel *k, unsigned char *named, unsigned nargs);
void vrt_fp_plan_free(vrt_fp_plan *P);
/* Sets row (a PAS row of lay) to the pages groups [g0, g1) touch, from
 * the boxes of the whole range at once (or a superset); the same returns
 * as vrt_fp_rows. */
int vrt_fp_union(vrt_fp_plan *P, const vrt_layout *lay, size_t g0, size_t g1,
                 unsigned char *row);
/* vrt_fp_union into a row that is clear (0) where it marks, not cleared
 * first; m[0..nslots] gets what the marks did in each slot (for
 * vrt_pas_marked_frames and vrt_pas_clear_marked). A search's probes
 * cost the pages they mark, not the row's (fpplan.c). */
int vrt_fp_union_marked(vrt_fp_plan *P, const vrt_layout *lay, size_t g0, size_t g1,
                        unsigned char *row, vrt_marked *m);
/* vrt_fp_union of P's own accesses alone, without the kernel that
 * follows it (vrt_fp_follow). */
int vrt_fp_union_own(vrt_fp_plan *P, const vrt_layout *lay, size_t g0, size_t g1,
                     unsigned char *row);
/* A fused launch (paged/planner.c): `next`, a plan over the same slots of
 * the kernel that runs after P's on each range, joins P's vrt_fp_union (and
 * so the ranges planned from P); nothing else of P's answers includes it.
 * next stays the caller's, and must outlive P's use. */
void vrt_fp_follow(vrt_fp_plan *P, vrt_fp_plan *next);
/* Every access of P's kernel has a descriptor the host evaluates (P may
 * be NULL: 0). */
int vrt_fp_complete(const vrt_fp_plan *P);
/* Fills rows as the inspector would (or a superset); 1 when done and
 * every descriptor was exact (the inspector's pages), 2 when done with
 * some a superset, 0 when a descriptor cannot be evaluated for this
 * launch (the inspector must), -1 out of memory. */
int vrt_fp_rows(vrt_fp_plan *P, const vrt_layout *lay, size_t wpp, unsigned char *rows,
                size_t nrows);
/* pages[p] = 1 (of slot s's slot_pages) for each page whose every byte
 * in the buffer groups [g0, g1) certainly write (exact must-write
 * descriptors); 1 when done, 0 when nothing is known (ignore pages), -1
 * out of memory. */
int vrt_fp_must_write(vrt_fp_plan *P, const vrt_layout *lay, unsigned s, size_t g0, size_t g1,
                      unsigned char *pages);
/* After vrt_fp_must_write: the bytes of page `page` of the slot (pages of
 * 2^shift bytes, the buffer `size` bytes) its must-write boxes leave out,
 * as up to max (at most VRT_GAPS_MAX) pieces [lo[i], hi[i]) of buffer
 * offsets, in order; returns how many, more than max when there are
 * more. */
#define VRT_GAPS_MAX 64
size_t vrt_fp_gaps(const vrt_fp_plan *P, size_t page, unsigned shift, size_t size,
                   size_t *lo, size_t *hi, size_t max);
/* pages[p] = 1 (of npages pages of 2^shift bytes) for each page of slot s
 * that any of L's groups may write (a superset); 1 when done, 0 when
 * nothing is known, -1 out of memory. */
int vrt_fp_may_write(vrt_fp_plan *P, unsigned s, unsigned shift, size_t npages,
                     unsigned char *pages);
/* [*lo, *hi): the bytes of slot s that groups [g0, g1) may write, from
 * their first to their last (*lo >= *hi: none); 1 when done, 0 when
 * nothing is known, -1 out of memory. */
int vrt_fp_write_span(vrt_fp_plan *P, unsigned s, size_t g0, size_t g1, long long *lo,
                      long long *hi);
/* Sets pages[p] = 1 (of slot s's slot_pages; others left) for each page
 * of slot s that groups [g0, g1) may access, read or written, even when
 * the kernel's other accesses have no descriptor; 1 when done, 0 when an
 * access that may reach s has none usable, -1 out of memory. */
int vrt_fp_slot_pages(vrt_fp_plan *P, const vrt_layout *lay, unsigned s, size_t g0, size_t g1,
                      unsigned char *pages);
/* Box frames (boxframes.c): slot s's bytes for groups [g0, g1) as one
 * strided box; 1 when they are, 0 when not (an access that may reach s
 * has no usable descriptor, none strides, pitches differ, a row crosses
 * the pitch, the box passes the buffer), -1 out of memory. */
int vrt_fp_slot_box(vrt_fp_plan *P, unsigned s, size_t g0, size_t g1, vrt_box2d *box);
/* The slots (outside sub-buffer families; read-only ones in a share of a
 * split launch) whose bytes for groups
 * [g0, g1) are one strided box, and with waste > 0 whose pages of lay
 * hold at least waste times its bytes or lie in at least `runs` runs
 * (runs > 0), go in as boxes from now on in P's plans (vrt_fp_union
 * leaves them out), with those boxed already; returns how many it adds.
 * Out of memory adds fewer. */
int vrt_fp_choose_boxes(vrt_fp_plan *P, const vrt_layout *lay, size_t g0, size_t g1,
                        unsigned waste, size_t runs);
/* Whether groups [g0, g1) certainly write every byte of slot s's box
 * (exact must-write descriptors): 1 yes, 0 not known, -1 out of memory.
 * Only a slot the kernel never reads may then skip its box's fill. */
int vrt_fp_box_written(vrt_fp_plan *P, const vrt_layout *lay, unsigned s, size_t g0,
                       size_t g1, const vrt_box2d *box);
/* Boxed slots go back to pages: the written ones, or all. */
void vrt_fp_unbox(vrt_fp_plan *P, int written_only);
/* The boxed slots as flags (boxed[s], s <= VAST_MAX_SLOTS), to keep with
 * a plan, and set again on a new vrt_fp_plan of a launch like it. */
void vrt_fp_boxes_get(const vrt_fp_plan *P, unsigned char *boxed);
void vrt_fp_boxes_set(vrt_fp_plan *P, const unsigned char *boxed);
int vrt_fp_boxed(const vrt_fp_plan *P, unsigned s);   /* P may be NULL */
int vrt_fp_boxed_any(const vrt_fp_plan *P);
/* The frames (pages of 2^shift bytes) the boxed slots take for groups
 * [g0, g1), each slot's box in boxes[s] when not NULL (rows 0 for slots
 * not boxed); (size_t)-1 when a box cannot be made (or out of memory). */
size_t vrt_fp_box_frames(vrt_fp_plan *P, unsigned shift, size_t g0, size_t g1, vrt_box2d *boxes);

/* --- fpplan.c ----------------------------------------------------------- */
/* A descriptor-planned launch's ranges straight from the boxes,
 * one work-group per PAS row (first_row, last_row are groups) and no rows
 * built: the same ranges vrt_pas_reduce_sets makes of rows of one group
 * each, when the union grows with the range (always, for exact
 * descriptors). *unions (vrt_free) holds each range's pages, then all
 * (P->unions, paged/planner.c); *exact: 0 when some descriptor was a
 * superset.
 * slot_max: the most pages one slot of a range may have (0: any).
 * Returns 0, -1 with *bad_group a group that alone does not fit
 * budget/sets, -2 out of memory, -3 when a descriptor cannot be
 * evaluated (the inspector must plan). */
int vrt_fp_plan_ranges(vrt_fp_plan *P, const vrt_layout *lay, size_t groups,
                       unsigned long long budget, unsigned sets, size_t slot_max,
                       vrt_range **ranges, size_t *nranges, unsigned char **unions,
                       size_t *bad_group, int *exact);

/* --- moves.c: what each range moves ------------------------------------- */
/* Where a page's current bytes lie before a launch (a row of these, one
 * byte a page of the layout): the host copy alone, also a kept frame's
 * copy (clean), a kept frame alone (dirty: the host copy is stale), or
 * the hold. */
enum { VRT_AT_HOST = 0, VRT_AT_KEPT, VRT_AT_DIRTY, VRT_AT_HOLD };
/* How a range gets a page it touches, before its kernel. */
enum {
	VRT_IN_NONE = 0,            /* not touched (or a slot kept whole, a box) */
	VRT_IN_HOST,                /* sent from the host copy */
	VRT_IN_KEPT,                /* taken from a kept frame (or left in place) */
	VRT_IN_HOLD,                /* taken from the hold */
	VRT_IN_FORWARD,             /* copied from an earlier range still in flight */
	VRT_IN_WRITTEN              /* written whole: nothing goes in */
};
/* Where a page the range writes goes after its kernel. */
enum {
	VRT_OUT_NONE = 0,           /* not written */
	VRT_OUT_HOME,               /* to the host copy, when the range finishes */
	VRT_OUT_DIRTY,              /* left dirty in the frames (lazily home) */
	VRT_OUT_HELD                /* recorded in the hold, dirty */
};
/* A launch to plan the moves of: its ranges' pages, in the order they
 * run, and what the launch and the device's frames know of them. All
 * rows are rows of lay; the planner reads them only. */
typedef struct vrt_move_input {
	const vrt_layout *lay;
	size_t nranges;
	const unsigned char *unions; /* nranges rows: the pages each range touches */
	const unsigned char *whole;  /* nranges rows: pages it writes whole with
	                              * nothing read first (must-write descriptors
	                              * of a slot only written); NULL: none */
	unsigned mode[VAST_MAX_SLOTS + 1]; /* VAST_MODE_R, VAST_MODE_W bits */
	unsigned nsets;              /* frame sets in flight (>= 1) */
	uint64_t resides;            /* slots whose pages kept frames may hold */
	uint64_t lazy;               /* written slots that may stay dirty in frames */
	uint64_t shared;             /* read-only slots whose pages a range leaves
	                              * to the later ranges (share_reads) */
	const unsigned char *state;  /* a row of VRT_AT_*; NULL: all on the host */
} vrt_move_input;
/* One move: a run of pages of one slot with the same VRT_IN_* (out 0) or
 * VRT_OUT_* (out 1); from: the range (run order) a forwarded run comes
 * from; bytes: the buffer's bytes of those pages (the last one's valid
 * bytes only). */
typedef struct vrt_move {
	unsigned char kind, out;
	unsigned slot;
	size_t page, npages, from;
	unsigned long long bytes;
} vrt_move;
/* Bytes by kind: of a range, or of the launch. */
typedef struct vrt_move_bytes {
	unsigned long long in_host, in_kept, in_hold, forwarded, written, home, dirty, held;
} vrt_move_bytes;
typedef struct vrt_moves {
	size_t nranges;
	unsigned char *in, *out;     /* nranges rows of VRT_IN_*, VRT_OUT_* */
	unsigned char *after;        /* a row of VRT_AT_*: the state the launch leaves */
	vrt_move *moves;             /* every range's moves, range by range */
	size_t *first;               /* nranges + 1: range i's are moves[first[i] ..
	                              * first[i + 1]) */
	vrt_move_bytes *bytes;       /* nranges */
	vrt_move_bytes total;
} vrt_moves;
/* Plans what each range of `in` moves, as the paged executor does
 * (paged/): a page a written slot's range still in flight (the nsets - 1
 * ranges before) touches is forwarded from it; else a page the hold or a
 * kept frame holds is taken from there; else it comes from the host,
 * unless the range writes it whole. A read-only slot's pages the set's
 * previous range had, the same ones, stay in place (kept). A range whose
 * pages of the hold's slot all lie in the hold is bound to it. Written
 * pages go home when the range finishes, stay dirty in the frames where
 * the launch's ranges all have sets of their own and the slot is lazy,
 * or stay in the hold. Pure (no device, no globals: thread-safe on its
 * own input). Returns 0 with *out (vrt_moves_free), -1 out of memory. */
int vrt_moves_plan(const vrt_move_input *in, vrt_moves **out);
void vrt_moves_free(vrt_moves *m);
/* Whether a page (index k into M's rows) moved as M says, where the
 * executor sent it from the host or not (sent) and put what it wrote
 * where `out` (VRT_OUT_*) says: every page M sends the range sent; every
 * page the range sent M sends too, takes from a kept frame (the executor
 * may have lost the copy to a reused frame, or sent a staged slot whole)
 * or from an earlier range (sent, then copied over); and written pages
 * go where M says. */
int vrt_moves_agree(const vrt_moves *M, size_t k, int sent, unsigned out);
/* Bytes of page p of slot s that lie in its buffer. */
unsigned long long vrt_page_valid(const vrt_layout *lay, unsigned s, size_t p);

#pragma GCC visibility pop
#endif
