/* SPDX-License-Identifier: MIT */
/*
 * test_rt_directory.c - the memory directory (runtime/mem/directory.c)
 * against a brute-force model on random traces.
 *
 * The model keeps, per byte, the set of locations holding it, and every
 * location keeps real bytes; `truth` is what the program expects the
 * buffer to hold. The traces are made of what the runtime does: host
 * reads, writes and maps (of the buffer or of a sub-buffer's window),
 * native launches (a device copy brought whole, then partly written),
 * paged launches (pages brought into a device's frames, some written),
 * evictions and direct drops. After every step:
 *   - the directory's runs, expanded per byte, equal the model's sets,
 *     cover the buffer in order and are coalesced;
 *   - every location the directory says holds a byte holds truth there,
 *     and a byte no one holds is a zero of creation;
 *   - a brought range reads back truth at its destination, moved from
 *     the nearest holder (same device, same context, host, other);
 *   - a drop that would lose the only copy is refused and changes
 *     nothing;
 *   - each location's count of bytes the host lacks equals the model's,
 *     whatever transition moved it;
 *   - the pages of a random range, of a random size, read at once
 *     (vrt_dir_pages) say what the model says of each page: held whole
 *     by the location, some byte of it held by it alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem/directory.h"

#include "check.h"

#define SIZE 96
#define LOCS 5

/* Locations: 0 host; 1 device 0's copy; 2 device 0's frames; 3 device
 * 1's copy (same context); 4 device 2's frames (another context). */
static const int loc_device[LOCS] = {-1, 0, 0, 1, 2};
static const int loc_context[LOCS] = {-1, 0, 0, 0, 1};

static unsigned char truth[SIZE];
static unsigned char bytes[LOCS][SIZE];
static vrt_locs model[SIZE];
static int loc_id[LOCS];    /* the directory's number of each */
static int moves, bad_source;

static int rnd(int n)
{
	return rand() % n;
}

/* The rank of `from` as a source for `to`, as the directory must rank it. */
static int rank(int from, int to)
{
	if (from == to)
		return 0;
	if (from != 0 && loc_device[from] == loc_device[to])
		return 1;
	if (from != 0 && loc_context[from] == loc_context[to])
		return 2;
	if (from == 0)
		return 3;
	return 4;
}

static int index_of(int id)
{
	for (int l = 0; l < LOCS; l++)
		if (loc_id[l] == id)
			return l;
	return -1;
}

/* The mover: copies real bytes, and checks that the source held them
 * and was the nearest holder of every byte it moves. */
static int mover(void *u, int from_id, int to_id, size_t off, size_t n)
{
	(void)u;
	int from = from_id < 0 ? -1 : index_of(from_id), to = index_of(to_id);
	moves++;
	for (size_t i = off; i < off + n; i++) {
		if (from < 0) {
			if (model[i])
				bad_source++;
			bytes[to][i] = 0;
			continue;
		}
		if (!(model[i] & VRT_LOC(from)))
			bad_source++;
		for (int l = 0; l < LOCS; l++)
			if ((model[i] & VRT_LOC(l)) && rank(l, to) < rank(from, to))
				bad_source++;
		bytes[to][i] = bytes[from][i];
	}
	return 0;
}

static void model_bring(int to, size_t off, size_t n)
{
	for (size_t i = off; i < off + n; i++)
		model[i] |= VRT_LOC(to);
}

static void model_wrote(int l, size_t off, size_t n)
{
	for (size_t i = off; i < off + n; i++) {
		truth[i] = (unsigned char)(1 + rnd(255));
		bytes[l][i] = truth[i];
		model[i] = VRT_LOC(l);
	}
}

static void bring(vrt_dir *d, int to, size_t off, size_t n)
{
	CHECK(vrt_dir_bring(d, loc_id[to], off, n, mover, NULL) == 0);
	model_bring(to, off, n);
	CHECK(memcmp(&bytes[to][off], &truth[off], n) == 0);
}

static void wrote(vrt_dir *d, int l, size_t off, size_t n)
{
	CHECK(vrt_dir_wrote(d, loc_id[l], off, n) == 0);
	model_wrote(l, off, n);
}

/* The directory's state equals the model's, runs well formed, and every
 * holder holds truth. */
static void compare(const vrt_dir *d)
{
	size_t at = 0;
	for (unsigned r = 0; r < d->nrun; r++) {
		CHECK(d->run[r].off == at && d->run[r].end > at);
		CHECK(r == 0 || d->run[r].valid != d->run[r - 1].valid);
		at = d->run[r].end;
	}
	CHECK(at == SIZE);
	for (size_t i = 0; i < SIZE; i++) {
		vrt_locs want = 0;
		for (int l = 0; l < LOCS; l++)
			if (model[i] & VRT_LOC(l))
				want |= VRT_LOC(loc_id[l]);
		vrt_locs got = vrt_dir_holders(d, i, 1);
		CHECK(got == want);
		if (!model[i])
			CHECK(truth[i] == 0);
		for (int l = 0; l < LOCS; l++)
			if (model[i] & VRT_LOC(l))
				CHECK(bytes[l][i] == truth[i]);
	}
	for (int id = 0; id < VRT_DIR_MAX_LOCS; id++) {
		int l = index_of(id);
		size_t dirty = 0;
		for (size_t i = 0; l >= 0 && i < SIZE; i++)
			dirty += (model[i] & VRT_LOC(l)) && !(model[i] & VRT_LOC(0));
		CHECK(d->dirty[id] == dirty);
	}
}

/* A random range of the buffer, or of a sub-buffer's window [32, 72). */
static void pick(size_t *off, size_t *n)
{
	size_t lo = 0, hi = SIZE;
	if (rnd(3) == 0) {
		lo = 32;
		hi = 72;
	}
	size_t a = lo + (size_t)rnd((int)(hi - lo)), b = lo + (size_t)rnd((int)(hi - lo + 1));
	if (a > b) {
		size_t t = a;
		a = b;
		b = t;
	}
	*off = a;
	*n = b - a;
}

static void step(vrt_dir *d)
{
	size_t off, n;
	pick(&off, &n);
	int dev = 1 + rnd(LOCS - 1);
	switch (rnd(9)) {
	case 0: /* host read */
		bring(d, 0, off, n);
		break;
	case 1: /* host write */
		wrote(d, 0, off, n);
		break;
	case 2: /* map for writing: bytes come home, then change */
		bring(d, 0, off, n);
		wrote(d, 0, off, n);
		break;
	case 3: { /* native launch: the whole buffer, part of it written */
		bring(d, dev, 0, SIZE);
		wrote(d, dev, off, n);
		break;
	}
	case 4: { /* paged launch: pages of 16 bytes into frames, some written */
		for (size_t p = off / 16 * 16; p < off + n; p += 16) {
			size_t len = p + 16 <= SIZE ? 16 : SIZE - p;
			bring(d, dev, p, len);
			if (rnd(2))
				wrote(d, dev, p, len);
		}
		break;
	}
	case 5: { /* eviction */
		size_t dirty = 0;
		for (size_t i = off; i < off + n; i++)
			dirty += (model[i] & VRT_LOC(dev)) && !(model[i] & 1);
		CHECK(vrt_dir_dirty_bytes(d, loc_id[dev], off, n) == dirty);
		CHECK(vrt_dir_evict(d, loc_id[dev], off, n, mover, NULL) == 0);
		for (size_t i = off; i < off + n; i++) {
			if (model[i] == VRT_LOC(dev)) {
				model[i] |= 1;
				bytes[0][i] = bytes[dev][i];
			}
			model[i] &= ~VRT_LOC(dev);
		}
		break;
	}
	case 6: { /* a drop: refused where dev is the only holder */
		int sole = 0;
		for (size_t i = off; i < off + n; i++)
			sole |= model[i] == VRT_LOC(dev);
		int r = vrt_dir_drop(d, loc_id[dev], off, n);
		CHECK(r == (sole ? -1 : 0));
		if (!sole)
			for (size_t i = off; i < off + n; i++)
				model[i] &= ~VRT_LOC(dev);
		break;
	}
	case 8: { /* released whatever it holds (a frame pool gone), registered anew */
		vrt_dir_release_loc(d, loc_id[dev]);
		for (size_t i = 0; i < SIZE; i++) {
			if (model[i] == VRT_LOC(dev))
				truth[i] = 0; /* its bytes are lost: the zeros */
			model[i] &= ~VRT_LOC(dev);
		}
		CHECK(!(d->used & VRT_LOC(loc_id[dev])));
		loc_id[dev] = vrt_dir_add_loc(d, loc_device[dev], loc_context[dev]);
		CHECK(loc_id[dev] > 0);
		break;
	}
	case 7: { /* a read of one byte: the holders the directory names */
		if (n) {
			vrt_locs want = 0, got = vrt_dir_holders(d, off, n);
			vrt_locs all = ~(vrt_locs)0;
			for (size_t i = off; i < off + n; i++)
				all &= model[i];
			for (int l = 0; l < LOCS; l++)
				if (all & VRT_LOC(l))
					want |= VRT_LOC(loc_id[l]);
			int zeros = 1;
			for (size_t i = off; i < off + n; i++)
				zeros &= !model[i];
			if (!zeros)
				CHECK(got == want);
		}
		break;
	}
	}
}

/* A random range's pages of 2^sh bytes from its start, read at once,
 * against the model page by page. */
static void compare_pages(const vrt_dir *d)
{
	size_t off, n;
	pick(&off, &n);
	unsigned sh = (unsigned)rnd(5);
	int l = rnd(LOCS);
	unsigned char out[SIZE + 1];
	size_t np = n ? ((n - 1) >> sh) + 1 : 0;
	out[np] = 0xee;
	vrt_dir_pages(d, loc_id[l], off, n, sh, out);
	CHECK(out[np] == 0xee); /* nothing written past the last page */
	for (size_t k = 0; k < np; k++) {
		size_t a = off + (k << sh), b = a + ((size_t)1 << sh);
		if (b > off + n)
			b = off + n;
		int held = 1, sole = 0;
		for (size_t i = a; i < b; i++) {
			held &= (model[i] & VRT_LOC(l)) != 0;
			sole |= model[i] == VRT_LOC(l);
		}
		CHECK(out[k] == ((held ? VRT_DIR_PAGE_HELD : 0) | (sole ? VRT_DIR_PAGE_SOLE : 0)));
	}
}

/* Locations registered, unregistered only when they hold nothing alone,
 * and their numbers reused. */
static void test_locations(void)
{
	vrt_dir d;
	CHECK(vrt_dir_init(&d, 10) == 0);
	int a = vrt_dir_add_loc(&d, 0, 0), b = vrt_dir_add_loc(&d, 1, 0);
	CHECK(a == 1 && b == 2);
	CHECK(vrt_dir_wrote(&d, a, 2, 3) == 0);
	CHECK(vrt_dir_remove_loc(&d, a) == -1);        /* sole holder of [2, 5) */
	CHECK(vrt_dir_remove_loc(&d, VRT_DIR_HOST) == -1);
	CHECK(vrt_dir_copied(&d, b, 0, 10) == 0);
	CHECK(vrt_dir_remove_loc(&d, a) == 0);
	CHECK(vrt_dir_holders(&d, 0, 10) == VRT_LOC(b));
	CHECK(vrt_dir_add_loc(&d, 3, 1) == a);
	CHECK(d.nrun == 1);
	for (int i = 3; i < VRT_DIR_MAX_LOCS; i++)
		CHECK(vrt_dir_add_loc(&d, i, 0) == i);
	CHECK(vrt_dir_add_loc(&d, 99, 0) == -1);
	vrt_dir_fini(&d);
}

/* forget discards even a sole copy (the range reads as zeros until
 * rewritten); reserved room keeps transitions from allocating. */
static void test_forget_reserve(void)
{
	vrt_dir d;
	CHECK(vrt_dir_init(&d, 100) == 0);
	int a = vrt_dir_add_loc(&d, 0, 0);
	CHECK(vrt_dir_wrote(&d, a, 10, 20) == 0);
	CHECK(vrt_dir_drop(&d, a, 0, 100) == -1);
	CHECK(vrt_dir_forget(&d, a, 0, 100) == 0);
	CHECK(d.nrun == 1 && d.run[0].valid == 0);
	CHECK(vrt_dir_remove_loc(&d, a) == 0);
	CHECK(vrt_dir_reserve(&d, 9) == 0 && d.cap == 11);
	vrt_dir_run *before = d.run;
	for (int i = 0; i < 4; i++)
		CHECK(vrt_dir_wrote(&d, VRT_DIR_HOST, (size_t)i * 20 + 5, 10) == 0);
	CHECK(d.nrun == 9 && d.run == before); /* no allocation */
	vrt_dir_fini(&d);
}

/* A large buffer touched in a few places keeps a few runs. */
static void test_large(void)
{
	vrt_dir d;
	size_t big = (size_t)96 << 30;
	CHECK(vrt_dir_init(&d, big) == 0);
	int g = vrt_dir_add_loc(&d, 0, 0);
	CHECK(vrt_dir_wrote(&d, VRT_DIR_HOST, 0, big) == 0);
	for (size_t p = 0; p < big; p += (size_t)1 << 30)
		CHECK(vrt_dir_copied(&d, g, p, (size_t)1 << 30) == 0);
	CHECK(d.nrun == 1 && d.run[0].valid == (VRT_LOC(0) | VRT_LOC(g)));
	CHECK(vrt_dir_wrote(&d, g, 4096, 4096) == 0);
	CHECK(d.nrun == 3);
	CHECK(vrt_dir_dirty_bytes(&d, g, 0, big) == 4096 && d.dirty[g] == 4096);
	vrt_dir_fini(&d);
}

int main(void)
{
	test_locations();
	test_forget_reserve();
	test_large();
	for (unsigned seed = 1; seed <= 300; seed++) {
		srand(seed);
		vrt_dir d;
		CHECK(vrt_dir_init(&d, SIZE) == 0);
		memset(truth, 0, sizeof truth);
		memset(bytes, 0xee, sizeof bytes);
		memset(model, 0, sizeof model);
		loc_id[0] = VRT_DIR_HOST;
		for (int l = 1; l < LOCS; l++)
			loc_id[l] = vrt_dir_add_loc(&d, loc_device[l], loc_context[l]);
		for (int s = 0; s < 60; s++) {
			step(&d);
			compare(&d);
			for (int k = 0; k < 4; k++)
				compare_pages(&d);
		}
		/* Everything comes home exact. */
		bring(&d, 0, 0, SIZE);
		compare(&d);
		vrt_dir_fini(&d);
	}
	CHECK(moves > 1000);
	CHECK(bad_source == 0);
	if (failures)
		fprintf(stderr, "test_rt_directory: %d failures\n", failures);
	return failures != 0;
}
