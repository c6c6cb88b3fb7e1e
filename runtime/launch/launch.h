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
} vrt_pwork;
/* Chooses out[j] work-groups for each of n devices (summing to
 * w->groups, 0: device unused) so the devices used finish together and
 * the launch ends soonest; returns the modelled seconds, or -1 when no
 * device has a rate (then everything goes to device 0). Pure. */
double vrt_partition(const vrt_pdev *d, unsigned n, const vrt_pwork *w, size_t *out);

/* --- resident.c: a split launch's windows on copies kept on the devices -- */
/* Pages of 4 KiB: what a window's may-write set is recorded at, and so
 * where two windows' writes count as one page's. */
#define VRT_RESIDENT_SHIFT 12
/* Runs window [start[j], start[j] + counts[j]) of L's work-groups on
 * devs[j] (the launch's own device first), each on copies of the bytes
 * it reaches kept on that device (mem/replica.c), all at once: 1 when it
 * ran, or tried to (*err its result; ms[j] each device's time), 0 when
 * these windows cannot run so (the descriptors do not give their pages,
 * two may write one page, one does not fit its device...; nothing of
 * the program's changed). Lock held. */
int vrt_resident_run(vrt_launch *L, const cl_device_id *devs, unsigned n, const size_t *start,
                     const size_t *counts, double *ms, cl_int *err);

/* --- multi.c: one launch split over the devices of VAST_DEVICES --------- */
/* Runs L over several devices when VAST_DEVICES names more than its own
 * and the split is exact and pays: 1 (*err its result), else 0 (the
 * launch runs on its own device as before; a log line says why when a
 * split was wanted). Lock held; the shares run on threads of their own
 * while the caller waits. */
int vrt_multi_run(vrt_launch *L, cl_int *err);

#pragma GCC visibility pop
#endif
