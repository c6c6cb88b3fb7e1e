/* SPDX-License-Identifier: MIT */
/*
 * test_rt_lpt.c - LPT and frame building (ascending, contiguous frames,
 * scratch frame 0, whether every slot is one run: the straight variant),
 * spans, and recovery: gather then scatter of written
 * frames keeps every byte the kernel did not write, and only the valid
 * bytes of a buffer's last page go back.
 */
#include <stdio.h>
#include <string.h>

#include "vrt.h"

#include "check.h"

#define PG 256

/* Two slots of pages of PG bytes: 6 pages (the last partial) and 3. */
static void two_slots(vrt_layout *l)
{
	memset(l, 0, sizeof *l);
	l->nslots = 2;
	l->page_shift = 8;
	l->slot_size[1] = 5 * PG + 3; /* 6 pages */
	l->slot_size[2] = 3 * PG;     /* 3 pages */
	vrt_layout_init(l);
}

static void test_lpt(void)
{
	vrt_layout l;
	two_slots(&l);
	unsigned char u[16] = { 0 };
	/* slot 1: pages 1, 2, 5; slot 2: pages 0, 2 */
	u[l.slot_off[1] + 1] = u[l.slot_off[1] + 2] = u[l.slot_off[1] + 5] = 1;
	u[l.slot_off[2] + 0] = u[l.slot_off[2] + 2] = 1;
	uint32_t lpt[64];
	vrt_frames fs;
	CHECK(vrt_lpt_build(&l, u, NULL, 1000, lpt, &fs) == 0);
	CHECK(fs.used[0] == 6 && fs.used[1] == 0); /* 5 pages + scratch */
	CHECK(lpt[0] == 2);
	/* Header: 2 slots, then the run table at 8 (32-byte aligned, 8
	 * words per slot), the box table (as many), then the page tables
	 * at 8 + 16 + 16 = 40. */
	CHECK(lpt[5] == 8 && vrt_lpt_runs_index(2) == 8);
	CHECK(lpt[1] == 40 && lpt[2] == 6);
	CHECK(lpt[3] == 46 && lpt[4] == 3);
	CHECK(vrt_lpt_bytes(&l) == 4 * (40 + 6 + 3));
	uint32_t want1[6] = { VAST_NO_FRAME, 1, 2, VAST_NO_FRAME, VAST_NO_FRAME, 3 };
	uint32_t want2[3] = { 4, VAST_NO_FRAME, 5 };
	CHECK(!memcmp(lpt + 40, want1, sizeof want1));
	CHECK(!memcmp(lpt + 46, want2, sizeof want2));
	CHECK(fs.first[1] == 1 && fs.count[1] == 3 && fs.first[2] == 4 && fs.count[2] == 2);
	CHECK(fs.buf[1] == 0 && fs.buf[2] == 0);
	for (int i = 0; i < 6; i++)
		CHECK(lpt[40 + i] != 0); /* frame 0 is never handed out */
	/* Neither slot's pages are one run: no fast path (length 0), and
	 * not the straight variant. */
	CHECK(lpt[8 + 2] == 0 && lpt[8 + 3] == 0);
	CHECK(lpt[16 + 2] == 0 && lpt[16 + 3] == 0);
	CHECK(!fs.straight);

	vrt_span *sp;
	size_t n = vrt_spans(&l, u, lpt, 1, &sp);
	CHECK(n == 2);
	if (n == 2) {
		CHECK(sp[0].page == 1 && sp[0].npages == 2 && sp[0].frame == 1);
		CHECK(sp[1].page == 5 && sp[1].npages == 1 && sp[1].frame == 3);
	}

	/* Recovery. host: slot 1's bytes; frames: the frame image. */
	unsigned char host[5 * PG + 3], orig[sizeof host], fr[6 * PG];
	for (size_t i = 0; i < sizeof host; i++)
		host[i] = orig[i] = (unsigned char)(i * 7 + 1);
	memset(fr, 0xee, sizeof fr);
	for (size_t i = 0; i < n; i++)
		vrt_gather(&l, &sp[i], host, fr);
	CHECK(!memcmp(fr + 1 * PG, host + 1 * PG, 2 * PG));
	CHECK(!memcmp(fr + 3 * PG, host + 5 * PG, 3));
	CHECK(fr[3 * PG + 3] == 0 && fr[4 * PG - 1] == 0); /* past the end: zero */
	CHECK(fr[0] == 0xee); /* scratch untouched by gather */
	/* The "kernel" writes every other byte of page 2 and byte 1 of page 5. */
	for (size_t i = 0; i < PG; i += 2)
		fr[2 * PG + i] = 0x55;
	fr[3 * PG + 1] = 0x99;
	fr[3 * PG + 10] = 0x77; /* past the buffer's end: must not land */
	unsigned char guard[16];
	memset(guard, 0xab, sizeof guard);
	for (size_t i = 0; i < n; i++)
		vrt_scatter(&l, &sp[i], host, fr);
	for (size_t i = 0; i < sizeof host; i++) {
		unsigned char want = orig[i];
		if (i >= 2 * PG && i < 3 * PG && (i - 2 * PG) % 2 == 0)
			want = 0x55;
		if (i == 5 * PG + 1)
			want = 0x99;
		if (host[i] != want) {
			CHECK(host[i] == want);
			break;
		}
	}
	for (size_t i = 0; i < sizeof guard; i++)
		CHECK(guard[i] == 0xab);
	vrt_free(sp);

	/* A slot with no pages: no spans. */
	unsigned char z[16] = { 0 };
	vrt_lpt_build(&l, z, NULL, 1000, lpt, &fs);
	CHECK(vrt_spans(&l, z, lpt, 2, &sp) == 0 && sp == NULL);
	CHECK(fs.count[1] == 0 && fs.count[2] == 0 && fs.used[0] == 1);
	CHECK(fs.straight); /* no slot with frames, none split */

	/* Slot 1 pages 2..4 (one run in frames 1..3), slot 2 page 1. */
	unsigned char r[16] = { 0 };
	r[l.slot_off[1] + 2] = r[l.slot_off[1] + 3] = r[l.slot_off[1] + 4] = 1;
	r[l.slot_off[2] + 1] = 1;
	vrt_lpt_build(&l, r, NULL, 1000, lpt, &fs);
	CHECK(lpt[8] == 2 * PG && lpt[9] == 0);      /* first byte */
	CHECK(lpt[10] == 3 * PG && lpt[11] == 0);    /* length */
	CHECK(lpt[12] == 1 * PG && lpt[13] == 0);    /* frame byte */
	CHECK(lpt[16] == 1 * PG && lpt[18] == PG && lpt[20] == 4 * PG);
	CHECK(fs.straight);
	/* The same with slot 2 empty: still straight. One page more in
	 * slot 1 past a gap (page 0): two runs, not straight. */
	r[l.slot_off[2] + 1] = 0;
	vrt_lpt_build(&l, r, NULL, 1000, lpt, &fs);
	CHECK(fs.straight && fs.count[2] == 0);
	r[l.slot_off[1] + 0] = 1;
	vrt_lpt_build(&l, r, NULL, 1000, lpt, &fs);
	CHECK(!fs.straight);
}

/* Frames in several device buffers of per_buf frames: a slot that does
 * not fit the rest of a buffer starts the next (its elements may straddle
 * any two of its pages), its frames count within its buffer, and its run
 * names the buffer; a slot larger than a buffer, or more buffers than
 * VAST_FRAME_BUFS, do not fit. */
static void test_lpt_buffers(void)
{
	vrt_layout l;
	memset(&l, 0, sizeof l);
	l.nslots = 3;
	l.page_shift = 8;
	l.slot_size[1] = l.slot_size[2] = l.slot_size[3] = 4 * PG;
	vrt_layout_init(&l);
	unsigned char u[64] = { 0 };
	for (unsigned s = 1; s <= 3; s++)
		for (unsigned p = 0; p < 3; p++)
			u[l.slot_off[s] + p] = 1; /* pages 0..2 of each slot */
	uint32_t lpt[128];
	vrt_frames fr;
	/* 4 frames a buffer: slot 1 in frames 1..3 of buffer 0 (0 is
	 * scratch), slot 2 in 0..2 of buffer 1, slot 3 in 0..2 of buffer 2. */
	CHECK(vrt_lpt_build(&l, u, NULL, 4, lpt, &fr) == 0);
	CHECK(fr.buf[1] == 0 && fr.first[1] == 1 && fr.count[1] == 3);
	CHECK(fr.buf[2] == 1 && fr.first[2] == 0 && fr.count[2] == 3);
	CHECK(fr.buf[3] == 2 && fr.first[3] == 0 && fr.count[3] == 3);
	CHECK(fr.used[0] == 4 && fr.used[1] == 3 && fr.used[2] == 3 && fr.used[3] == 0);
	size_t runs = vrt_lpt_runs_index(3);
	for (unsigned s = 1; s <= 3; s++) {
		const uint32_t *r = lpt + runs + 8 * (s - 1);
		CHECK(r[2] == 3 * PG);                /* one run of 3 pages */
		CHECK(r[4] == fr.first[s] * PG);      /* its frame byte, in its buffer */
		CHECK(r[6] == fr.buf[s] && r[7] == 0); /* its buffer */
		const uint32_t *tab = lpt + lpt[2 * s - 1];
		for (unsigned p = 0; p < 3; p++)
			CHECK(tab[p] == fr.first[s] + p);
	}
	/* 7 frames a buffer: slot 2 fits after slot 1 (frames 4..6). */
	CHECK(vrt_lpt_build(&l, u, NULL, 7, lpt, &fr) == 0);
	CHECK(fr.buf[2] == 0 && fr.first[2] == 4 && fr.buf[3] == 1 && fr.first[3] == 0);
	/* A slot larger than a buffer. */
	CHECK(vrt_lpt_build(&l, u, NULL, 2, lpt, &fr) == -1);
	/* More buffers than VAST_FRAME_BUFS: one page a slot, and with one
	 * frame a buffer one buffer a slot after the scratch frame's. */
	vrt_layout m;
	memset(&m, 0, sizeof m);
	m.nslots = VAST_FRAME_BUFS + 2;
	m.page_shift = 8;
	for (unsigned s = 1; s <= m.nslots; s++)
		m.slot_size[s] = PG;
	vrt_layout_init(&m);
	unsigned char w[8 * (VAST_FRAME_BUFS + 2)] = { 0 };
	uint32_t big[512];
	for (unsigned s = 1; s <= m.nslots; s++)
		w[m.slot_off[s]] = 1;
	CHECK(vrt_lpt_build(&m, w, NULL, 1, big, &fr) == -1);
	CHECK(vrt_lpt_build(&m, w, NULL, 3, big, &fr) == 0);
}

/* Every word of the LPT is the builder's: two builds into memory holding
 * different garbage are byte for byte the same (paged/kargs.c compares whole
 * tables to skip resending one; garbage in the header's padding resent
 * every cached launch's). */
static void test_lpt_whole(void)
{
	vrt_layout l;
	memset(&l, 0, sizeof l);
	for (unsigned n = 1; n <= 5; n++) {
		l.nslots = n;
		l.page_shift = 8;
		for (unsigned s = 1; s <= n; s++)
			l.slot_size[s] = (s + 1) * PG;
		vrt_layout_init(&l);
		unsigned char u[64] = { 0 };
		for (unsigned s = 1; s <= n; s++)
			u[l.slot_off[s]] = 1;
		size_t words = vrt_lpt_bytes(&l) / sizeof(uint32_t);
		uint32_t a[256], b[256];
		vrt_frames fa, fb;
		CHECK(words <= 256);
		memset(a, 0xaa, sizeof a);
		memset(b, 0x55, sizeof b);
		CHECK(vrt_lpt_build(&l, u, NULL, 1000, a, &fa) == 0);
		CHECK(vrt_lpt_build(&l, u, NULL, 1000, b, &fb) == 0);
		CHECK(!memcmp(a, b, words * sizeof *a));
	}
}

/* The hold (paged/keeps.c) keeps the first 4 pages of slot 1, bound at frame
 * buffer 6: a range whose slot-1 pages all lie there is bound to it, page
 * p in frame p, one run from byte 0 (the straight variant may run), and
 * takes frames of the set for slot 2 alone; one slot-1 page past the
 * hold and slot 1 takes frames as any slot. */
static void test_lpt_hold(void)
{
	vrt_layout l;
	two_slots(&l);
	l.hold_slot = 1;
	l.hold_buf = 6;
	l.hold_pages = 4;
	CHECK(vrt_set_bufs(&l) == 6);
	unsigned char u[16] = { 0 };
	u[l.slot_off[1] + 1] = u[l.slot_off[1] + 3] = 1; /* a gap: still the hold */
	u[l.slot_off[2] + 1] = 1;
	uint32_t lpt[64];
	vrt_frames fs;
	CHECK(vrt_lpt_build(&l, u, NULL, 1000, lpt, &fs) == 0);
	CHECK(fs.held == 1 && fs.buf[1] == 6 && fs.first[1] == 0 && fs.count[1] == 4);
	uint32_t want1[6] = { 0, 1, 2, 3, VAST_NO_FRAME, VAST_NO_FRAME };
	CHECK(!memcmp(lpt + lpt[1], want1, sizeof want1));
	/* slot 1's run: from byte 0, the hold's 4 pages, in buffer 6 */
	CHECK(lpt[8 + 0] == 0 && lpt[8 + 2] == 4 * PG && lpt[8 + 6] == 6);
	CHECK(fs.first[2] == 1 && fs.count[2] == 1 && fs.buf[2] == 0);
	CHECK(fs.used[0] == 2 && fs.straight);
	CHECK(vrt_pas_frame_pages(&l, u) == 1);

	u[l.slot_off[1] + 4] = 1; /* past the hold */
	CHECK(vrt_lpt_build(&l, u, NULL, 1000, lpt, &fs) == 0);
	CHECK(fs.held == 0 && fs.buf[1] == 0 && fs.first[1] == 1 && fs.count[1] == 3);
	CHECK(fs.used[0] == 5);
	CHECK(vrt_pas_frame_pages(&l, u) == 4);
}

int main(void)
{
	test_lpt();
	test_lpt_hold();
	test_lpt_buffers();
	test_lpt_whole();
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures != 0;
}
