/* SPDX-License-Identifier: MIT */
/*
 * exec.h - exec/: commands in queue order. One executor per queue
 * runs the runtime's commands (queue.c) and records their events
 * (event.c); whole writes wait there for the paged launch after them to
 * copy them range by range (pending.c). Uses host/ and base/.
 *
 * It also defines the records the layers above share: a buffer, the page
 * layout of a paged launch and a launch, as pending.c reads them.
 */
#ifndef VRT_EXEC_H
#define VRT_EXEC_H

#include "host/host.h"

#pragma GCC visibility push(hidden)

/* --- the records shared with the layers above --------------------------- */
/* A buffer (mem/ makes it and moves its bytes), the layout of one paged
 * launch's pages (plan/pas.c fills it) and a launch (launch/ makes it):
 * defined here because pending.c, which the executor asks whether a
 * launch takes a whole write, fills a launch's pages of a buffer. */
struct vrt_mem {
	vrt_object obj;
	cl_uint refs;        /* the program's references (what it can query) */
	cl_uint holds;       /* the runtime's own (kernel arguments) */
	/* A sub-buffer (OpenCL 1.2 §5.2.1) shares its parent's host copy:
	 * host = parent->host + origin. A parent with subs, and its subs,
	 * form a family whose device copies are kept coherent in mem.c. */
	struct vrt_mem *parent;   /* held; NULL for a buffer */
	size_t origin;
	unsigned nsubs;           /* live sub-buffers of this parent */
	cl_context ctx;
	cl_mem_flags flags;
	size_t size;
	/* The host copy: ours or the user's pointer. Ours is made at first
	 * need (vrt_mem_host_copy); until then (NULL) the bytes are the
	 * device copy's when it holds them, else zeros. */
	unsigned char *host;
	void *user_ptr;      /* host_ptr given at creation */
	int own_host;
	/* The bytes are the zeros of its creation, written by no one
	 * (outside a family): a device copy is filled, not sent. */
	int zero;
	vrt_pin pin;         /* own_host in pinned memory when pin.buf */
	/* Which copies hold the bytes (mem/directory.h): the family's one
	 * directory, made with the buffer and shared by its sub-buffers,
	 * whose window is [origin, origin + size); the host copy is its
	 * location VRT_DIR_HOST, the device copy dev_loc (-1 without one).
	 * NULL in a split launch's private view of a buffer (multi.c): its
	 * host copy is current there. vrt_mem_host_valid/vrt_mem_dev_valid
	 * read it (mem.c). */
	struct vrt_dir *dir;
	int dev_loc;
	cl_mem dev;                /* device copy, or NULL */
	cl_command_queue dev_queue; /* retained; where dev lives */
	unsigned long long lru;    /* last launch that used dev */
	/* The kernel whose failed launch left part of its results here (a
	 * mix of old and new bytes), "" if none: see vrt_mem_fail(). */
	char failed[64];
	vrt_mem *next;             /* all live buffers */
	vrt_later *dtors;          /* destructor callbacks, last registered first */
	/* Never reused, unlike the handle (object.c keeps husks): serial
	 * names the buffer, version moves on whenever its bytes may change
	 * (vrt_mem_changed); the plan cache compares them (plans.c). */
	unsigned long long serial, version;
	/* Paged launches that used it (and could keep buffers): after one,
	 * a later one may keep it whole on the device (keep_resident);
	 * after two, an iterative program's, its first pages may stay in
	 * the hold (paged/keeps.c, choose_hold). */
	unsigned paged_uses;
	/* Copies of windows of it on the devices split launches ran on
	 * (mem/replica.c), each a location of dir; NULL: none. Only a
	 * buffer outside a family has them. */
	struct vrt_replica *replicas;
};
/* Layout shared by the PAS rows, the LPT and the frames of one launch.
 * Slots are 1-based; a row holds one byte per page of every slot, each
 * slot's part starting at a multiple of 8 so rows OR as 64-bit words. */
typedef struct vrt_layout {
	unsigned nslots;
	unsigned page_shift;
	size_t slot_size[VAST_MAX_SLOTS + 1];  /* bytes of the buffer */
	size_t slot_pages[VAST_MAX_SLOTS + 1];
	size_t slot_off[VAST_MAX_SLOTS + 1];   /* first byte in a row */
	size_t row_bytes;                      /* multiple of 8 */
	size_t total_pages;
	/* A slot whose buffer stays whole on the device (paged/keeps.c,
	 * keep_resident): the frame buffer index its device copy is bound
	 * at, its pages frames 0.. of it in order; 0: paged. */
	unsigned char res_buf[VAST_MAX_SLOTS + 1];
	/* The slot whose first hold_pages pages the hold keeps on the device
	 * across launches (paged/keeps.c, choose_hold), 0: none; the frame
	 * buffer index the hold is bound at. A range whose pages of it all
	 * lie there is bound to the hold (page p in frame p), no frames of
	 * it in the set's buffers (lpt.c). */
	unsigned hold_slot, hold_buf;
	size_t hold_pages;
} vrt_layout;
/* The most arguments of a kernel the runtime launches. */
#define VRT_MAX_ARGS 256
typedef struct vrt_tail vrt_tail; /* tail.c */
typedef struct vrt_launch {
	vrt_kernel *k;
	cl_command_queue q;
	cl_context ctx;
	cl_device_id dev;
	cl_uint dim;
	size_t gsize[3], lsize[3], goff[3], ngroups[3];
	size_t groups;              /* all work-groups, flattened */
	int local_free;             /* the program passed no local size */
	int partial;                /* written buffers may hold part of its results */
	size_t max_item[3];         /* CL_DEVICE_MAX_WORK_ITEM_SIZES */
	/* A launch may have more slots than it can page (VAST_MAX_SLOTS):
	 * it then runs natively when it fits. */
	unsigned nslots;
	vrt_mem *slot_mem[VRT_MAX_ARGS + 1];
	unsigned slot_mode[VRT_MAX_ARGS + 1];
	unsigned slot_inspect_reads[VRT_MAX_ARGS + 1];
	unsigned arg_slot[VRT_MAX_ARGS]; /* param -> slot, 0: not a buffer/NULL */
	unsigned long long budget;
	unsigned long long footprint; /* bytes of distinct buffers */
	vrt_kstats *st;
	vrt_arg *args;              /* k's arguments as at the enqueue (k->nargs) */
	int can_page;               /* a paged variant can run it (plan) */
	/* A share of a launch split over devices (multi.c) runs the groups
	 * [group_base, group_base + groups); 0 for a whole launch. */
	size_t group_base;
	unsigned stage_base;        /* its staging areas: vrt_staging's sets from here */
	int share;                  /* such a share: runs on a thread of multi.c */
	/* The executor completes the launch later (queue.c): its last device
	 * work may stay in flight, recorded in tail, when the run leaves it
	 * nothing to do on the host after it. */
	int may_defer;
	vrt_tail *tail;
	/* Slots whose buffers a paged launch keeps whole on the device
	 * (paged/keeps.c): their frame buffer index, 0: paged. */
	unsigned char res_buf[VRT_MAX_ARGS + 1];
	/* The slot whose first hold_bytes the hold keeps (paged/keeps.c,
	 * choose_hold), 0: none. */
	unsigned hold_slot;
	unsigned long long hold_bytes;
	/* Bytes of other buffers' device copies and replicas a paged launch
	 * leaves on its device for the launches queued after it
	 * (mem/room.c, vrt_room_for_paging): L->budget leaves them room. */
	unsigned long long beside;
	/* Refused for good: no smaller work-group, no other try can fit it
	 * (paged/planner.c, probe_first). */
	int no_retry;
} vrt_launch;

/* --- event.c: the events of the runtime's commands ---------------------- */
/* Checks the queue (CL_INVALID_COMMAND_QUEUE; CL_INVALID_CONTEXT when
 * ctx is not NULL and not the queue's) and the wait list, as every
 * enqueue does first. */
cl_int vrt_check_queue(cl_command_queue q, cl_context ctx, cl_uint n,
                       const cl_event *list);
/* The wait list's part of it (CL_INVALID_EVENT_WAIT_LIST). */
cl_int vrt_check_wait_list(cl_uint n, const cl_event *list);
/* Waits for n events (n may be 0); CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_
 * WAIT_LIST when one failed, ours included (OpenCL 1.2 §5.9). */
cl_int vrt_wait_events(cl_uint n, const cl_event *list);
/* Whether one of the events is a failed command of the runtime. */
int vrt_events_failed(cl_uint n, const cl_event *list);
/* clRetainEvent/clReleaseEvent, also counting on the runtime's record. */
cl_int vrt_event_retain(cl_event e);
cl_int vrt_event_release(cl_event e);
/* The record of a command's event, queued now on q (one reference for
 * the program, one for the command); bound to the handle the program
 * gets; then submitted (wait list done), started, ended (drops the
 * command's reference). NULL is ignored, but by vrt_event_bind. */
typedef struct vrt_event vrt_event;
vrt_event *vrt_event_new(cl_command_queue q, cl_command_type type);
void vrt_event_bind(vrt_event *r, cl_event handle);
void vrt_event_submitted(vrt_event *r);
void vrt_event_started(vrt_event *r);
void vrt_event_ended(vrt_event *r, cl_int err);

/* --- queue.c: commands in queue order, on one executor per queue -------- */
/* A command: embedded first in a struct holding what it captured at the
 * enqueue; allocated with vrt_malloc, freed by vrt_submit. */
struct vrt_mem;
typedef struct vrt_cmd vrt_cmd;
struct vrt_cmd {
	/* Runs it (lock held), its device work on q (the executor's). */
	cl_int (*run)(vrt_cmd *c, cl_command_queue q);
	/* Releases what it captured (lock held), run or not. */
	void (*drop)(vrt_cmd *c);
	/* A non-blocking command failed after its enqueue returned success
	 * (lock held; NULL: nothing to do): refuse the buffers it writes
	 * (vrt_mem_fail), whose contents the program expects changed. */
	void (*fail)(vrt_cmd *c, cl_int err);
	/* Completes what run left in flight (lock held; deferred set by run,
	 * only where the executor allowed it with may_defer): the executor
	 * calls it after the next command ran, or before one that may not
	 * overlap it. NULL: the command never defers. */
	cl_int (*finish)(vrt_cmd *c);
	/* Waits, without the lock, for what run left in flight, so that
	 * finish does not hold the lock while the device works. */
	void (*await)(vrt_cmd *c);
	int may_defer, deferred;
	int overlaps;       /* may run while the command before it is in flight */
	int overlapped;     /* it was in flight while the next command ran */
	/* Filled by vrt_submit. */
	cl_uint nwait;
	cl_event *wait;     /* retained */
	cl_event pre, user; /* see queue.c */
	vrt_event *ev;
	int blocking, done;
	cl_int err;
	vrt_cmd *next;
	/* The command queued after it when it started (queue.c), or NULL. */
	const vrt_cmd *after;
	/* A launch that would take m's pending whole write (pending.c):
	 * NULL, or 1 when c pages m and reads none of it in its inspector. */
	int (*takes_pending)(const vrt_cmd *c, const struct vrt_mem *m);
	/* The command uses m's bytes (a launch with m an argument; NULL:
	 * none known): the look-ahead of eviction (evict.c). */
	int (*uses)(const vrt_cmd *c, const struct vrt_mem *m);
	/* The command is a launch that pages on dev of ctx, taking the frame
	 * pool kept there (NULL: none is): the look-ahead of eviction for
	 * the pool (mem/room.c). */
	int (*pages_on)(const vrt_cmd *c, cl_context ctx, cl_device_id dev);
	/* A write the command after it may take over (pending.c): the
	 * executor waits a moment for that command to be queued. */
	int waits_for_next;
	/* A read of [*off, *off + *n) of *m into *dst (1), for the launch
	 * before it to fill (deliver.c); NULL: no read. */
	int (*reads_into)(const vrt_cmd *c, struct vrt_mem **m, size_t *off, size_t *n, void **dst);
	/* A launch the launch before it ran with its own, range by range
	 * (launch.c, fused): its run only returns absorbed_err. Lock held. */
	int absorbed;
	cl_int absorbed_err;
};
/* Queues c on q after the wait list w; returns at once unless blocking
 * (then with its result); *event (when event is not NULL) is its event.
 * On an error before queueing, c is dropped and freed. */
cl_int vrt_submit(vrt_cmd *c, cl_command_queue q, cl_command_type type, cl_bool blocking,
                  cl_uint nw, const cl_event *w, cl_event *event);
/* Waits until every command submitted on q has run. */
void vrt_queue_drain(cl_command_queue q);
/* The place among the commands queued behind the one running (lock
 * held) of the first that uses m (uses; 1: the next one): VRT_NEVER
 * where none does, 0 where nothing is queued or no command is running
 * (nothing known). */
#define VRT_NEVER ((unsigned long)-1)
unsigned long vrt_queue_next_use(const struct vrt_mem *m);
/* The same place, of the first command queued behind the one running
 * for which is(c, arg) holds. */
unsigned long vrt_queue_next(int (*is)(const vrt_cmd *c, const void *arg), const void *arg);
/* A command is running (lock held) and is(it, arg) holds. */
int vrt_queue_running(int (*is)(const vrt_cmd *c, const void *arg), const void *arg);
/* Calls fn with each command queued behind the one running (lock held),
 * in order, while it returns 1. */
void vrt_queue_behind(int (*fn)(void *ctx, const vrt_cmd *c), void *ctx);
/* q's context and device (remembered with its executor, else asked of
 * the driver); CL_INVALID_COMMAND_QUEUE when q is not a queue. */
cl_int vrt_queue_info(cl_command_queue q, cl_context *ctx, cl_device_id *dev);
/* An enqueue on q is under way and will be its next command (delta 1),
 * or no longer (delta -1, after its submit or failure): whole writes
 * before it wait for it to learn whether it takes their bytes
 * (pending.c), however long it takes (a program's variants built). */
void vrt_queue_coming(cl_command_queue q, int delta);
/* The program put a command of its own (one the runtime forwards whole)
 * on q: the runtime's next command there waits for it (queue.c). */
void vrt_queue_foreign(cl_command_queue q);
/* vrt_queue_foreign(q), then err: for `return vrt_forwarded(q, call)`. */
cl_int vrt_forwarded(cl_command_queue q, cl_int err);

/* --- pending.c: whole writes the next paged launch copies --------------- */
/* Leaves m's host copy to be filled from src (all of m) by `launch`;
 * 0 when it cannot (then copy now). */
int vrt_pend_start(vrt_mem *m, const void *src, const void *launch);
int vrt_pend_has(const vrt_mem *m);
/* Whether [p, p+n) overlaps the program's memory a pending write reads. */
int vrt_pend_overlaps(const void *p, size_t n);
/* Copies what is still pending of m (and of buffers sharing its bytes),
 * of every buffer, of every buffer whose bytes another command than
 * `launch` is to take. */
void vrt_pend_settle(vrt_mem *m);
void vrt_pend_settle_all(void);
void vrt_pend_settle_except(const void *launch);
/* Copies the pending pages of L's slots that `row` (a PAS row of lay)
 * marks, unless copied already. */
void vrt_pend_fill_row(const vrt_launch *L, const vrt_layout *lay, const unsigned char *row);
/* The same, for the range after the one just enqueued, on a thread of its
 * own: the next call here waits for it. */
void vrt_pend_prefetch(const vrt_launch *L, const vrt_layout *lay, const unsigned char *row);

#pragma GCC visibility pop
#endif
