/* SPDX-License-Identifier: MIT */
/*
 * test_rt_boxframes.c - a slot's boxes packed as one strided box
 * (boxframes.c) against brute force, its alignment and the overlap of
 * two, and its LPT entry (lpt.c) read back the way the paged kernel's
 * vast_tr reads it.
 *
 * Random sets of boxes at one pitch (runs, strided boxes, some at another
 * pitch, some before byte 0, some whose runs cross a row's end): a set is
 * taken exactly when every box is one of the first kind, and then the
 * bound is the smallest rectangle of rows and columns holding each byte
 * of each box, and re-pitching maps its bytes one to one into
 * [0, width * rows). A refused box leaves the bound as it was.
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

/* The byte of the packed box that buffer byte x maps to, as vast_tr
 * computes it; -1 outside the box (the kernel's fault). */
static long long packed(const vrt_box2d *b, unsigned long long x)
{
	unsigned long long d = x - b->origin, row = d / b->pitch, col = d - row * b->pitch;
	return col < b->width && row < b->rows ? (long long)(row * b->width + col) : -1;
}

static void test_bounds(void)
{
	for (int iter = 0; iter < 20000; iter++) {
		unsigned long long pitch = 1 + rnd(300);
		unsigned nbox = 1 + rnd(4);
		vrt_box box[4];
		int want_ok = 1;
		unsigned long long r0 = ~0ull, r1 = 0, c0 = ~0ull, c1 = 0;
		for (unsigned i = 0; i < nbox; i++) {
			vrt_box *b = &box[i];
			memset(b, 0, sizeof *b);
			b->run = 1 + rnd((unsigned)pitch);
			b->origin = (long long)rnd(8 * (unsigned)pitch);
			unsigned kind = rnd(8);
			if (kind < 4) { /* strided at the pitch, maybe with a dimension of 1 */
				b->ndims = 1 + rnd(2);
				b->dim[0].pitch = (long long)pitch;
				b->dim[0].count = 1 + rnd(5);
				b->dim[1].pitch = (long long)pitch * 8;
				b->dim[1].count = 1;
			} else if (kind == 4) { /* another pitch */
				b->ndims = 1;
				b->dim[0].pitch = (long long)pitch + 1 + rnd(5);
				b->dim[0].count = 2 + rnd(3);
				want_ok = 0;
			} else if (kind == 5) { /* before byte 0 */
				b->origin = -1 - (long long)rnd(10);
				want_ok = 0;
			}
			/* kind 6, 7: one run */
			unsigned long long c = (unsigned long long)b->origin % pitch;
			if (b->origin >= 0 && c + b->run > pitch)
				want_ok = 0; /* crosses into the next row */
			if (!want_ok)
				continue;
			unsigned long long count = b->ndims ? b->dim[0].count : 1;
			unsigned long long r = (unsigned long long)b->origin / pitch;
			r0 = r < r0 ? r : r0;
			r1 = r + count > r1 ? r + count : r1;
			c0 = c < c0 ? c : c0;
			c1 = c + b->run > c1 ? c + b->run : c1;
		}
		vrt_box2d bound = {0}, before;
		int ok = 1;
		for (unsigned i = 0; i < nbox && ok; i++) {
			before = bound;
			ok = vrt_box2d_add(&bound, &box[i], pitch);
			if (!ok)
				CHECK(!memcmp(&before, &bound, sizeof bound));
		}
		CHECK(ok == want_ok);
		if (!ok || ok != want_ok)
			continue;
		CHECK(bound.pitch == pitch && bound.origin == r0 * pitch + c0);
		CHECK(bound.rows == r1 - r0 && bound.width == c1 - c0);
		/* every byte of every box maps into the packed box (one to one:
		 * row * width + col with col < width) */
		unsigned long long size = bound.width * bound.rows;
		for (unsigned i = 0; i < nbox; i++) {
			const vrt_box *b = &box[i];
			unsigned long long count = b->ndims ? b->dim[0].count : 1;
			for (unsigned long long k = 0; k < count; k++)
				for (unsigned long long j = 0; j < b->run; j++) {
					unsigned long long x = (unsigned long long)b->origin + k * pitch + j;
					long long at = packed(&bound, x);
					CHECK(at >= 0 && (unsigned long long)at < size);
				}
		}
		/* bytes outside the rectangle fault */
		CHECK(packed(&bound, bound.origin + bound.rows * pitch) == -1);
		if (bound.origin)
			CHECK(packed(&bound, bound.origin - 1) == -1);
		if (bound.width < pitch)
			CHECK(packed(&bound, bound.origin + bound.width) == -1);
	}
	/* Rows not evenly spaced are bounded by the outer ones (2 rows of
	 * 2 x 16 + 4 bytes, 64 apart), not by the inner pitch, and not when
	 * those would overlap; a tile's rows and its groups of rows (pitch
	 * 3 x 16 = 48 above 16) are one box: 6 rows. */
	vrt_box two = { .origin = 0, .run = 4, .ndims = 2 };
	two.dim[0].pitch = 16, two.dim[0].count = 3;
	two.dim[1].pitch = 64, two.dim[1].count = 2;
	CHECK(vrt_box_pitch(&two) == 64);
	vrt_box2d b = {0};
	CHECK(!vrt_box2d_add(&b, &two, 16) && b.rows == 0);
	CHECK(vrt_box2d_add(&b, &two, 64) && b.rows == 2 && b.width == 36 && b.origin == 0);
	memset(&b, 0, sizeof b);
	two.dim[1].pitch = 32;
	CHECK(vrt_box_pitch(&two) == -1);
	CHECK(!vrt_box2d_add(&b, &two, 32) && b.rows == 0);
	two.dim[1].pitch = 48;
	CHECK(vrt_box_pitch(&two) == 16);
	CHECK(vrt_box2d_add(&b, &two, 16) && b.rows == 6 && b.width == 4 && b.origin == 0);
}

/* Alignment: after vrt_box2d_align every byte of the box is still in it,
 * its first byte is a multiple of the alignment, and packing keeps each
 * byte's address modulo the alignment (rows of a strided box). */
static void test_align(void)
{
	for (int iter = 0; iter < 20000; iter++) {
		unsigned long long align = 1ull << rnd(8);
		vrt_box2d b = { 0 };
		b.pitch = 1 + rnd(600);
		b.rows = 1 + rnd(6);
		unsigned long long c0 = rnd((unsigned)b.pitch);
		b.width = 1 + rnd((unsigned)(b.pitch - c0));
		b.origin = rnd(20) * b.pitch + c0;
		vrt_box2d a = b;
		if (!vrt_box2d_align(&a, align)) {
			/* only when whole rows are not aligned either */
			CHECK(b.rows > 1 && ((b.origin / b.pitch) * b.pitch % align || b.pitch % align));
			CHECK(!memcmp(&a, &b, sizeof a));
			continue;
		}
		CHECK(a.origin % align == 0 && a.rows == b.rows && (a.rows == 1 || a.pitch == b.pitch));
		CHECK(a.rows == 1 || (a.origin % a.pitch) + a.width <= a.pitch);
		if (a.rows > 1)
			CHECK((a.pitch - a.width) % align == 0);
		for (unsigned long long r = 0; r < b.rows; r++)
			for (unsigned long long c = 0; c < b.width; c++) {
				unsigned long long x = b.origin + r * b.pitch + c;
				long long at = packed(&a, x);
				CHECK(at >= 0 && (unsigned long long)at % align == (x - a.origin) % align);
				if (at < 0)
					return;
			}
	}
}

/* Overlap of packed boxes against brute force over their bytes. */
static void test_overlap(void)
{
	static unsigned char in_a[2048];
	for (int iter = 0; iter < 5000; iter++) {
		vrt_box2d b[2];
		for (int k = 0; k < 2; k++) {
			b[k].pitch = 8 + rnd(4) * (rnd(2) ? 8 : 3);
			b[k].rows = rnd(5);
			unsigned long long c0 = rnd((unsigned)b[k].pitch);
			b[k].width = 1 + rnd((unsigned)(b[k].pitch - c0));
			b[k].origin = rnd(10) * b[k].pitch + c0;
		}
		memset(in_a, 0, sizeof in_a);
		int want = 0;
		for (unsigned long long r = 0; r < b[0].rows; r++)
			for (unsigned long long c = 0; c < b[0].width; c++)
				in_a[b[0].origin + r * b[0].pitch + c] = 1;
		for (unsigned long long r = 0; r < b[1].rows; r++)
			for (unsigned long long c = 0; c < b[1].width; c++)
				want |= in_a[b[1].origin + r * b[1].pitch + c];
		int got = vrt_box2d_overlap(&b[0], &b[1]);
		/* exact at one pitch; at two, never a miss */
		CHECK(b[0].pitch == b[1].pitch ? got == want : got >= want);
	}
}

/* A boxed slot's LPT: no page has a frame, its run is empty, marked
 * VAST_BOXED, and names its buffer, and its box entry says where the box lies in the buffer and in
 * the frames; the slot after it takes the frames after the box's. */
static void test_lpt_box(void)
{
	vrt_layout l;
	memset(&l, 0, sizeof l);
	l.nslots = 2;
	l.page_shift = 8;
	l.slot_size[1] = 4000 * 7;
	l.slot_size[2] = 1024;
	vrt_layout_init(&l);
	unsigned char u[256] = { 0 };
	u[l.slot_off[1] + 3] = 1; /* ignored: slot 1 is boxed */
	u[l.slot_off[2] + 0] = u[l.slot_off[2] + 1] = 1;
	vrt_box2d bx[VAST_MAX_SLOTS + 1];
	memset(bx, 0, sizeof bx);
	bx[1] = (vrt_box2d){ 4000 + 300, 4000, 256, 6 }; /* 1536 bytes: 6 frames */
	uint32_t lpt[256];
	vrt_frames fr;
	CHECK(vrt_lpt_build(&l, u, bx, 1000, lpt, &fr) == 0);
	CHECK(fr.first[1] == 1 && fr.count[1] == 6 && fr.buf[1] == 0);
	CHECK(fr.first[2] == 7 && fr.count[2] == 2);
	CHECK(!fr.straight);
	const uint32_t *tab = lpt + lpt[1];
	for (size_t p = 0; p < l.slot_pages[1]; p++)
		CHECK(tab[p] == VAST_NO_FRAME);
	size_t runs = lpt[2 * l.nslots + 1];
	const uint32_t *run = lpt + runs, *box = lpt + runs + 8 * l.nslots;
	CHECK(run[0] == 0xffffffffu && run[1] == 0xffffffffu); /* VAST_BOXED */
	CHECK(run[2] == 0 && run[3] == 0 && run[6] == 0); /* no run; buffer 0 */
	CHECK(box[0] == 4300 && box[1] == 0 && box[2] == 4000 && box[3] == 0);
	CHECK(box[4] == 256 && box[5] == 6);           /* width | rows << 32 */
	CHECK(box[6] == 1 * 256 && box[7] == 0);       /* frame byte */
	for (int i = 0; i < 8; i++)
		CHECK(box[8 + i] == 0);                /* slot 2: no box */
	CHECK(run[8] != 0xffffffffu);                   /* nor marked */
	/* Read back as the kernel does: each byte of the box in its frame. */
	vrt_box2d got = { box[0], box[2], box[4], box[5] };
	for (unsigned row = 0; row < 6; row++)
		for (unsigned col = 0; col < 256; col += 51)
			CHECK(packed(&got, 4300 + row * 4000ull + col) == (long long)(row * 256 + col));
	CHECK(packed(&got, 4299) == -1 && packed(&got, 4300 + 256) == -1);
	CHECK(vrt_lpt_bytes(&l) >= 4 * (runs + 16 * l.nslots + l.slot_pages[1] + l.slot_pages[2]));
}

int main(void)
{
	srand(11);
	test_bounds();
	test_align();
	test_overlap();
	test_lpt_box();
	if (failures)
		fprintf(stderr, "test_rt_boxframes: %d failures\n", failures);
	else
		printf("test_rt_boxframes: PASS\n");
	return failures != 0;
}
