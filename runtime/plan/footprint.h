/* SPDX-License-Identifier: MIT */
/*
 * footprint.h - the bytes a range of work-groups touches through one
 * access, from its footprint descriptor (vast/stub.h), the
 * launch geometry and the scalar arguments: a union of strided boxes,
 * computed in time independent of the data size (footprint.c).
 *
 * The planner uses them for kernels whose accesses all have descriptors
 * (fprows.c). Thread-safe: no state.
 */
#ifndef VRT_FOOTPRINT_H
#define VRT_FOOTPRINT_H

#include <stddef.h>
#include "vast/stub.h"

#pragma GCC visibility push(hidden)

/* One variable per id and dimension, one per loop. */
#define VRT_BOX_MAX_DIMS (6 + VAST_FP_MAX_LOOPS)

/* The bytes origin + sum(k_i * pitch_i) + [0, run), 0 <= k_i < count_i;
 * pitches ascending and positive, each larger than run. */
typedef struct vrt_box {
	long long origin;
	unsigned long long run;
	unsigned ndims;
	struct {
		long long pitch;
		unsigned long long count;
	} dim[VRT_BOX_MAX_DIMS];
} vrt_box;

typedef struct vrt_fp_launch {
	unsigned work_dim;
	size_t global[3], local[3], offset[3]; /* as given to clEnqueueNDRangeKernel */
	const long long *args; /* per kernel parameter: integer scalar values */
	unsigned nargs;
} vrt_fp_launch;

/* The boxes of footprint fp of kernel table k for the flattened
 * work-groups [g0, g1) (OpenCL 1.2 §3.2: dimension 0 varies fastest):
 * stores up to max boxes in out and returns how many there are (when more
 * than max, call again with room for all), or -1 when the descriptor
 * cannot be evaluated (not affine, an argument missing, an overflow).
 * The count depends on the range's shape and the guards, never on the
 * data size. *exact: the boxes hold exactly the bytes touched; else a
 * superset. Boxes may overlap. */
int vrt_fp_boxes(const vast_kernel_footprints *k, const vast_footprint *fp,
                 const vrt_fp_launch *l, size_t g0, size_t g1, vrt_box *out, int max,
                 int *exact);

/* Sets part[p] = 1 for every page p < npages (of 2^shift bytes) that a
 * byte of box b falls in; bytes outside the pages are ignored. Work in
 * proportion to the pages marked: inner dimensions whose blocks leave
 * gaps under a page are one interval. Returns 0, with part partly
 * marked, when the box is larger than 2^62 bytes (fprows.c). */
int vrt_box_mark(unsigned char *part, size_t npages, unsigned shift, const vrt_box *b);
/* What marks did to one slot's part of a row: the pages they set that
 * were clear, and the pages [lo, hi) from the first they marked to past
 * the last (lo == hi: none). Zeroed before the first mark. */
typedef struct vrt_marked {
	size_t fresh, lo, hi;
} vrt_marked;
/* vrt_box_mark, adding to *m what it marked: the planner's probes count
 * and clear only what they marked, not every page of the row (fpplan.c).
 * Work in proportion to the pages marked still. */
int vrt_box_mark_count(unsigned char *part, size_t npages, unsigned shift, const vrt_box *b,
                       vrt_marked *m);

/* A slot's bytes of a range packed as one strided box (boxframes.c:
 * compact frames for boxes): `rows` rows of `width` bytes,
 * `pitch` bytes apart in the buffer from byte `origin`, lie one after
 * another in the frames. rows 0: none. */
typedef struct vrt_box2d {
	unsigned long long origin, pitch, width, rows;
} vrt_box2d;

/* The pitch of box b's rows as one strided dimension (dimensions of one
 * step left out, and one whose pitch is the span of the rows below it
 * joined to them); 0 when it is one run. Rows not evenly spaced are
 * bounded by those of the outermost dimension, each from the first byte
 * to the last of the dimensions below; -1 when those would overlap. */
long long vrt_box_pitch(const vrt_box *b);
/* Widens `bound` (zeroed: empty) to hold every byte of box b, its rows
 * (vrt_box_pitch) `pitch` (> 0) apart; 0, bound unchanged, when it
 * cannot: b strides by another pitch, starts before byte 0, or a row of
 * it crosses into the next. */
int vrt_box2d_add(vrt_box2d *bound, const vrt_box *b, unsigned long long pitch);
/* Widens b so that packing keeps every byte's address modulo `align` (a
 * power of two): its first byte a multiple of align, and its width one
 * of the pitch modulo align, so an element aligned in the buffer is
 * aligned in the frames; whole rows where that passes a row's end. 0
 * when even whole rows are not aligned (b then unchanged). */
int vrt_box2d_align(vrt_box2d *b, unsigned long long align);
/* Whether packed boxes a and b share a byte of the buffer (at one pitch
 * exactly, else by the spans from first to last byte). */
int vrt_box2d_overlap(const vrt_box2d *a, const vrt_box2d *b);

/* The pages a union of boxes covers whole (cover.c): begin with room for
 * max blocks (a bound on work and memory: a box with more, once fused
 * with its neighbours, is left out, covering nothing), add boxes, then
 * read the pages. Ownership: the boxes and intervals are the vrt_cover's,
 * freed by vrt_cover_free; a zeroed vrt_cover is empty. */
typedef struct vrt_interval {
	long long lo, hi; /* the bytes [lo, hi) */
} vrt_interval;

typedef struct vrt_cover {
	vrt_box *box; /* the boxes added */
	size_t nbox, boxcap;
	vrt_interval *iv; /* their dense blocks */
	size_t n, cap, max;
} vrt_cover;

void vrt_cover_begin(vrt_cover *c, size_t max);
/* 1: b added (or empty); 0: left out (larger than 2^62 bytes); -1: out
 * of memory. */
int vrt_cover_add(vrt_cover *c, const vrt_box *b);
/* Sets pages[p] = 1 for each page p < npages (of 2^shift bytes; the last
 * one ends at size) whose every byte lies in the boxes added; 0, or -1
 * out of memory (pages partly set: set ones are still covered). */
int vrt_cover_pages(vrt_cover *c, unsigned char *pages, size_t npages, unsigned shift,
                    size_t size);
/* After vrt_cover_pages (which leaves c's blocks merged and in order):
 * the bytes of page `page` (up to size) that no box covers, as up to max
 * intervals [lo, hi) of buffer offsets, in order, into gap; returns how
 * many, max + 1 when there are more. */
size_t vrt_cover_gaps(const vrt_cover *c, size_t page, unsigned shift, size_t size,
                      vrt_interval *gap, size_t max);
/* After vrt_cover_pages: whether the boxes added cover every byte of
 * [lo, hi). */
int vrt_cover_holds(const vrt_cover *c, long long lo, long long hi);
void vrt_cover_free(vrt_cover *c);

#pragma GCC visibility pop
#endif
