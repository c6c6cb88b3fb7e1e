/* SPDX-License-Identifier: MIT */
/*
 * directory.h - where a buffer's bytes live (DESIGN.md §6).
 *
 * One directory per buffer (a sub-buffer uses its parent's, shifted by
 * its origin). It splits the buffer's bytes into runs; each run names the
 * set of locations that hold a valid copy of it. A location is one place
 * that can hold bytes of the buffer: the host copy (always location
 * VRT_DIR_HOST), a device copy of the whole buffer, the frames of one
 * device's pool. Locations are registered per directory with the device
 * and context they live in, which is what "nearest" means when a copy has
 * to be made: the same device, then a device of the same context
 * (clEnqueueCopyBuffer), then the host, then another context (through
 * host staging). Which cl_mem or frame holds a location's bytes is the
 * location owner's business; the directory only knows validity.
 *
 * The state machine has three transitions, every path's updates are made
 * of them:
 *   wrote(l, r):  l wrote r; every other copy of r is stale (valid = {l});
 *   copied(l, r): l received a copy of r from a valid location or, for a
 *                 run no one holds, was filled with its zeros (valid += l);
 *   drop(l, r):   l gives r up (valid -= l); refused, changing nothing,
 *                 where l is the only holder (its bytes would be lost:
 *                 write them home first, vrt_dir_evict).
 * A run no location holds is the zeros of the buffer's creation.
 *
 * bring and evict are the two moves built on them: bring makes a location
 * valid over a range by copying each missing run from its nearest holder
 * (the mover callback does the copy); evict writes home the runs only a
 * location holds, then drops them there.
 *
 * Pure data: no OpenCL calls, no locks (the caller holds the runtime
 * lock), unit-tested against a brute-force model (test_rt_directory).
 */
#ifndef VAST_RUNTIME_DIRECTORY_H
#define VAST_RUNTIME_DIRECTORY_H

#include <stddef.h>
#include <stdint.h>

/* Internal to the runtime (test/rt/exports.sh). */
#pragma GCC visibility push(hidden)

/* A set of locations, bit l for location l. */
typedef uint32_t vrt_locs;
#define VRT_DIR_MAX_LOCS 32
#define VRT_DIR_HOST 0
#define VRT_LOC(l) ((vrt_locs)1 << (l))

typedef struct vrt_dir_run {
	size_t off, end;  /* [off, end) */
	vrt_locs valid;   /* locations holding these bytes; 0: the zeros */
} vrt_dir_run;

typedef struct vrt_dir {
	size_t size;
	/* Sorted, covering [0, size) without gaps; neighbours differ in
	 * valid (coalesced). Empty for a buffer of size 0. */
	vrt_dir_run *run;
	unsigned nrun, cap;
	vrt_locs used;                   /* registered locations */
	/* Bytes each location holds that the host lacks (vrt_dir_dirty_bytes
	 * over the whole buffer), kept by every transition: that a location
	 * has nothing to write home is known without a walk. */
	size_t dirty[VRT_DIR_MAX_LOCS];
	int device[VRT_DIR_MAX_LOCS];    /* -1 for the host */
	int context[VRT_DIR_MAX_LOCS];   /* -1 for the host */
} vrt_dir;

/* A directory of `size` bytes no location holds (the zeros), with the host
 * registered as location 0. 0, or -1 when out of memory. */
int vrt_dir_init(vrt_dir *d, size_t size);
void vrt_dir_fini(vrt_dir *d);

/* Registers a location on `device` of `context` (small integers of the
 * caller's choosing, equal for the same device or context); its number,
 * or -1 when all are taken. It starts holding nothing. */
int vrt_dir_add_loc(vrt_dir *d, int device, int context);
/* Unregisters l (never the host); -1, changing nothing, where l is the
 * only holder of some bytes. */
int vrt_dir_remove_loc(vrt_dir *d, int l);
/* Unregisters l (never the host) whatever it holds: its copies are
 * forgotten first (what only it held reads as zeros until rewritten).
 * Never allocates, never fails: what an owner whose bytes are gone (a
 * frame pool released) or beyond saving (out of memory) does. */
void vrt_dir_release_loc(vrt_dir *d, int l);

/* The transitions (off + n <= size; n may be 0). wrote and copied return
 * -1 only when out of memory, the directory unchanged. */
int vrt_dir_wrote(vrt_dir *d, int l, size_t off, size_t n);
int vrt_dir_copied(vrt_dir *d, int l, size_t off, size_t n);
int vrt_dir_drop(vrt_dir *d, int l, size_t off, size_t n);

/* l's copy of [off, off + n) is discarded, its bytes about to be
 * replaced whole: where l was the only holder, the range reads as zeros
 * until the replacement is recorded. -1 only when out of memory. */
int vrt_dir_forget(vrt_dir *d, int l, size_t off, size_t n);
/* Room for `runs` runs, so that transitions that keep the directory within
 * them never allocate (and never fail): 0, or -1 when out of memory. */
int vrt_dir_reserve(vrt_dir *d, unsigned runs);

/* Calls fn on each run of [off, off + n), clipped to it, in order; stops
 * at the first nonzero return and returns it. */
typedef int (*vrt_dir_fn)(void *u, size_t off, size_t n, vrt_locs valid);
int vrt_dir_walk(const vrt_dir *d, size_t off, size_t n, vrt_dir_fn fn, void *u);
/* The locations holding all of [off, off + n) (every registered one when
 * n is 0). */
vrt_locs vrt_dir_holders(const vrt_dir *d, size_t off, size_t n);
/* Bytes of [off, off + n) that l holds and the host does not: what evict
 * would write home. */
size_t vrt_dir_dirty_bytes(const vrt_dir *d, int l, size_t off, size_t n);

/* What vrt_dir_pages says of a page. */
enum { VRT_DIR_PAGE_HELD = 1, VRT_DIR_PAGE_SOLE = 2 };
/* [off, off + n) as pages of 2^sh bytes from off (the last one clipped to
 * off + n), one byte each in out[0 .. (n + 2^sh - 1) >> sh): HELD where l
 * holds every byte of the page (what vrt_dir_holders would say of it),
 * SOLE where l alone holds some byte of it (newer than every other copy).
 * One walk of the runs for all the pages, not a query each. */
void vrt_dir_pages(const vrt_dir *d, int l, size_t off, size_t n, unsigned sh,
                   unsigned char *out);

/* The holder of `have` nearest to `to`: to itself, a location on its
 * device, on a device of its context, the host, any other; -1 when have
 * is empty (the zeros). */
int vrt_dir_nearest(const vrt_dir *d, vrt_locs have, int to);

/* Copies [off, off + n) from location `from` to location `to` (from -1:
 * fills with zeros); 0 on success. */
typedef int (*vrt_dir_mover)(void *u, int from, int to, size_t off, size_t n);
/* Makes `to` hold [off, off + n): each run it lacks is copied from its
 * nearest holder (one mover call per run, neighbours from the same holder
 * joined) and recorded. The mover's first error is returned, the runs
 * moved before it recorded. */
int vrt_dir_bring(vrt_dir *d, int to, size_t off, size_t n, vrt_dir_mover mv, void *u);
/* Makes l give up [off, off + n): the runs only l holds are first copied
 * home (to the host), then l drops the range. The mover's error is
 * returned with l still holding what did not go home. */
int vrt_dir_evict(vrt_dir *d, int l, size_t off, size_t n, vrt_dir_mover mv, void *u);

#pragma GCC visibility pop

#endif
