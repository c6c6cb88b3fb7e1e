/* SPDX-License-Identifier: MIT */
/*
 * vrt.h - the whole internal interface of libvastrt, for the tests and
 * tools that reach inside it. The runtime's own files never include it:
 * each includes the header of its folder, runtime/<folder>/<folder>.h,
 * which includes the one of the folder below it. The folders, top to
 * bottom (docs/runtime.md, "Source map"):
 *
 *   api/      the OpenCL surface: the entry points, listed once
 *   launch/   one launch command: its path, a split over devices
 *   paged/    a paged launch run range by range
 *   inspect/  the inspectors
 *   program/  programs, kernels, their variants, stubs, compiling at
 *             clBuildProgram and its cache
 *   plan/     planning: Page Accessed Sets, ranges, frames, boxes, gaps,
 *             footprints, the plans kept
 *   mem/      where a buffer's bytes live: host and device copies,
 *             frames kept between launches, the hold, eviction
 *   exec/     commands in queue order, their events, pending writes
 *   host/     pinned memory, the ring, copy threads, the device budget
 *   base/     the loader's functions and the lock, handles, allocation,
 *             configuration, logging, stats, trace
 *
 * A folder uses only the folders below it: its files include no header
 * of a folder above (test rt/include_layers) and call nothing defined
 * there (test rt/no_file_cycles).
 */
#ifndef VRT_H
#define VRT_H

#include "api/api.h"

#endif
