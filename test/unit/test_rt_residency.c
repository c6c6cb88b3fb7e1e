/* SPDX-License-Identifier: MIT */
/*
 * test_rt_residency.c - the map of host pages the kept frame sets hold
 * (runtime/mem/residency.c), against a brute-force model on random traces:
 * records (new keys and replacements), batch forgets by predicate (the
 * frames a range overwrites, the pages it writes), clears, and the
 * allocator failing at random (a failed record changes nothing; a
 * forget allocates nothing, so it forgets exactly what its predicate
 * says even then), forgets of the entries in a run of frames
 * (vrt_res_drop_frames: through the index of frames, or, where two
 * entries share a frame, every entry). After every step each
 * (serial, page) is found exactly where the model says, or nowhere. A
 * trace that, as the paged path does, empties a frame before it records
 * an entry there keeps the index whole (never crowded) through
 * replacements, deletions that move entries, and the table's growth.
 * Then the frame pool's part (runtime/mem/framepool.c): fitting kept sets to
 * a launch keeps the map while every frame buffer stays, forgets it when
 * one is dropped, and releasing the sets forgets it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vrt.h"

#include "check.h"

#define SERIALS 9  /* 1..8 used; 0 is no buffer */
#define PAGES 97

static vrt_resident model[SERIALS][PAGES]; /* serial 0: absent */

static unsigned rnd(unsigned n)
{
	return n ? (unsigned)rand() % n : 0;
}

static vrt_resident random_entry(void)
{
	vrt_resident e = {1 + rnd(SERIALS - 1), rnd(PAGES), rnd(VRT_MAX_SETS),
	                  rnd(VAST_FRAME_BUFS), 1 + rnd(200)};
	return e;
}

typedef struct pred {
	int kind;          /* 0: frames of a set and buffer, 1: pages of a serial */
	unsigned set, buf;
	size_t lo, hi;
	unsigned long long serial;
} pred;

static int gone(const vrt_resident *e, void *ctx)
{
	const pred *p = ctx;
	if (p->kind == 0)
		return e->set == p->set && e->buf == p->buf && e->frame >= p->lo && e->frame < p->hi;
	return e->serial == p->serial && e->page >= p->lo && e->page < p->hi;
}

static int gone_any(const vrt_resident *e, void *ctx)
{
	(void)e;
	(void)ctx;
	return 1;
}

/* Entries of one serial's odd pages: what a range's predicate may
 * add to the frames it refills (the pages it writes). */
static int gone_odd(const vrt_resident *e, void *ctx)
{
	(void)ctx;
	return e->page & 1;
}

static void compare(const vrt_residency *r)
{
	size_t n = 0;
	for (unsigned s = 1; s < SERIALS; s++)
		for (size_t p = 0; p < PAGES; p++) {
			const vrt_resident *e = vrt_res_find(r, s, p), *m = &model[s][p];
			n += m->serial != 0;
			if (!m->serial) {
				CHECK(e == NULL);
				continue;
			}
			CHECK(e != NULL);
			if (e)
				CHECK(!memcmp(e, m, sizeof *e));
		}
	CHECK(r->n == n);
}

static void random_trace(unsigned seed)
{
	vrt_residency r;
	memset(&r, 0, sizeof r);
	memset(model, 0, sizeof model);
	srand(seed);
	for (int step = 0; step < 3000; step++) {
		unsigned op = rnd(100);
		/* The allocator fails now and then (vrt_alloc_fail_after). */
		int fail = rnd(20) == 0;
		if (fail)
			vrt_alloc_fail_after(1); /* the next allocation fails */
		if (op < 70) {
			vrt_resident e = random_entry();
			if (vrt_res_put(&r, &e) == 0)
				model[e.serial][e.page] = e;
			else
				CHECK(fail);
		} else if (op < 98) {
			pred p = {(int)rnd(2), rnd(VRT_MAX_SETS), rnd(VAST_FRAME_BUFS), rnd(200), 0,
			          1 + rnd(SERIALS - 1)};
			p.hi = p.lo + rnd(80);
			if (p.kind)
				p.lo %= PAGES, p.hi = p.lo + rnd(PAGES);
			if (p.kind == 0 && rnd(2))
				vrt_res_drop_frames(&r, p.set, p.buf, p.lo, p.hi - p.lo, gone_any,
				                    NULL);
			else
				vrt_res_drop_if(&r, gone, &p);
			for (unsigned s = 1; s < SERIALS; s++)
				for (size_t q = 0; q < PAGES; q++)
					if (model[s][q].serial && gone(&model[s][q], &p))
						memset(&model[s][q], 0, sizeof model[s][q]);
		} else {
			vrt_res_clear(&r);
			memset(model, 0, sizeof model);
		}
		vrt_alloc_fail_after(0); /* none fails */
		compare(&r);
	}
	vrt_res_clear(&r);
}

#define FRAMES 300

/* Forgets in the model what drop_frames(set, buf, [lo, hi), pick) does. */
static void model_drop_frames(unsigned set, unsigned buf, size_t lo, size_t hi,
                              int (*pick)(const vrt_resident *, void *))
{
	for (unsigned s = 1; s < SERIALS; s++)
		for (size_t q = 0; q < PAGES; q++) {
			vrt_resident *m = &model[s][q];
			if (m->serial && m->set == set && m->buf == buf && m->frame >= lo &&
			    m->frame < hi && pick(m, NULL))
				memset(m, 0, sizeof *m);
		}
}

/* A trace of one entry a frame at most: a frame is emptied before an
 * entry is recorded there, as a range drops the entries of the frames it
 * refills. The index never gives up (crowded), and drop_frames forgets
 * exactly what the model says. */
static void one_a_frame(unsigned seed)
{
	vrt_residency r;
	memset(&r, 0, sizeof r);
	memset(model, 0, sizeof model);
	srand(seed);
	for (int step = 0; step < 4000; step++) {
		unsigned op = rnd(100);
		if (op < 60) {
			vrt_resident e = {1 + rnd(SERIALS - 1), rnd(PAGES), rnd(3), rnd(2),
			                  rnd(FRAMES)};
			vrt_res_drop_frames(&r, e.set, e.buf, e.frame, 1, gone_any, NULL);
			model_drop_frames(e.set, e.buf, e.frame, e.frame + 1, gone_any);
			CHECK(vrt_res_put(&r, &e) == 0);
			model[e.serial][e.page] = e;
		} else if (op < 90) {
			unsigned set = rnd(3), buf = rnd(2);
			size_t lo = rnd(FRAMES), n = rnd(120);
			int (*pick)(const vrt_resident *, void *) = rnd(2) ? gone_any : gone_odd;
			vrt_res_drop_frames(&r, set, buf, lo, n, pick, NULL);
			model_drop_frames(set, buf, lo, lo + n, pick);
		} else if (op < 99) {
			unsigned long long serial = 1 + rnd(SERIALS - 1);
			size_t page = rnd(PAGES);
			vrt_res_forget(&r, serial, page);
			memset(&model[serial][page], 0, sizeof model[serial][page]);
		} else {
			vrt_res_clear(&r);
			memset(model, 0, sizeof model);
		}
		CHECK(!r.crowded);
		compare(&r);
	}
	vrt_res_clear(&r);
}

/* framepool.c drops buffers through the driver: a fake that counts. */
static unsigned releases;
static cl_int CL_API_CALL fake_release(cl_mem m)
{
	(void)m;
	releases++;
	return CL_SUCCESS;
}

static void pool_forgets(void)
{
	vrt_real.clReleaseMemObject = fake_release;
	uintptr_t h = 1;
	vrt_devsets have, want;
	memset(&have, 0, sizeof have);
	memset(&want, 0, sizeof want);
	have.nsets = want.nsets = 2;
	have.dummy = (cl_mem)h++;
	have.dummy_bytes = want.dummy_bytes = 4096;
	for (unsigned i = 0; i < 2; i++) {
		have.set[i].frames[0] = (cl_mem)h++;
		have.set[i].frame_bytes[0] = want.set[i].frame_bytes[0] = 64 << 12;
		have.set[i].lptbuf = (cl_mem)h++;
		have.set[i].lpt_bytes = want.set[i].lpt_bytes = 512;
		have.set[i].fault = (cl_mem)h++;
	}
	vrt_resident e = {1, 3, 1, 0, 7};
	CHECK(vrt_res_put(&have.res, &e) == 0);
	/* The same sizes: every buffer stays, and so does the map. */
	vrt_devsets_fit(&have, &want, 1ull << 30);
	CHECK(releases == 0);
	CHECK(vrt_res_find(&have.res, 1, 3) != NULL);
	/* Set 0 needs a larger frame buffer: it is dropped, the map with it
	 * (its frames are named by set and buffer). */
	want.set[0].frame_bytes[0] = 128 << 12;
	vrt_devsets_fit(&have, &want, 1ull << 30);
	CHECK(releases == 1);
	CHECK(have.res.n == 0 && vrt_res_find(&have.res, 1, 3) == NULL);
	/* Releasing the sets (a native launch needs the room) forgets it. */
	CHECK(vrt_res_put(&have.res, &e) == 0);
	vrt_devsets_release(&have);
	CHECK(have.res.n == 0 && have.res.tab == NULL);
}

int main(void)
{
	for (unsigned seed = 1; seed <= 20; seed++)
		random_trace(seed);
	for (unsigned seed = 1; seed <= 10; seed++)
		one_a_frame(seed);
	pool_forgets();
	if (failures)
		fprintf(stderr, "test_rt_residency: %d failures\n", failures);
	return failures != 0;
}
