/* SPDX-License-Identifier: MIT */
/*
 * launch.h - launch/: one launch command, native, paged, fused with
 * the next or split over several devices (launch.c), the split itself
 * (multi.c) and each device's share of it (partition.c). Uses paged/
 * and the folders below it.
 */
#ifndef VRT_LAUNCH_H
#define VRT_LAUNCH_H

#include "paged/paged.h"

#pragma GCC visibility push(hidden)

/* --- partition.c: each device's share of a launch (docs/multi.md) ------- */
typedef struct vrt_pdev {
	double rate;       /* work-groups per second; not > 0: unusable */
	double link_bw;    /* bytes per second per direction; 0: host memory */
	unsigned link;     /* devices with the same link id share it */
	double overhead_s; /* fixed cost of a share, seconds */
} vrt_pdev;
typedef struct vrt_pwork {
	size_t groups;          /* work-groups of the launch */
	double bytes_per_group; /* most bytes a group moves in one direction */
	double merge_s;         /* merge cost per device used, when several */
	double host_bw;         /* bytes per second of host memory; 0: unbounded */
} vrt_pwork;
/* Chooses out[j] work-groups for each of n devices (summing to
 * w->groups, 0: device unused) so the devices used finish together and
 * the launch ends soonest, the fewest devices where several sets end as
 * soon; returns the modelled seconds, or -1 when no device has a rate
 * (then everything goes to device 0). Pure. */
double vrt_partition(const vrt_pdev *d, unsigned n, const vrt_pwork *w, size_t *out);

/* The partitioner's devices for a launch whose work-group does `work`
 * FMAs and moves w->bytes_per_group bytes each way: device j computes
 * m[j].fma_per_s / work groups per second, a host device (no link) no
 * more than its reads and writes pass through w->host_bw, over a link of
 * its own; no fixed cost. Pure. */
void vrt_model_pdevs(const vrt_devmodel *m, unsigned n, const vrt_pwork *w, double work,
                     vrt_pdev *out);

/* --- traffic.c: the bytes a work-group of a split launch moves --------- */
/* The most bytes a work-group of L moves in one direction, the launch
 * split n ways: from the footprint descriptors where they give every
 * slot's pages, else L's buffer bytes per work-group. Pure. */
double vrt_group_bytes(const vrt_launch *L, unsigned n);
/* A layout of L's slots in pages of 2^shift bytes (sizes and page counts
 * only): what the descriptors are evaluated at (traffic.c, resident.c). */
void vrt_slots_layout(const vrt_launch *L, unsigned shift, vrt_layout *lay);

/* --- resident.c: a split launch's windows on copies kept on the devices -- */
/* Pages of 4 KiB: what a window's may-write set is recorded at, and so
 * where two windows' writes count as one page's. */
#define VRT_RESIDENT_SHIFT 12
/* What a round on resident shares did, for the split's log line. */
typedef struct vrt_resident_note {
	size_t merged_pages;  /* pages two or more windows may write, merged on a device */
	size_t merged_bytes;  /* bytes of other writers' copies brought for them */
	const char *why_not;  /* a constant: why the round could not run so, or NULL */
} vrt_resident_note;
/* Runs window [start[j], start[j] + counts[j]) of L's work-groups on
 * devs[j] (the launch's own device first), each on copies of the bytes
 * it reaches kept on that device (mem/replica.c), all at once, the
 * pages several may write merged on a device (devmerge.c): 1 when it
 * ran, or tried to (*err its result; ms[j] each device's time, *note
 * what was merged), 0 when these windows cannot run so (note->why_not:
 * the descriptors do not give their pages, one does not fit its
 * device...; nothing of the program's changed). Lock held. */
int vrt_resident_run(vrt_launch *L, const cl_device_id *devs, unsigned n, const size_t *start,
                     const size_t *counts, double *ms, vrt_resident_note *note, cl_int *err);

/* --- devmerge.c: pages several windows of a resident split may write ---- */
/* The pages of L's written slots that shares of one split may write,
 * merged on the device of each page's destination, the lowest-index
 * share that may write it (docs/multi.md, "Resident shares"). Use:
 * _new, _writes for each share and slot (pure: what to merge, the
 * scratch it takes), _share for each share that runs, _replica for
 * each of its slots' replicas, _keep before the kernels, _run after
 * them, _claims before recording each share's writes, _free. Lock held;
 * owned by the caller. */
typedef struct vrt_devmerge vrt_devmerge;
/* For n shares of L; NULL when out of host memory. */
vrt_devmerge *vrt_devmerge_new(const vrt_launch *L, unsigned n);
void vrt_devmerge_free(vrt_devmerge *M);
/* Share j may write the pages wr[p] != 0 (VRT_RESIDENT_SHIFT) of slot s. */
void vrt_devmerge_writes(vrt_devmerge *M, unsigned j, unsigned s, const unsigned char *wr);
/* Pages two or more shares may write. */
size_t vrt_devmerge_pages(const vrt_devmerge *M);
/* Device memory share j's merge needs beside its replicas (0 when it is
 * the destination of no page). */
size_t vrt_devmerge_scratch(const vrt_devmerge *M, unsigned j);
/* Share j runs on dev, in ctx, through the in-order queue q; a
 * destination's merge kernels are built there (once per context and
 * device): their build's error when they cannot be. */
cl_int vrt_devmerge_share(vrt_devmerge *M, unsigned j, cl_context ctx, cl_command_queue q,
                          cl_device_id dev);
/* Share j's replica of slot s, holding every page it may write. */
void vrt_devmerge_replica(vrt_devmerge *M, unsigned j, unsigned s, vrt_replica *r);
/* Before the kernels, on the destinations' queues: their shared pages'
 * bytes kept in scratch there. CL_MEM_OBJECT_ALLOCATION_FAILURE (or
 * CL_OUT_OF_RESOURCES) when there is no room. */
cl_int vrt_devmerge_keep(vrt_devmerge *M);
/* After every share's kernels finished: the other writers' copies of
 * each destination's shared pages merged into its replica; *bytes those
 * copies' bytes. */
cl_int vrt_devmerge_run(vrt_devmerge *M, size_t *bytes);
/* Clears from wr (share j's may-write pages of slot s) the shared pages
 * another share is the destination of: what j's replica is the newest
 * copy of after the merge. */
void vrt_devmerge_claims(const vrt_devmerge *M, unsigned j, unsigned s, unsigned char *wr);

/* --- placement.c: a whole write over the devices of VAST_DEVICES ------- */
/* Writes all of m from src, each device's window to that device at once
 * (mem/spread.c), when VAST_DEVICES names several devices with links,
 * m is large, has no host or device copy and each window fits its
 * device: 1 when done, else 0 (the caller writes it the ordinary way,
 * which replaces whatever a failed placement left). q: the write's
 * queue, whose device takes the first window. Lock held. */
int vrt_place_whole_write(vrt_mem *m, cl_command_queue q, const void *src);

/* --- multi.c: one launch split over the devices of VAST_DEVICES --------- */
/* Runs L over several devices when VAST_DEVICES names more than its own
 * and the split is exact and pays: 1 (*err its result), else 0 (the
 * launch runs on its own device as before; a log line says why when a
 * split was wanted). Lock held; the shares run on threads of their own
 * while the caller waits. */
int vrt_multi_run(vrt_launch *L, cl_int *err);

#pragma GCC visibility pop
#endif
