/* SPDX-License-Identifier: MIT */
/*
 * test_rt_pas.c - PAS layout, normalization and reduction (VAST
 * Algorithm 1): empty rows, a row over budget, every page in one row,
 * the last partial page, shared pages, exact-fit budgets, allocation
 * failure; runs of marked pages and their extent found a word at a
 * time.
 */
#include <stdio.h>
#include <string.h>

#include "vrt.h"

#include "check.h"

/* Two slots of 4096-byte pages: 3 pages + 10 bytes (4 pages, last
 * partial) and exactly 9 pages. */
static void layout2(vrt_layout *l)
{
	memset(l, 0, sizeof *l);
	l->nslots = 2;
	l->page_shift = 12;
	l->slot_size[1] = 3 * 4096 + 10;
	l->slot_size[2] = 9 * 4096;
	vrt_layout_init(l);
}

static void test_layout(void)
{
	vrt_layout l;
	layout2(&l);
	CHECK(l.slot_pages[1] == 4); /* the partial last page counts */
	CHECK(l.slot_pages[2] == 9);
	CHECK(l.slot_off[1] == 0);
	CHECK(l.slot_off[2] == 8); /* 64-bit aligned */
	CHECK(l.row_bytes == 24);
	CHECK(l.total_pages == 13);
	CHECK(vrt_lpt_bytes(&l) == 4 * (8 + 16 + 16 + 13)); /* header, runs, boxes, tables */
	/* frames: pages + scratch frame 0, plus the LPT */
	CHECK(vrt_range_footprint(&l, 0) == 4096 + vrt_lpt_bytes(&l));
	CHECK(vrt_range_footprint(&l, 5) == 6 * 4096 + vrt_lpt_bytes(&l));
}

static void test_normalize(void)
{
	unsigned char b[19];
	for (int i = 0; i < 19; i++)
		b[i] = (unsigned char)(i * 37);
	b[3] = 0x80;
	b[4] = 0;
	b[17] = 0;
	vrt_pas_normalize(b, sizeof b);
	for (int i = 0; i < 19; i++) {
		int want = i == 0 || i == 4 || i == 17 ? 0 : 1;
		CHECK(b[i] == want);
	}
	unsigned char u[8] = { 0, 1, 0, 1, 0, 0, 0, 0 }, r[8] = { 1, 1, 0, 0, 0, 0, 0, 1 };
	CHECK(vrt_pas_or(u, r, 8) == 2);
	CHECK(vrt_pas_count(u, 8) == 4);
}

/* Pages in one row and not in another, a word at a time, against the
 * byte-by-byte count over rows of random pages. */
static void test_count_new(void)
{
	unsigned char a[64], b[64];
	unsigned x = 12345;
	for (int round = 0; round < 50; round++) {
		size_t want = 0;
		for (int i = 0; i < 64; i++) {
			x = x * 1103515245u + 12345u;
			a[i] = x >> 16 & 1;
			b[i] = x >> 17 & 1;
			want += a[i] && !b[i];
		}
		CHECK(vrt_pas_count_new(a, b, 64) == want);
	}
	memset(a, 1, 64);
	memset(b, 0, 64);
	CHECK(vrt_pas_count_new(a, b, 64) == 64);
	CHECK(vrt_pas_count_new(a, a, 64) == 0);
	CHECK(vrt_pas_count_new(b, a, 64) == 0);
}

/* The runs vrt_pas_next_run finds in row[0..n), against a byte-by-byte
 * walk: each run's first page and end, none past n. */
static void check_runs(const unsigned char *row, size_t n)
{
	size_t p = 0, e, from = 0;
	for (;;) {
		while (p < n && !row[p])
			p++;
		size_t q = p;
		while (q < n && row[q])
			q++;
		size_t a = vrt_pas_next_run(row, from, n, &e);
		CHECK(a == p);
		if (p == n)
			break;
		CHECK(e == q);
		from = p = q;
	}
	size_t lo = 99, hi = 99, a = 0, b = n;
	while (a < n && !row[a])
		a++;
	while (b > a && !row[b - 1])
		b--;
	vrt_pas_extent(row, n, &lo, &hi);
	CHECK(a == n ? lo == 0 && hi == 0 : lo == a && hi == b);
}

/* Empty rows, a full one, runs across words, a run at the row's end, the
 * last partial word (bytes past n, marked, are not the row's), marks
 * other than 1 (a fill row's 2), random rows of every length up to 40. */
static void test_runs(void)
{
	unsigned char r[48];
	size_t e = 99;
	memset(r, 0, sizeof r);
	CHECK(vrt_pas_next_run(r, 0, 0, &e) == 0);
	CHECK(vrt_pas_next_run(r, 0, 40, &e) == 40);
	CHECK(vrt_pas_next_run(r, 40, 40, &e) == 40);
	r[45] = 1;
	CHECK(vrt_pas_next_run(r, 44, 40, &e) == 40); /* from past n: none */
	r[45] = 0;
	memset(r, 1, sizeof r);
	CHECK(vrt_pas_next_run(r, 0, 40, &e) == 0 && e == 40);
	CHECK(vrt_pas_next_run(r, 13, 40, &e) == 13 && e == 40);
	CHECK(vrt_pas_next_run(r, 0, 5, &e) == 0 && e == 5); /* stops at n inside a word */
	memset(r, 0, sizeof r);
	r[39] = 1; /* a run at the end, in the last partial word */
	r[40] = r[41] = 1; /* past n */
	CHECK(vrt_pas_next_run(r, 0, 40, &e) == 39 && e == 40);
	memset(r, 0, sizeof r);
	memset(r + 6, 2, 12); /* across two word boundaries */
	CHECK(vrt_pas_next_run(r, 0, 40, &e) == 6 && e == 18);
	CHECK(vrt_pas_next_run(r, 18, 40, &e) == 40);
	CHECK(vrt_pas_next_run(r, 9, 40, &e) == 9 && e == 18);
	r[44] = 1; /* marked, but past n */
	CHECK(vrt_pas_next_run(r, 18, 41, &e) == 41);
	size_t lo, hi;
	vrt_pas_extent(r, 41, &lo, &hi);
	CHECK(lo == 6 && hi == 18);
	vrt_pas_extent(r, 0, &lo, &hi);
	CHECK(lo == 0 && hi == 0);
	unsigned x = 777;
	for (size_t n = 0; n <= 40; n++)
		for (int round = 0; round < 20; round++) {
			for (size_t i = 0; i < sizeof r; i++) {
				x = x * 1103515245u + 12345u;
				/* sparse, dense and all-marked rows */
				r[i] = round % 3 == 2 ? 1 : (x >> 16) % (round % 3 ? 2 : 7) == 0;
			}
			check_runs(r, n);
		}
}

static unsigned char rows[8][24];

static void mark(int row, unsigned slot, size_t page, const vrt_layout *l)
{
	rows[row][l->slot_off[slot] + page] = 1;
}

static void test_reduce(void)
{
	vrt_layout l;
	layout2(&l);
	vrt_range *r;
	size_t n, bad;
	unsigned long long lpt = vrt_lpt_bytes(&l);

	/* All rows empty: one range, no pages. */
	memset(rows, 0, sizeof rows);
	CHECK(vrt_pas_reduce(&l, &rows[0][0], 8, 4096 + lpt, &r, &n, &bad) == 0);
	CHECK(n == 1 && r[0].first_row == 0 && r[0].last_row == 7 && r[0].pages == 0);
	vrt_free(r);

	/* Row k touches page k of slot 2 and the last (partial) page of slot 1. */
	for (int k = 0; k < 8; k++) {
		mark(k, 2, (size_t)k, &l);
		mark(k, 1, 3, &l);
	}
	/* Budget of 3 pages + scratch: rows pair up (shared page counted once). */
	CHECK(vrt_pas_reduce(&l, &rows[0][0], 8, 4 * 4096 + lpt, &r, &n, &bad) == 0);
	CHECK(n == 4);
	for (size_t i = 0; i < n && n == 4; i++) {
		CHECK(r[i].first_row == 2 * i && r[i].last_row == 2 * i + 1);
		CHECK(r[i].pages == 3);
	}
	vrt_free(r);
	/* One byte less: every row alone. */
	CHECK(vrt_pas_reduce(&l, &rows[0][0], 8, 4 * 4096 + lpt - 1, &r, &n, &bad) == 0);
	CHECK(n == 8);
	vrt_free(r);
	/* Large budget: one range of 9 pages. */
	CHECK(vrt_pas_reduce(&l, &rows[0][0], 8, 1ull << 30, &r, &n, &bad) == 0);
	CHECK(n == 1 && r[0].pages == 9);
	vrt_free(r);

	/* One row over the budget: reported, nothing returned. */
	for (size_t p = 0; p < 9; p++)
		mark(5, 2, p, &l);
	r = NULL;
	CHECK(vrt_pas_reduce(&l, &rows[0][0], 8, 4 * 4096 + lpt, &r, &n, &bad) == -1);
	CHECK(bad == 5 && r == NULL);

	/* All pages in one row, the others empty: one range fits when the
	 * budget holds all 13 pages. */
	memset(rows, 0, sizeof rows);
	for (size_t p = 0; p < 4; p++)
		mark(3, 1, p, &l);
	for (size_t p = 0; p < 9; p++)
		mark(3, 2, p, &l);
	CHECK(vrt_pas_reduce(&l, &rows[0][0], 8, 14 * 4096 + lpt, &r, &n, &bad) == 0);
	CHECK(n == 1 && r[0].pages == 13);
	vrt_free(r);
	CHECK(vrt_pas_reduce(&l, &rows[0][0], 8, 13 * 4096 + lpt, &r, &n, &bad) == -1);
	CHECK(bad == 3);

	/* Out of memory comes back as -2. */
	vrt_alloc_fail_after(1);
	CHECK(vrt_pas_reduce(&l, &rows[0][0], 8, 1ull << 30, &r, &n, &bad) == -2);
	vrt_alloc_fail_after(0);
	/* No rows: no ranges. */
	CHECK(vrt_pas_reduce(&l, &rows[0][0], 0, 1ull << 30, &r, &n, &bad) == 0);
	CHECK(n == 0);
	vrt_free(r);
}

/* The hold (paged/keeps.c, choose_hold) keeps the first 6 pages of slot 2: a
 * union whose slot-2 pages all lie there takes frames for slot 1 alone
 * (lpt.c binds slot 2 to the hold); one page past it and every slot-2
 * page takes a frame again. The reduction cuts ranges by those frames. */
static void test_hold(void)
{
	vrt_layout l;
	layout2(&l);
	l.hold_slot = 2;
	l.hold_pages = 6;
	unsigned char u[24] = { 0 };
	u[l.slot_off[1] + 3] = 1;
	for (size_t p = 0; p < 6; p++)
		u[l.slot_off[2] + p] = 1;
	CHECK(vrt_pas_frame_pages(&l, u) == 1);
	u[l.slot_off[2] + 6] = 1;
	CHECK(vrt_pas_frame_pages(&l, u) == 8);
	l.hold_pages = 0; /* no hold at this page size */
	CHECK(vrt_pas_frame_pages(&l, u) == 8);
	l.hold_pages = 6;

	/* Row k touches page k of slot 2 and page 3 of slot 1: rows 0..5 fit
	 * one frame (slot 1's page) and the scratch frame; row 6 brings
	 * pages 0..6 of slot 2 into frames, more than a budget of 3 frames
	 * and the scratch, so it starts a range of its own with row 7. */
	vrt_range *r;
	size_t n, bad;
	unsigned long long lpt = vrt_lpt_bytes(&l);
	memset(rows, 0, sizeof rows);
	for (int k = 0; k < 8; k++) {
		mark(k, 2, (size_t)k, &l);
		mark(k, 1, 3, &l);
	}
	CHECK(vrt_pas_reduce(&l, &rows[0][0], 8, 4 * 4096 + lpt, &r, &n, &bad) == 0);
	CHECK(n == 2);
	if (n == 2) {
		CHECK(r[0].first_row == 0 && r[0].last_row == 5 && r[0].pages == 1);
		CHECK(r[1].first_row == 6 && r[1].last_row == 7 && r[1].pages == 3);
	}
	vrt_free(r);
	/* Without the hold, pairs of rows as in test_reduce. */
	l.hold_slot = 0;
	CHECK(vrt_pas_reduce(&l, &rows[0][0], 8, 4 * 4096 + lpt, &r, &n, &bad) == 0);
	CHECK(n == 4);
	vrt_free(r);
}

/* The frames of a row counted from its marks (vrt_pas_marked_frames:
 * the planner's probes, fpplan.c) against vrt_pas_frame_pages of the
 * whole row, over random rows of random layouts, with and without a
 * hold whose pages the marks reach or pass; clearing the marks leaves
 * the row clear. */
static void test_marked_frames(void)
{
	unsigned x = 4242;
	for (int round = 0; round < 2000; round++) {
		vrt_layout l;
		memset(&l, 0, sizeof l);
		l.nslots = 1 + round % 4;
		l.page_shift = 12;
		for (unsigned s = 1; s <= l.nslots; s++) {
			x = x * 1103515245u + 12345u;
			l.slot_size[s] = 1 + (x >> 8) % (40 * 4096);
		}
		vrt_layout_init(&l);
		unsigned char *row = vrt_calloc(1, l.row_bytes);
		vrt_marked m[VAST_MAX_SLOTS + 1];
		memset(m, 0, sizeof m);
		for (unsigned s = 1; s <= l.nslots; s++) {
			/* pages of one run of the slot (or none), a few clear */
			x = x * 1103515245u + 12345u;
			size_t n = l.slot_pages[s], lo = (x >> 4) % (n + 1), hi = lo + (x >> 12) % (n - lo + 1);
			for (size_t p = lo; p < hi; p++) {
				x = x * 1103515245u + 12345u;
				row[l.slot_off[s] + p] = p == lo || p == hi - 1 || (x >> 16) % 4 != 0;
				m[s].fresh += row[l.slot_off[s] + p];
			}
			m[s].lo = lo;
			m[s].hi = hi;
		}
		x = x * 1103515245u + 12345u;
		l.hold_slot = (x >> 8) % (l.nslots + 1);
		l.hold_pages = l.hold_slot ? (x >> 16) % (l.slot_pages[l.hold_slot] + 1) : 0;
		CHECK(vrt_pas_marked_frames(&l, m) == vrt_pas_frame_pages(&l, row));
		vrt_pas_clear_marked(&l, row, m);
		CHECK(vrt_pas_count(row, l.row_bytes) == 0);
		vrt_free(row);
	}
}

/* Frames beside an LPT: within the share, and the same for LPTs of
 * different sizes within one step (1/32 of the share), so the kernels of
 * a pipeline keep one another's frame buffers. */
static void test_frames_beside_lpt(void)
{
	unsigned long long share = 1ull << 26; /* 1024 pages of 64 KiB: steps of 32 */
	unsigned sh = 16;
	unsigned long long a = vrt_frames_beside_lpt(share, 5400, sh),
	                   b = vrt_frames_beside_lpt(share, 8100, sh),
	                   c = vrt_frames_beside_lpt(share, 32u << 16, sh),
	                   d = vrt_frames_beside_lpt(share, (32u << 16) + 1, sh);
	CHECK(a == 1024 - 32 && a == b && c == a);
	CHECK(d == 1024 - 64); /* one byte more than a step: the next step */
	for (size_t lb = 1; lb < (64u << 16); lb += 4093)
		CHECK((vrt_frames_beside_lpt(share, lb, sh) << sh) + lb <= share);
	CHECK(vrt_frames_beside_lpt(share, share, sh) == 0);
	CHECK(vrt_frames_beside_lpt(10u << 16, 100, sh) == 9); /* steps of one page */
}

int main(void)
{
	test_layout();
	test_normalize();
	test_count_new();
	test_runs();
	test_hold();
	test_marked_frames();
	test_frames_beside_lpt();
	test_reduce();
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures != 0;
}
