/* SPDX-License-Identifier: MIT */
/*
 * paged.h - paged/: a launch run range by range through frames
 * (paged.c, and the files paged_int.h lists), its last device work
 * completed after the next command (tail.c), and the reads queued
 * behind it, filled as it runs (deliver.c), and what its ranges moved
 * recorded against the planner's move list (planrec.c). Uses inspect/
 * and the folders below it.
 */
#ifndef VRT_PAGED_H
#define VRT_PAGED_H

#include "inspect/inspect.h"

#pragma GCC visibility push(hidden)

/* --- paged.c: a launch run range by range through frames ---------------- */
cl_int vrt_paged_run(vrt_launch *L);
/* A fused launch (launch.c): on each range, L's kernel and then L2's, on
 * the same frames, so what the first writes for the second never goes
 * home between them. L holds the slots of both (modes joined), L2 the
 * same slots (nslots, slot_mem), its arguments mapped into them
 * (arg_slot) and its own modes (slot_mode); mode1[s] is L's kernel's own
 * mode of slot s (0: it has none). The same geometry. VRT_NOT_FUSED,
 * with nothing run and nothing changed, where the pair is not planned
 * from descriptors alone or its ranges' order would change a result
 * (planner.c, fused_exact): run them one after the other. Lock held. */
#define VRT_NOT_FUSED 1
cl_int vrt_paged_run_fused(vrt_launch *L, vrt_launch *L2, const unsigned *mode1);

/* --- kargs.c: a range's kernel ------------------------------------------ */
/* Whether L's straight variant may run (no fault check): L has one, and
 * no inspector computed addresses from a buffer the kernel writes. */
int vrt_straight_may_run(const vrt_launch *L);

/* --- lpts.c: every range's LPT of a plan on the device at once ---------- */
/* The n buffers (range r's table at r) of the tables of the plan of
 * serial `plan` (n tables of `words` words, one after another at
 * `tables`) on ctx: d's copy, made there when the plan asks a second time
 * unless d has one. NULL at its first ask, for plan 0 (a plan not
 * kept), when they would take more than max_bytes of the device or
 * cannot be made (out of memory): the caller sends each range's own. */
const cl_mem *vrt_lpts_on_device(vrt_devsets *d, cl_context ctx,
                                 unsigned long long plan,
                                 const uint32_t *tables, size_t n, size_t words,
                                 unsigned long long max_bytes);

/* --- tail.c: a launch's last device work, completed after the next ------ */
/* A range whose commands were enqueued and whose end the host has not yet
 * seen: its events (retained; the last of out, or run, is its end) on
 * the queues they went to, and its fault word (read by out). */
typedef struct vrt_tail_range {
	cl_command_queue qin, qrun, qout;
	cl_event in[2], run, out[2];
	cl_event run0;              /* the first of several kernels (the
	                             * straight kernel's boxes), else NULL */
	unsigned long long in_bytes, out_bytes;
	long range;                 /* -1: a native launch's kernel */
	size_t g0, g1;              /* its work-groups (for the refusal) */
	const cl_uint *fault;       /* a paged range's fault word, which must
	                             * read 0; NULL: not read (a native kernel,
	                             * a straight range: it never sets it) */
	int timed;                  /* its kernel's time counts in kernel_ms
	                             * (VAST_STATS=2, multi.c's shares) */
} vrt_tail_range;
/* What the executor completes of a launch after the next command's
 * enqueue (queue.c), so that its kernel runs while the host prepares
 * the next one. */
struct vrt_tail {
	unsigned n;
	vrt_tail_range r[VRT_MAX_SETS];
	cl_uint fault[VRT_MAX_SETS]; /* the paged sets' fault words land here */
};
/* Range r's commands are complete: traces its device phases, adds its
 * kernel time to st and, of a paged range, checks its fault word (one
 * that touched a page its plan did not hold: CL_INVALID_OPERATION, its
 * results refused) and counts it. */
cl_int vrt_tail_check(const char *kernel, const vrt_tail_range *r, vrt_kstats *st,
                      size_t group_base);
/* Waits for the ends of t's ranges (no lock needed: t is the launch's). */
void vrt_tail_wait(const vrt_tail *t);
/* Waits for t's ranges (entries without a kernel event are unused),
 * checks them (vrt_tail_check) and frees t (NULL: nothing); the first
 * error. */
cl_int vrt_tail_finish(vrt_tail *t, const char *kernel, vrt_kstats *st, size_t group_base);

/* --- deliver.c: reads queued behind a paged launch, filled as it runs --- */
/* Range i of L (its PAS row of lay) starts: the reads of L's buffers in
 * `slots` (a mask of slots whose written pages go home range by range)
 * queued right behind L are followed, and the range recorded as the last
 * writer of the pages it touches of theirs. */
void vrt_deliver_start(const vrt_launch *L, const vrt_layout *lay, uint64_t slots, size_t i,
                       const unsigned char *row);
/* Range j's written pages of the slots in `home` are in the host copies:
 * those no later range writes are copied to the reads' memory, on a
 * thread. */
void vrt_deliver_finish(const vrt_launch *L, const vrt_layout *lay, uint64_t home, size_t j,
                        const unsigned char *row);
/* Whether some read behind L is followed. */
int vrt_deliver_follows(const vrt_launch *L);
/* L ended, well (its reads may use what was copied) or not (dropped). */
void vrt_deliver_end(const vrt_launch *L, int ok);
/* The read c of m: 1 when it was followed and is now done (*err its
 * result): what the ranges did not copy copied now; 0: read as usual. */
int vrt_deliver_read(const vrt_cmd *c, vrt_mem *m, cl_int *err);
/* c ends: what was kept for it goes. */
void vrt_deliver_forget(const vrt_cmd *c);

/* --- planrec.c: what the ranges moved, against the planner's move list --- */
/* A launch's ranges as the executor ran them, recorded when VAST_PLAN_CHECK
 * or VAST_PLAN_DUMP asks (vrt_cfg). Range by range, in the order they ran:
 * the pages it touched, wrote whole with nothing read first, sent from the
 * host, and where the pages it wrote went (a row of VRT_OUT_*); with the
 * bytes it moved in and out. */
typedef struct vrt_planrec vrt_planrec;
typedef struct vrt_planrec_range {
	const unsigned char *u, *whole, *sent, *out;
	unsigned long long in_bytes, out_bytes;
} vrt_planrec_range;
/* A record of a launch planned from `in` (its unions and whole rows
 * aside: they come range by range; its state row is copied), NULL when
 * neither knob is on or out of memory (then nothing is checked). */
vrt_planrec *vrt_planrec_new(const vrt_move_input *in, const char *kernel);
void vrt_planrec_put(vrt_planrec *r, size_t i, const vrt_planrec_range *rr);
/* Once every range started (ran; else it only frees r): appends the record to VAST_PLAN_DUMP's file,
 * plans the moves (vrt_moves_plan) and checks them against the record:
 * a page the planner sends from the host that the range did not, one the
 * range sent that the planner takes from the hold or needs none of, a
 * written page that went elsewhere than the planner says. With
 * VAST_PLAN_CHECK a mismatch is a warning and CL_INVALID_OPERATION. Frees
 * r (NULL: CL_SUCCESS). */
cl_int vrt_planrec_end(vrt_planrec *r, int ran);

#pragma GCC visibility pop
#endif
