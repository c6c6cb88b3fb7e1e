/* SPDX-License-Identifier: MIT */
/*
 * test_rt_framepool.c - which kept device buffers a paged launch reuses
 * (vrt_devsets_fit, runtime/mem/framepool.c). On random kept sets and random
 * needs: every buffer left is wanted and at least as large as wanted;
 * every buffer not left was released exactly once (none leaks, none is
 * released twice); the launch's device bytes (buffers left, plus the
 * ones it makes at the size wanted) stay within the budget whenever its
 * own sizes do; and a kept buffer large enough is dropped only when the
 * budget demands it. The driver's release is a fake that records calls.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vrt.h"

#include "check.h"

/* Fake handles: 1..NHANDLES, released[h] counts releases. */
#define NHANDLES (1 + VRT_MAX_SETS * (VAST_FRAME_BUFS + 2))
static unsigned released[NHANDLES + 1];

static cl_int CL_API_CALL fake_release(cl_mem m)
{
	uintptr_t h = (uintptr_t)m;
	CHECK(h >= 1 && h <= NHANDLES);
	if (h >= 1 && h <= NHANDLES)
		released[h]++;
	return CL_SUCCESS;
}

static unsigned long long rnd(unsigned long long n)
{
	return n ? (unsigned long long)rand() % n : 0;
}

static cl_mem handle(unsigned *next)
{
	return (cl_mem)(uintptr_t)(*next)++;
}

/* The bytes a launch holds for one buffer: kept, or made as wanted. */
static unsigned long long hold(cl_mem m, size_t have, size_t want)
{
	return m ? have : want;
}

static void one_case(void)
{
	vrt_devsets have, want, before;
	unsigned next = 1;
	memset(&have, 0, sizeof have);
	memset(&want, 0, sizeof want);
	memset(released, 0, sizeof released);
	size_t page = (size_t)1 << (8 + rnd(9));
	unsigned long long want_total = page;
	want.dummy_bytes = page;
	want.nsets = 1 + (unsigned)rnd(VRT_MAX_SETS);
	for (unsigned i = 0; i < want.nsets; i++) {
		want.set[i].lpt_bytes = 64 + rnd(4096);
		want_total += want.set[i].lpt_bytes + sizeof(cl_uint);
		for (unsigned b = 0; b < VAST_FRAME_BUFS; b++)
			if (b == 0 || rnd(3) == 0) {
				want.set[i].frame_bytes[b] = page * (1 + rnd(64));
				want_total += want.set[i].frame_bytes[b];
			}
	}
	/* Kept: any shape, sizes around the wanted ones. */
	if (rnd(4)) {
		have.dummy = handle(&next);
		have.dummy_bytes = (size_t)1 << (8 + rnd(9));
	}
	have.nsets = 1 + (unsigned)rnd(VRT_MAX_SETS);
	for (unsigned i = 0; i < have.nsets; i++) {
		if (rnd(4)) {
			have.set[i].lptbuf = handle(&next);
			have.set[i].lpt_bytes = 64 + rnd(4096);
		}
		have.set[i].fault = handle(&next);
		for (unsigned b = 0; b < VAST_FRAME_BUFS; b++)
			if (rnd(2)) {
				have.set[i].frames[b] = handle(&next);
				have.set[i].frame_bytes[b] = page * (1 + rnd(96));
			}
	}
	before = have;
	unsigned long long budget = want_total + rnd(want_total);
	vrt_devsets_fit(&have, &want, budget);

	CHECK(have.nsets == want.nsets);
	unsigned long long total = hold(have.dummy, have.dummy_bytes, want.dummy_bytes);
	CHECK(!have.dummy || have.dummy_bytes >= want.dummy_bytes);
	for (unsigned i = 0; i < VRT_MAX_SETS; i++) {
		const vrt_devset *h = &have.set[i], *w = &want.set[i];
		if (i >= want.nsets) {
			CHECK(!h->lptbuf && !h->fault);
			for (unsigned b = 0; b < VAST_FRAME_BUFS; b++)
				CHECK(!h->frames[b]);
			continue;
		}
		CHECK(!h->lptbuf || h->lpt_bytes >= w->lpt_bytes);
		total += hold(h->lptbuf, h->lpt_bytes, w->lpt_bytes) + sizeof(cl_uint);
		for (unsigned b = 0; b < VAST_FRAME_BUFS; b++) {
			CHECK(!h->frames[b] || (w->frame_bytes[b] && h->frame_bytes[b] >= w->frame_bytes[b]));
			total += hold(h->frames[b], h->frame_bytes[b], w->frame_bytes[b]);
		}
	}
	CHECK(total <= budget);
	/* Released exactly what is gone; and, within the budget with
	 * nothing dropped for it, nothing usable was dropped. */
	int dropped_usable = 0;
	for (unsigned i = 0; i < VRT_MAX_SETS; i++) {
		const vrt_devset *b4 = &before.set[i], *h = &have.set[i], *w = &want.set[i];
		cl_mem was[VAST_FRAME_BUFS + 2], now[VAST_FRAME_BUFS + 2];
		for (unsigned b = 0; b < VAST_FRAME_BUFS; b++) {
			was[b] = b4->frames[b];
			now[b] = h->frames[b];
			dropped_usable |= i < want.nsets && was[b] && !now[b] && w->frame_bytes[b] &&
			                  b4->frame_bytes[b] >= w->frame_bytes[b];
		}
		was[VAST_FRAME_BUFS] = b4->lptbuf;
		now[VAST_FRAME_BUFS] = h->lptbuf;
		was[VAST_FRAME_BUFS + 1] = b4->fault;
		now[VAST_FRAME_BUFS + 1] = h->fault;
		for (unsigned b = 0; b < VAST_FRAME_BUFS + 2; b++) {
			CHECK(!now[b] || now[b] == was[b]);
			if (was[b])
				CHECK(released[(uintptr_t)was[b]] == (now[b] ? 0u : 1u));
		}
	}
	if (before.dummy)
		CHECK(released[(uintptr_t)before.dummy] == (have.dummy ? 0u : 1u));
	if (dropped_usable) {
		/* Only to meet the budget: keeping them all would pass it. */
		unsigned long long keep_all = hold(before.dummy && before.dummy_bytes >= want.dummy_bytes
		                                   ? before.dummy : NULL, before.dummy_bytes, want.dummy_bytes);
		for (unsigned i = 0; i < want.nsets; i++) {
			const vrt_devset *b4 = &before.set[i], *w = &want.set[i];
			int lpt_ok = b4->lptbuf && b4->lpt_bytes >= w->lpt_bytes;
			keep_all += (lpt_ok ? b4->lpt_bytes : w->lpt_bytes) + sizeof(cl_uint);
			for (unsigned b = 0; b < VAST_FRAME_BUFS; b++) {
				int ok = b4->frames[b] && w->frame_bytes[b] &&
				         b4->frame_bytes[b] >= w->frame_bytes[b];
				keep_all += ok ? b4->frame_bytes[b] : w->frame_bytes[b];
			}
		}
		CHECK(keep_all > budget);
	}
	vrt_devsets_release(&have);
	for (unsigned h = 1; h < next; h++)
		CHECK(released[h] == 1);
}

/* The hold (paged/keeps.c) is no set's: a fit that drops a set's frame buffer
 * forgets the pages the sets' frames held but keeps the hold, and the
 * pages it holds (hold.c); releasing the sets releases both. */
static void hold_case(void)
{
	vrt_devsets have, want;
	unsigned next = 1;
	memset(&have, 0, sizeof have);
	memset(&want, 0, sizeof want);
	memset(released, 0, sizeof released);
	want.nsets = have.nsets = 1;
	want.set[0].frame_bytes[0] = 4096;
	have.set[0].frames[0] = handle(&next);
	have.set[0].frame_bytes[0] = 1024; /* too small: dropped */
	have.hold = handle(&next);
	have.hold_bytes = 8192;
	vrt_resident in_set = {7, 3, 0, 0, 5};
	CHECK(vrt_res_put(&have.res, &in_set) == 0);
	CHECK(vrt_hold_init(&have, 7, 2, 12) == 0);
	vrt_hold_put(&have, 1);
	vrt_devsets_fit(&have, &want, 1 << 20);
	CHECK(!have.set[0].frames[0] && released[1] == 1);
	CHECK(have.hold && released[2] == 0);
	CHECK(!vrt_res_find(&have.res, 7, 3));
	CHECK(vrt_hold_has(&have, 7, 1) && !vrt_hold_has(&have, 7, 0) && !vrt_hold_has(&have, 8, 1));
	vrt_devsets_release(&have);
	CHECK(released[2] == 1 && !have.hold && !have.held && !have.res.n);
}

int main(void)
{
	vrt_real.clReleaseMemObject = fake_release;
	hold_case();
	srand(10);
	for (int i = 0; i < 20000 && !failures; i++)
		one_case();
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures != 0;
}
