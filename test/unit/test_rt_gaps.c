/* SPDX-License-Identifier: MIT */
/*
 * test_rt_gaps.c - vrt_gap_rects (gaps.c) against the pieces it groups: on
 * random pages (a row's border cells as jacobi2d leaves them, random
 * pieces, frames in order or shuffled) and page sizes, copying the
 * rectangles row by row as clEnqueueWriteBufferRect would puts in the
 * frames exactly the bytes that copying each piece to its page's frame
 * puts there, each byte once. Border cells of rows a page long take one
 * rectangle per offset in the page; of rows shorter than a page, in
 * consecutive frames, one rectangle of the row pitch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vrt.h"

#include "check.h"

static unsigned rnd(unsigned n)
{
	return (unsigned)rand() % n;
}

#define MAXPAGES 64
#define MAXPAGE 256
static unsigned char host[MAXPAGES * MAXPAGE];
static unsigned char want[MAXPAGES * MAXPAGE], got[MAXPAGES * MAXPAGE];
static uint32_t frame_of[MAXPAGES];
static vrt_gap gaps[MAXPAGES * MAXPAGE];

/* Copies r as a rectangular write does: rows of row_bytes, host and
 * device pitches apart. */
static void copy_rect(const vrt_rect *r, size_t limit)
{
	for (size_t i = 0; i < r->rows; i++) {
		size_t h = r->host_off + i * r->host_pitch, d = r->dev_off + i * r->dev_pitch;
		CHECK(h + r->row_bytes <= limit && d + r->row_bytes <= limit);
		if (h + r->row_bytes <= limit && d + r->row_bytes <= limit)
			memcpy(got + d, host + h, r->row_bytes);
	}
	CHECK(r->rows == 1 || (r->host_pitch >= r->row_bytes && r->dev_pitch >= r->row_bytes));
}

/* Pages of 2^shift bytes; rows of `row` bytes whose first and last cell
 * (of `cell` bytes) are gaps when border, else random pieces. Returns the
 * rectangle count. */
static size_t trial(unsigned shift, int border, int shuffle, size_t row, size_t cell)
{
	size_t page = (size_t)1 << shift, npages = 1 + rnd(MAXPAGES), size = npages * page;
	for (size_t i = 0; i < size; i++)
		host[i] = (unsigned char)rnd(256);
	for (size_t p = 0; p < npages; p++)
		frame_of[p] = (uint32_t)p;
	if (shuffle)
		for (size_t p = npages; p > 1; p--) {
			size_t q = rnd((unsigned)p);
			uint32_t t = frame_of[p - 1];
			frame_of[p - 1] = frame_of[q];
			frame_of[q] = t;
		}
	size_t n = 0;
	unsigned char *gap = calloc(size, 1);
	if (border) {
		for (size_t y = 0; y * row < size; y++)
			for (size_t x = 0; x < cell; x++) {
				gap[y * row + x] = 1;
				if ((y + 1) * row - 1 - x < size)
					gap[(y + 1) * row - 1 - x] = 1;
			}
	} else {
		for (size_t i = 0, k = rnd(12); i < k; i++) {
			size_t at = rnd((unsigned)size), len = 1 + rnd((unsigned)page);
			for (size_t x = at; x < at + len && x < size; x++)
				gap[x] = 1;
		}
	}
	/* the pieces: runs of gap bytes cut at page boundaries */
	for (size_t x = 0; x < size; x++)
		if (gap[x] && (x == 0 || !gap[x - 1] || !(x & (page - 1))))
			gaps[n++] = (vrt_gap){ 1, x >> shift, x, x + 1 };
		else if (gap[x])
			gaps[n - 1].hi = x + 1;
	memset(want, 0, size);
	memset(got, 0, size);
	for (size_t i = 0; i < n; i++) {
		size_t d = ((size_t)frame_of[gaps[i].page] << shift) + (gaps[i].lo & (page - 1));
		memcpy(want + d, host + gaps[i].lo, gaps[i].hi - gaps[i].lo);
	}
	vrt_rect *rc;
	size_t nrc = vrt_gap_rects(gaps, n, shift, frame_of, &rc);
	CHECK(nrc != (size_t)-1);
	size_t moved = 0, gap_bytes = 0;
	for (size_t i = 0; i < n; i++)
		gap_bytes += gaps[i].hi - gaps[i].lo;
	for (size_t i = 0; i < nrc && nrc != (size_t)-1; i++) {
		copy_rect(&rc[i], size);
		moved += rc[i].rows * rc[i].row_bytes;
	}
	CHECK(moved == gap_bytes); /* each byte once */
	CHECK(!memcmp(want, got, size));
	free(rc);
	free(gap);
	return nrc;
}

int main(void)
{
	srand(5);
	for (int i = 0; i < 3000 && failures < 10; i++) {
		unsigned shift = 4 + rnd(5); /* 16..256-byte pages */
		size_t page = (size_t)1 << shift;
		size_t row = page * (1 + rnd(2)) / (1 + rnd(2)); /* a page, half, two */
		trial(shift, rnd(2), rnd(2), row, 1 + rnd(4));
	}
	/* A row a page, border cells in order: the pieces at the page's start
	 * and those at its end, two rectangles. */
	size_t nrc = trial(6, 1, 0, 64, 4);
	CHECK(nrc <= 2);
	/* Rows of a quarter page in frames in order: the gaps joined across
	 * pages, one rectangle of the row pitch (and the first and last
	 * pieces), where cut at pages they were five. */
	nrc = trial(8, 1, 0, 64, 4);
	CHECK(nrc <= 3);
	vrt_rect *none;
	CHECK(vrt_gap_rects(gaps, 0, 6, frame_of, &none) == 0 && !none);
	if (failures)
		fprintf(stderr, "test_rt_gaps: %d failures\n", failures);
	else
		printf("test_rt_gaps: PASS\n");
	return failures != 0;
}
