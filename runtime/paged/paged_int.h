/* SPDX-License-Identifier: MIT */
/*
 * paged_int.h - paged/'s own header, included by its files alone (paged.h
 * is the folder's interface): a paged launch's state (paged, its frame
 * sets fset, the queues) and the functions the files share.
 *
 * A launch through the files: paged.c plans it (planner.c cuts ranges,
 * plancache.c finds or keeps the plan; keeps.c first chooses the buffers
 * kept on the device) and makes its frame sets (sets.c), then runs each
 * range: the pages it needs from the host (pagefill.c), those taken from
 * the device instead (reuse.c), its transfers (move.c), its kernel
 * (kargs.c), and where its written pages go (writeback.c), all on the
 * queues of queues.c. The shared functions carry the vrt_paged_ prefix:
 * the runtime is linked into other people's programs.
 */
#ifndef VRT_PAGED_INT_H
#define VRT_PAGED_INT_H

#include "paged/paged.h"

#pragma GCC visibility push(hidden)

/* The runtime's own queues on one device of a context, made once and
 * kept (they hold a reference to the context), with profiling on for
 * VAST_TRACE and kernel_ms. Guarded by the runtime lock. */
typedef struct queues {
	cl_context ctx;
	cl_device_id dev;
	cl_command_queue in, run, out;
	struct queues *next;
} queues;

/* One frame set: what one range in flight holds. */
typedef struct fset {
	cl_mem frames[VAST_FRAME_BUFS], lptbuf, fault;
	unsigned char *stage;       /* staged slots' frames, one after another */
	size_t stage_off[VAST_MAX_SLOTS + 1]; /* a staged slot's place in stage */
	unsigned char *u, *prev_u;  /* union row of its range, of the previous one */
	/* Slot s's pages of u lie in [lo[s], hi[s]) (none: equal), of
	 * prev_u in [prev_lo[s], prev_hi[s]): a range's walks over a slot's
	 * pages cost its own pages, not the slot's (mark_extents). */
	size_t lo[VAST_MAX_SLOTS + 1], hi[VAST_MAX_SLOTS + 1];
	size_t prev_lo[VAST_MAX_SLOTS + 1], prev_hi[VAST_MAX_SLOTS + 1];
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
	/* Every range's LPT, frames, F->fill (pages_to_fill), its gaps and
	 * their copies (send_gaps), made once for a kept plan at its second
	 * launch (plan_tables) and kept with it (plans.c), or P's own
	 * (tables_owned) until they are; NULL: each range works out its own. */
	vrt_plan_tables tables;
	int tables_owned;
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

typedef struct span_job {
	const vrt_layout *lay;
	const vrt_span *sp;
	unsigned char *host, *stage;
} span_job;

/* --- planner.c: how a launch is cut into ranges and frames --------------- */
unsigned vrt_paged_choose_shift(unsigned long long budget);
const vrt_range *vrt_paged_range_at(const paged *P, size_t i);
int vrt_paged_range_boxes(const paged *P, const vrt_range *R, vrt_box2d *bx);
int vrt_paged_scratch_row(unsigned char **row, size_t *cap, size_t n);
size_t vrt_paged_frames_per_buf(const paged *P, unsigned sh);
cl_int vrt_paged_inspect_and_reduce(vrt_launch *L, paged *P);
/* P->fp and P->fp2: the fused pair's descriptors, the second following
 * the first; 1, 0 when they cannot plan the pair, -1 out of memory. */
int vrt_paged_fused_descriptors(vrt_launch *L, paged *P);
cl_int vrt_paged_plan_fused(vrt_launch *L, paged *P);
void vrt_paged_first_layout(vrt_launch *L, paged *P);
void vrt_paged_drop_plan(paged *D);
cl_int vrt_paged_fused_plan(vrt_launch *L, vrt_launch *L2, const unsigned *mode1, paged **plan);

/* --- plancache.c: the plan a launch runs: kept, fused or new ------------- */
void vrt_paged_drop_tables(paged *P);
cl_int vrt_paged_find_or_make_plan(vrt_launch *L, paged *P);
void vrt_paged_keep_plan(vrt_launch *L, paged *P);
cl_int vrt_paged_plan_tables(vrt_launch *L, paged *P);
void vrt_paged_tables_on_device(vrt_launch *L, paged *P);

/* --- keeps.c: what a launch keeps on the device beside its frames -------- */
void vrt_paged_keep_resident(vrt_launch *L, paged *P);
int vrt_paged_keeps_allowed(const vrt_launch *L);
int vrt_paged_first_slot_of(const vrt_launch *L, unsigned s);
void vrt_paged_drop_hold(vrt_devsets *d, cl_context ctx, cl_device_id dev);
void vrt_paged_choose_hold(vrt_launch *L, paged *P, int allowed);
cl_int vrt_paged_place_resident(vrt_launch *L, paged *P);
/* The least room of the budget the frames keep (an eighth, 64 pages a set). */
unsigned long long vrt_paged_frames_least(const vrt_launch *L);

/* --- sets.c: the frame sets of the ranges in flight ---------------------- */
cl_int vrt_paged_make_sets(vrt_launch *L, paged *P);
void vrt_paged_drop_sets(paged *P, const vrt_launch *L, int keep);

/* --- pagefill.c: which pages of a range come from the host --------------- */
size_t vrt_paged_page_bytes(const vrt_layout *lay, size_t size, size_t p);
cl_int vrt_paged_fill_of(vrt_launch *L, paged *P, const unsigned char *u, const vrt_frames *fr,
                         const uint32_t *lpt, size_t g0, size_t g1, unsigned char *fillrow);
cl_int vrt_paged_pages_to_fill(vrt_launch *L, paged *P, fset *F, size_t r, size_t g0, size_t g1);

/* --- reuse.c: pages kept on the device, reused --------------------------- */
int vrt_paged_sends_in(const vrt_launch *L, const paged *P, const fset *F, unsigned s);
cl_int vrt_paged_use_kept(vrt_launch *L, paged *P, size_t i, fset *F);
void vrt_paged_share_reads(const vrt_launch *L, paged *P, const fset *F);
cl_int vrt_paged_copy_kept(paged *P, fset *F);
void vrt_paged_remember(vrt_launch *L, paged *P, int written);
cl_int vrt_paged_hold_in(paged *P);
cl_int vrt_paged_record_held(vrt_launch *L, paged *P, const fset *F, size_t i);

/* --- move.c: a range's transfers ----------------------------------------- */
void vrt_paged_choose_direct(vrt_launch *L, paged *P);
void vrt_paged_keep(cl_event ev[2], cl_event e);
cl_event vrt_paged_last_of(cl_event ev[2]);
void vrt_paged_drop_events(fset *F);
void vrt_paged_scatter_share(void *ctx, size_t begin, size_t end);
cl_int vrt_paged_stage_layout(vrt_launch *L, paged *P, fset *F);
size_t vrt_paged_staged_spans(paged *P, const fset *F, const unsigned char *u, unsigned s,
                              vrt_span **sp);
int vrt_paged_in_by_ring(vrt_launch *L, paged *P, const fset *F, unsigned s);
cl_int vrt_paged_send_held(paged *P, cl_command_queue q, cl_event ev[2], size_t bytes);
cl_int vrt_paged_after_busy(paged *P, fset *F);
cl_int vrt_paged_move_box(vrt_launch *L, paged *P, size_t i, fset *F, unsigned s, int out);
cl_int vrt_paged_move_frames(vrt_launch *L, paged *P, fset *F, unsigned s, int out);
cl_int vrt_paged_forward(vrt_launch *L, paged *P, size_t i, fset *F);

/* --- kargs.c: a range's kernel ------------------------------------------- */
cl_int vrt_paged_send_lpt_and_fault(paged *P, fset *F);
cl_int vrt_paged_enqueue_kernel(vrt_launch *Lk, paged *P, fset *F, cl_kernel kp, cl_kernel ks,
                                size_t g0, size_t g1, int second, cl_kernel *kr_out);
cl_int vrt_paged_set_launch_args(vrt_launch *L, paged *P, cl_kernel kv, unsigned kind);

/* --- writeback.c: where written pages go, and going home ----------------- */
int vrt_paged_may_reside(const vrt_launch *L, unsigned s);
int vrt_paged_lazy_slot(const vrt_launch *L, unsigned s);
int vrt_paged_goes_home_now(const vrt_launch *L, const paged *P, const fset *F, unsigned s);
cl_int vrt_paged_read_home(cl_command_queue q, cl_mem fb, size_t frame, vrt_mem *m, size_t page,
                           size_t n, unsigned sh, unsigned long long *bytes);
cl_int vrt_paged_after_kernels(vrt_devsets *d, cl_command_queue q);
cl_int vrt_paged_write_runs_home(vrt_devsets *d, cl_command_queue q, const vrt_res_run *runs,
                                 size_t n);
cl_int vrt_paged_newer_home(vrt_devsets *d, cl_context ctx, cl_device_id dev, const vrt_mem *only,
                            int where);
cl_int vrt_paged_write_home(vrt_devsets *d, cl_context ctx, cl_device_id dev, const vrt_mem *only,
                            int move);
cl_int vrt_paged_record_home(vrt_launch *L, paged *P, const fset *F);
cl_int vrt_paged_boxes_home(vrt_launch *L, paged *P);

/* --- queues.c: the paged path's own queues ------------------------------- */
queues *vrt_paged_queues_for(cl_context ctx, cl_device_id dev, cl_int *err);

#pragma GCC visibility pop
#endif
