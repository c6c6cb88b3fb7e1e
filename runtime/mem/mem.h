/* SPDX-License-Identifier: MIT */
/*
 * mem.h - mem/: where a buffer's bytes live. Buffers with their host
 * copy and device copy (mem.c), what goes when the budget is short (one
 * policy, evict.c, over every kind of thing that takes it: room.c), the
 * device buffers of paged launches' frame sets
 * kept between launches (framepool.c) with the pages their frames hold
 * (residency.c) and the hold (hold.c), each pool a location of the
 * directory of the buffers it holds pages of (poolloc.c), the copies of
 * windows of a buffer split launches keep on their devices (replica.c),
 * and the memory directory (directory.c, directory.h: pure, unit-tested
 * alone). Uses exec/ and the folders below it.
 */
#ifndef VRT_MEM_H
#define VRT_MEM_H

#include "exec/exec.h"
#include "mem/directory.h"

#pragma GCC visibility push(hidden)

/* --- mem.c: host-backed buffers, their host and device copies ----------- */
/* NULL unless m is one of the runtime's live buffers (looked up, never
 * dereferenced blindly: also used on kernel argument bytes). */
static inline vrt_mem *vrt_mem_of(const void *m)
{
	return vrt_object_of(m, VRT_OBJ_MEM);
}
/* The runtime's references, invisible in CL_MEM_REFERENCE_COUNT: a kernel
 * argument keeps its buffer alive until it is replaced or the kernel goes. */
void vrt_mem_hold(vrt_mem *m);
void vrt_mem_unhold(vrt_mem *m);
/* Two buffers whose host bytes overlap (a buffer and its sub-buffer, or
 * overlapping sub-buffers). */
int vrt_mem_overlap(const vrt_mem *a, const vrt_mem *b);
/* A kernel may have written m's device copy: the other device copies of
 * its family are stale. */
void vrt_mem_dev_written(vrt_mem *m);
/* The host copy, the device copy, holds all of m's bytes. */
int vrt_mem_host_valid(const vrt_mem *m);
int vrt_mem_dev_valid(const vrt_mem *m);
/* Make the host copy current (made if m has none yet, the device copy
 * read back if needed). */
cl_int vrt_mem_to_host(vrt_mem *m);
/* Make m's host copy if it has none, its bytes current only where m held
 * no device copy (zeros), or map the program's memory of a USE_HOST_PTR
 * buffer not mapped since it was made; what paged launches and maps need
 * before they touch the bytes. */
cl_int vrt_mem_host_copy(vrt_mem *m);
/* The bodies of clEnqueueReadBuffer / clEnqueueWriteBuffer on m (range
 * already validated, wait list done): [off, off+n) to dst, or from src,
 * through whichever copy moves the fewest bytes at link speed (mem.c). */
cl_int vrt_mem_read(vrt_mem *m, size_t off, size_t n, void *dst);
/* launch, when not NULL: the command after the write, which may take a
 * whole write's bytes from src itself (pending.c). */
cl_int vrt_mem_write(vrt_mem *m, cl_command_queue q, size_t off, size_t n, const void *src,
                     const vrt_cmd *launch);
/* The bodies of clEnqueueFillBuffer and clEnqueueCopyBuffer (a to b) on
 * q: on the device copies where the destination has no host copy and
 * the source's bytes are there (nothing crosses the link), else on the
 * host copies. */
cl_int vrt_mem_fill(vrt_mem *m, cl_command_queue q, size_t off, size_t n, const void *pat,
                    size_t ps);
cl_int vrt_mem_copy(vrt_mem *a, vrt_mem *b, cl_command_queue q, size_t ao, size_t bo,
                    size_t n);
/* m's bytes may have changed (a host write, fill, copy or map for
 * writing, a kernel that writes it): its version, and that of every
 * member of its family overlapping it, moves on. */
void vrt_mem_changed(vrt_mem *m);
/* A launch wrote m's host copy behind the other paths (a split launch's
 * merge, multi.c): its version moves on, and every other copy of its
 * bytes (a device copy, a frame pool's pages) is stale. */
void vrt_mem_host_changed(vrt_mem *m);
/* The host copy changed: the device copy is stale. The program wrote
 * it, so a failed launch's partial results are gone. */
void vrt_mem_host_written(vrt_mem *m);
/* The same for [off, off + n) of m's host copy, current before it:
 * only those bytes' other copies are stale. */
void vrt_mem_host_wrote(vrt_mem *m, size_t off, size_t n);
/* A launch of `kernel` failed after changing some of m's bytes: m, and
 * the members of its family that overlap it, hold a mix of old and new
 * bytes. Until the program overwrites m whole, vrt_mem_check() refuses
 * it (docs/runtime.md). */
void vrt_mem_fail(vrt_mem *m, const char *kernel);
/* CL_SUCCESS, or CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST (logged,
 * naming the failed launch) for a buffer vrt_mem_fail() marked. Every
 * read, map, copy, fill and launch of a buffer asks first. */
cl_int vrt_mem_check(const vrt_mem *m);
/* Make the device copy on q current, allocating it within budget
 * (CL_MEM_OBJECT_ALLOCATION_FAILURE where it would pass it: the room is
 * made first by vrt_room_to_device; keep: the buffers whose device
 * copies stay where a family's locations run short). */
cl_int vrt_mem_to_device(vrt_mem *m, cl_command_queue q, size_t budget,
                         vrt_mem *const *keep, unsigned nkeep);
/* Write back if dirty, then free the device copy. */
cl_int vrt_mem_evict(vrt_mem *m);
/* Evict every device copy in ctx (before the paged path, which writes
 * host copies behind mem.c's back: no buffer of ctx is known zero after). */
cl_int vrt_mem_evict_all(cl_context ctx);
/* The same, but for the nkeep buffers of keep (a paged launch's resident
 * slots: paged/keeps.c). */
cl_int vrt_mem_evict_except(cl_context ctx, vrt_mem *const *keep, unsigned nkeep);
size_t vrt_mem_resident_bytes(void);
/* The first of every live buffer (the rest through ->next; lock held):
 * eviction walks them (room.c). */
vrt_mem *vrt_mem_all(void);
/* The bytes dev's budget counts: the replicas on dev (NULL: any
 * device) and, where dev is the program's own device (own), the device
 * copies and the frame pools. */
unsigned long long vrt_mem_used(cl_device_id dev, int own);
/* The live buffer of `serial`, NULL when it was released. */
vrt_mem *vrt_mem_by_serial(unsigned long long serial);

/* Moves [off, off + n) of the family of `root` (u) from location `from`
 * to location `to` of its directory (a vrt_dir_mover): between the host
 * copy, members' device copies and replicas, on the device where both
 * lie in one context, through host memory of its own between contexts.
 * Host to device counts as h2d, device to host as d2h. Lock held. */
int vrt_mem_mover(void *u, int from, int to, size_t off, size_t n);
/* Where location l (not the host) of root's directory keeps its bytes:
 * buf, used through q in ctx, its byte 0 the directory's byte base; 0
 * when it is no device copy or replica (a frame pool's). */
int vrt_mem_location(vrt_mem *root, int l, cl_mem *buf, cl_command_queue *q, cl_context *ctx,
                     size_t *base);
/* A new location of m's directory on dev of ctx (near those on the same
 * device or context); -1 when all are taken. */
int vrt_mem_new_loc(vrt_mem *m, cl_device_id dev, cl_context ctx);
/* What a device copy of m needs before it takes bytes from the host
 * copy: a whole write left pending is copied, pages kept dirty by paged
 * launches come home (the directory does not know them). */
cl_int vrt_mem_settle(vrt_mem *m);
/* Bytes the replicas of every buffer hold on dev (NULL: any) in ctx
 * (NULL: any), but those of the nskip buffers of skip. */
size_t vrt_mem_replica_bytes(cl_context ctx, cl_device_id dev, vrt_mem *const *skip,
                             unsigned nskip);

/* --- replica.c: windows of a buffer kept on a split launch's devices ---- */
/* A copy of bytes [lo, hi) of a buffer (outside a family) on one device,
 * in a context of the runtime's or the program's, kept between split
 * launches (docs/multi.md, "Resident shares"). It is location `loc` of
 * the buffer's directory: which of its bytes are current is the
 * directory's to say, and mem.c fills it (vrt_mem_replica_place, _bring:
 * the mover). Owned by the buffer (m->replicas), freed with it; a launch
 * on its device that needs the room writes it home first, where the
 * eviction policy chooses it (room.c). */
typedef struct vrt_replica {
	struct vrt_replica *next;   /* the buffer's next */
	cl_context ctx;             /* not retained: the buffer's or a device's, both outlive it */
	cl_command_queue q;         /* retained */
	cl_device_id dev;
	cl_mem buf;                 /* hi - lo bytes: byte 0 is the buffer's byte lo */
	size_t lo, hi;
	int loc;
} vrt_replica;
/* m's replica on dev, NULL when it has none. */
vrt_replica *vrt_replica_on(const vrt_mem *m, cl_device_id dev);
/* A replica of [lo, hi) of m on dev (in ctx, used through q), location
 * loc of m's directory (holding nothing yet), put on m's list. */
cl_int vrt_replica_new(vrt_mem *m, cl_context ctx, cl_command_queue q, cl_device_id dev,
                       size_t lo, size_t hi, int loc, vrt_replica **out);
/* Takes r off m's list and frees it (the directory is the caller's). */
void vrt_replica_free(vrt_mem *m, vrt_replica *r);
/* Bytes of m's replicas on dev (NULL: any) in ctx (NULL: any). */
size_t vrt_replicas_bytes(const vrt_mem *m, cl_context ctx, cl_device_id dev);

/* --- mem.c: the replicas' bytes ---------------------------------------- */
/* m's replica on dev (in ctx, used through q) covering [lo, hi): the one
 * it has when that covers them in ctx, else one of the window of both,
 * filled from the old one (which goes). CL_SUCCESS with *out,
 * else the error (nothing lost: m's bytes are where they were). */
cl_int vrt_mem_replica_place(vrt_mem *m, cl_context ctx, cl_command_queue q,
                             cl_device_id dev, size_t lo, size_t hi, vrt_replica **out);
/* r holds [off, off + n) (within its window) once this returns
 * CL_SUCCESS: each run it lacks from the nearest copy (directory.h). */
cl_int vrt_mem_replica_bring(vrt_mem *m, vrt_replica *r, size_t off, size_t n);
/* A kernel wrote [off, off + n) of r: every other copy of it is stale.
 * -1 when out of memory (nothing recorded). */
int vrt_mem_replica_wrote(vrt_mem *m, vrt_replica *r, size_t off, size_t n);
/* Writes home what only r holds, then frees it. */
cl_int vrt_mem_replica_evict(vrt_mem *m, vrt_replica *r);

/* --- spread.c: whole transfers with the copies of several devices ------ */
/* [off, off + n) of m (which has replicas) into dst straight from the
 * device copies and replicas holding it, each device's runs on a thread
 * of its own (the host copy's and the zeros where those are current),
 * with no host copy made: 1 when done so (*err the result), 0 when the
 * host copy holds it all or a frame pool alone holds some of it (then
 * the host copy's way). */
int vrt_mem_read_spread(vrt_mem *m, size_t off, size_t n, void *dst, cl_int *err);
/* One device's window [lo, hi) of a whole write, in ctx through q, on
 * a replica of [room_lo, room_hi) around it (room for a launch's window
 * a little off this one, without a larger replica). */
typedef struct vrt_spread_part {
	cl_context ctx;
	cl_command_queue q;
	cl_device_id dev;
	size_t lo, hi, room_lo, room_hi;
} vrt_spread_part;
/* The whole of m from src, each part's window to m's replica on its
 * device (made or grown) at once: the windows, covering m, its newest
 * copies. m has no host or device copy and is outside a family. An
 * error leaves m's bytes undefined until a whole write replaces them. */
cl_int vrt_mem_write_spread(vrt_mem *m, const vrt_spread_part *parts, unsigned n,
                            const void *src);

/* [off, off + n) of m wanted on its replica r. */
typedef struct vrt_bring {
	vrt_mem *m;
	vrt_replica *r;
	size_t off, n;
} vrt_bring;
/* Of each wanted range, the runs its replica lacks whose nearest holder
 * is the host copy, sent from there, every device's at once (the
 * brings that follow find them there). Buffers in a family or with no
 * host copy are left to the brings. */
cl_int vrt_mem_bring_from_host(const vrt_bring *b, size_t n);

/* --- evict.c: what goes when the budget is short ------------------------ */
/* The clock of last uses (a device copy's lru, a frame pool's): its
 * next tick. */
unsigned long long vrt_evict_tick(void);
/* Of n candidates, the index of the one to evict: the farthest
 * next use (VRT_NEVER the farthest), the least recently used (smallest
 * lru) among those tied. */
size_t vrt_evict_pick(size_t n, const unsigned long *next_use, const unsigned long long *lru);
/* Of n candidates of size[i] bytes, those to evict to free `need` bytes
 * (out[i] 1, else 0): by vrt_evict_pick's order, the set that spares the
 * candidates needed soonest, none of its victims spare (evict.c says
 * exactly how). The bytes they hold: less than need only where all of
 * them together hold less (then every one is chosen). */
unsigned long long vrt_evict_choose(size_t n, const unsigned long long *size,
                                    const unsigned long *next_use,
                                    const unsigned long long *lru, unsigned long long need,
                                    unsigned char *out);

/* --- room.c: room on a device, one policy over all that takes it -------- */
/* Whose budget and what stays: what vrt_mem_used counts of dev (own);
 * the device copies of the nkeep buffers of keep stay, and their
 * replicas too where keep_replicas. */
typedef struct vrt_room {
	cl_device_id dev;
	int own;
	vrt_mem *const *keep;
	unsigned nkeep;
	int keep_replicas;
} vrt_room;
/* Frees at least `need` bytes of what room counts, by evict.c's policy
 * over every candidate (room.c says what each one's next use is): no
 * more than that needs. CL_MEM_OBJECT_ALLOCATION_FAILURE where they all
 * hold less (every one gone then), or the error of an eviction. */
cl_int vrt_room_free(const vrt_room *room, unsigned long long need);
/* vrt_mem_to_device, the room m needs made first: what the budget of
 * q's device counts goes as the policy chooses, but the device copies of
 * keep. */
cl_int vrt_room_to_device(vrt_mem *m, cl_command_queue q, size_t budget, vrt_mem *const *keep,
                          unsigned nkeep);
/* Before a paged launch L, which works from the host copies of its
 * buffers: their device copies and replicas (and those of buffers
 * sharing bytes with them) come home and go, but the device copies of
 * the nkeep of keep (kept whole). Of the other buffers' on L's device,
 * those no launch queued needs go, and the rest by the policy while they
 * leave the frames less than `least` bytes of L->budget + L->beside;
 * L->beside is then the bytes that stay, and L->budget the rest. */
cl_int vrt_room_for_paging(vrt_launch *L, vrt_mem *const *keep, unsigned nkeep,
                           unsigned long long least);

/* --- residency.c -------------------------------------------------------- */
/* Which frame holds each host page the kept frame sets have, between
 * launches: an index, not a record of validity (a frame's copy is
 * current where the memory directory says the pool's location holds the
 * page's bytes: poolloc.c). */
typedef struct vrt_resident {
	unsigned long long serial;  /* the vrt_mem's (0: an empty slot) */
	size_t page;                /* page of the buffer, at the map's page size */
	unsigned set, buf;          /* frame set, and device buffer within it */
	size_t frame;               /* frame within that buffer */
} vrt_resident;
typedef struct vrt_residency {
	unsigned page_shift;        /* the pages' size */
	size_t n, cap;              /* entries; slots of tab, a power of two */
	vrt_resident *tab;
	/* The entry in each frame, so that a range's frames are looked at
	 * and not every entry: at[set * VAST_FRAME_BUFS + buf][frame] is 1 +
	 * its slot of tab, 0 none; nat[] frames each (vrt_free). */
	uint32_t *at[VRT_MAX_SETS * VAST_FRAME_BUFS];
	size_t nat[VRT_MAX_SETS * VAST_FRAME_BUFS];
	int crowded;                /* at[] may miss entries (two in one frame,
	                             * or out of memory indexing one): those
	                             * by frame look at every entry */
} vrt_residency;
/* Where page `page` of the buffer of `serial` lies, NULL: nowhere. */
const vrt_resident *vrt_res_find(const vrt_residency *r, unsigned long long serial, size_t page);
/* Records *e, replacing the entry of its serial and page; -1 when out of
 * memory (nothing recorded). */
int vrt_res_put(vrt_residency *r, const vrt_resident *e);
/* Forgets the entry of serial and page, if any. */
void vrt_res_forget(vrt_residency *r, unsigned long long serial, size_t page);
/* Forgets every entry gone(e, ctx) says is gone; allocates nothing. */
void vrt_res_drop_if(vrt_residency *r, int (*gone)(const vrt_resident *, void *), void *ctx);
/* vrt_res_drop_if of the entries in frames [first, first + count) of
 * buffer buf of set `set` alone, at the cost of those frames rather than
 * of the whole map (a range's frames, before it refills them). */
void vrt_res_drop_frames(vrt_residency *r, unsigned set, unsigned buf, size_t first, size_t count,
                         int (*gone)(const vrt_resident *, void *), void *ctx);
/* Forgets every entry. */
void vrt_res_clear(vrt_residency *r);
/* A run of pages to write home: pages page..page+n-1 of the buffer of
 * `serial` in frames frame..frame+n-1 of buffer buf of set `set`
 * (VRT_HOLD_SET: the hold, frame = page). */
typedef struct vrt_res_run {
	unsigned long long serial;
	size_t page, frame, n;
	unsigned set, buf;
} vrt_res_run;

/* --- framepool.c -------------------------------------------------------- */
/* A buffer a pool holds pages of, and its location in the buffer's
 * directory (poolloc.c). */
struct vrt_pool_loc {
	vrt_mem *mem;               /* the buffer, when it lives (vrt_pool_live) */
	unsigned long long serial;
	int loc;
};
/* The device buffers of a paged launch's frame sets, kept
 * for the next one on the same context and device, with what their
 * frames hold (residency.c). */
typedef struct vrt_devset {
	cl_mem frames[VAST_FRAME_BUFS], lptbuf, fault;
	size_t frame_bytes[VAST_FRAME_BUFS], lpt_bytes;
	uint32_t *lpt_held;         /* what lptbuf holds (vrt_free), NULL: unknown */
	size_t lpt_held_bytes;
	int fault_clear;            /* fault holds 0 (read back so, or in flight: tail.c) */
	cl_event busy;              /* the end of a range still in flight on these
	                             * frames (tail.c), NULL: none */
	cl_event unread;            /* its kernel, when no D2H follows it: reads
	                             * of its frames wait for it (paged.c) */
} vrt_devset;
/* A kept plan's LPTs on the device, every range's at once (paged/lpts.c):
 * range r's table is the sub-buffer range[r] of buf. Written once, when
 * made, and never again while a kernel may read it. */
#define VRT_DEVLPTS_KEPT 4
typedef struct vrt_devlpts {
	unsigned long long plan;    /* the plan's serial (plans.c), 0: unused */
	cl_mem *range;              /* n buffers (vrt_free) */
	size_t n, bytes;
	unsigned long long used;    /* when a launch last took it (least
	                             * recently used goes first) */
} vrt_devlpts;
typedef struct vrt_devsets {
	cl_mem dummy;               /* one page, bound where a set lacks a buffer */
	size_t dummy_bytes;
	unsigned nsets;
	vrt_devset set[VRT_MAX_SETS];
	vrt_residency res;          /* the host pages their frames hold */
	/* The hold: one buffer's first pages, kept across launches
	 * (paged/keeps.c, choose_hold), page p in frame p; NULL: none. What
	 * it holds: held (hold.c), hold_pages entries of pages of
	 * 2^hold_shift bytes of the buffer of hold_serial. */
	cl_mem hold;
	unsigned long long hold_bytes, hold_serial;
	unsigned hold_shift;
	size_t hold_pages;
	unsigned char *held;
	/* The directory location of each buffer it holds pages of
	 * (poolloc.c): nlocs of them, in locs (vrt_free). */
	struct vrt_pool_loc *locs;
	unsigned nlocs, locs_cap;
	int reverse;                /* the last launch ran its ranges last first */
	vrt_devlpts lpts[VRT_DEVLPTS_KEPT]; /* kept plans' tables (paged/lpts.c) */
	/* Plans that asked once (paged/lpts.c: tables when a plan asks
	 * again), the last VRT_DEVLPTS_KEPT, a ring: no more than the pool
	 * keeps, so plans taking turns past it never make tables. */
	unsigned long long lpts_asked[VRT_DEVLPTS_KEPT];
	unsigned lpts_asked_next;
	unsigned long long lpts_clock;
	/* Writes home (blocking) the pages d, kept for ctx and dev, holds
	 * newer than every other copy (move: every page it holds that the
	 * host lacks), of the family of `only` (NULL: of every buffer), as
	 * the directory says (poolloc.c); a buffer whose pages could not go
	 * home is refused (vrt_mem_fail). Set by the paged launch that made
	 * the sets (paged/sets.c); NULL: none did. */
	cl_int (*home)(struct vrt_devsets *d, cl_context ctx, cl_device_id dev,
	               const vrt_mem *only, int move);
} vrt_devsets;

/* --- hold.c ------------------------------------------------------------- */
/* Which pages the hold has, one byte a page: the index, as residency.c
 * is the frames'; whether its copy is current is the directory's
 * answer (poolloc.c). */
/* Room for `pages` pages of the buffer of `serial`, none there; -1 out
 * of memory (none then). */
int vrt_hold_init(vrt_devsets *d, unsigned long long serial, size_t pages, unsigned shift);
void vrt_hold_free(vrt_devsets *d);
/* Page `page` of the buffer of `serial` is in the hold. */
int vrt_hold_has(const vrt_devsets *d, unsigned long long serial, size_t page);
void vrt_hold_put(vrt_devsets *d, size_t page);
void vrt_hold_forget(vrt_devsets *d, size_t page);
/* The first page of [page, end) of the buffer of `serial` that is not
 * in the hold, end when every one is: a run of the hold's pages passed
 * over at once. */
size_t vrt_hold_lacks(const vrt_devsets *d, unsigned long long serial, size_t page, size_t end);

/* --- poolloc.c ---------------------------------------------------------- */
/* A frame pool is a location of the memory directory of every buffer it
 * holds pages of (directory.h): a page in its frames or its hold is
 * current where the location holds the page's bytes, and newer than the
 * host copy where the host does not. */
/* m's location in d, registered when it has none (m outside a family,
 * live); -1 when the directory has no room or out of memory. */
int vrt_pool_loc(vrt_devsets *d, vrt_mem *m);
/* m's location in d, -1: none. */
int vrt_pool_find(const vrt_devsets *d, const vrt_mem *m);
/* The buffer of e while it lives, NULL once released (looked up among
 * the live objects, never dereferenced blindly). */
vrt_mem *vrt_pool_live(const struct vrt_pool_loc *e);
/* Location l of m holds page p. */
int vrt_pool_holds(const vrt_mem *m, int l, size_t p, unsigned sh);
/* Pages p..p+n-1 of m at l at once (one walk of the directory, not a
 * query a page): out[k] of page p + k, VRT_DIR_PAGE_HELD where l holds
 * it (vrt_pool_holds), VRT_DIR_PAGE_SOLE where it holds some bytes of
 * it alone (newer than every other copy); 0 past m's end. */
void vrt_pool_pages(const vrt_mem *m, int l, size_t p, size_t n, unsigned sh, unsigned char *out);
/* Calls fn(ctx, a, b) on each run [a, b) of pages p..p+n-1 of m of
 * which location l holds some byte, in order (one walk of the directory). */
void vrt_pool_some_runs(const vrt_mem *m, int l, size_t p, size_t n, unsigned sh,
                        void (*fn)(void *ctx, size_t a, size_t b), void *ctx);
/* Transitions (directory.h) of pages p..p+n-1 of m at l; -1 out of
 * memory, the directory unchanged. */
int vrt_pool_copied(vrt_mem *m, int l, size_t p, size_t n, unsigned sh);
int vrt_pool_wrote(vrt_mem *m, int l, size_t p, size_t n, unsigned sh);
int vrt_pool_forget(vrt_mem *m, int l, size_t p, size_t n, unsigned sh);
/* The pages d's locations hold newer than every other copy (some bytes
 * only they hold; with VRT_POOL_MOVE, every page they hold some bytes of
 * that the host lacks), of the buffers sharing only's directory (NULL:
 * of every buffer), as runs of their frames: those in the hold
 * (VRT_POOL_HOLD), in the frame sets (VRT_POOL_FRAMES), that want(e,
 * ctx) accepts (NULL: all), in *runs (vrt_free; NULL when none). Their
 * count, (size_t)-1 out of memory. */
enum { VRT_POOL_FRAMES = 1, VRT_POOL_HOLD = 2, VRT_POOL_MOVE = 4 };
size_t vrt_pool_newer_runs(const vrt_devsets *d, const vrt_mem *only, int where,
                           int (*want)(const vrt_resident *, void *), void *ctx,
                           vrt_res_run **runs);
/* The pages of runs went home: the host copy holds them too. */
void vrt_pool_homed(const vrt_devsets *d, const vrt_res_run *runs, size_t n);
/* Some byte of m's window only d holds. */
int vrt_pool_any_newer(const vrt_devsets *d, const vrt_mem *m);
/* The frame sets' pages are gone (the residency map cleared after):
 * d's locations forget every page but those in the hold. */
void vrt_pool_forget_frames(vrt_devsets *d);
/* The hold's pages are gone (the hold freed after): d's location of its
 * buffer forgets them. */
void vrt_pool_forget_hold(vrt_devsets *d);
/* m's location in d goes with every page of m d indexes (what only it
 * held is lost: out of memory, or m refused). */
void vrt_pool_drop_loc(vrt_devsets *d, vrt_mem *m);
/* d's locations go, with d's pages (released: newer ones went home
 * first, or their buffers were refused). */
void vrt_pool_release_locs(vrt_devsets *d);

/* Moves the sets kept for ctx and dev to *out (zeroed when none). */
void vrt_framepool_take(cl_context ctx, cl_device_id dev, vrt_devsets *out);
/* The sets kept for ctx and dev, left in the pool; NULL when none. */
vrt_devsets *vrt_framepool_peek(cl_context ctx, cl_device_id dev);
/* Releases the buffers of `have` a launch that needs `want` (sizes; 0:
 * no such buffer) cannot use: missing (NULL after), too small, unwanted,
 * or larger than wanted where keeping them would pass the budget. The
 * launch then makes every wanted buffer left NULL. */
void vrt_devsets_fit(vrt_devsets *have, const vrt_devsets *want, unsigned long long budget);
/* Fitting `have` to `want` would keep every frame buffer (and so the
 * pages the map says they hold). */
int vrt_devsets_fit_keeps(const vrt_devsets *have, const vrt_devsets *want,
                          unsigned long long budget);
/* Keeps *sets (their handles, now the pool's; *sets is zeroed) for the
 * next paged launch on ctx and dev, releasing any kept before. */
void vrt_framepool_give(cl_context ctx, cl_device_id dev, vrt_devsets *sets);
/* Device bytes the pools hold; releases them all (a native launch needs
 * the room). */
unsigned long long vrt_framepool_bytes(void);
void vrt_framepool_release(void);
/* A part of a pool that can go alone (room.c): the frame sets of the
 * pool of ctx and dev, with its dummy page and kept tables (hold 0), or
 * its hold (1), of the buffer of hold_serial. used: when a launch last
 * gave the pool (vrt_evict_tick). */
typedef struct vrt_pool_part {
	cl_context ctx;
	cl_device_id dev;
	int hold;
	unsigned long long bytes, used, hold_serial;
} vrt_pool_part;
/* Calls fn with each part of every pool holding device bytes: their
 * bytes add up to vrt_framepool_bytes(). */
void vrt_framepool_each_part(void (*fn)(void *arg, const vrt_pool_part *part), void *arg);
/* Releases that part of its pool (if still there), the pages the pool
 * holds newer than the host written home first; a pool left with
 * nothing goes. */
void vrt_framepool_release_part(const vrt_pool_part *part);
/* Releases every handle of d and zeroes it. */
void vrt_devsets_release(vrt_devsets *d);
/* Releases t's buffers (commands in flight keep them alive, OpenCL 1.2
 * §5.4.1) and zeroes it. */
void vrt_devlpts_release(vrt_devlpts *t);
/* Writes home the pages the pools of m's context hold newer than every
 * other copy, of m's family (m NULL: every pool's of every buffer). */
cl_int vrt_framepool_write_home(vrt_mem *m);
/* Some pool alone holds bytes of m's window. */
int vrt_framepool_newer(const vrt_mem *m);
/* A vrt_dir_mover's move of [off, off + n) from location l of root's
 * directory, a pool's, home: the pool writes home every page it holds
 * that the host lacks; CL_INVALID_MEM_OBJECT when no pool has l. */
cl_int vrt_framepool_move(vrt_mem *root, int l, size_t off, size_t n);

#pragma GCC visibility pop
#endif
