/* SPDX-License-Identifier: MIT */
/*
 * residency.c - which host pages the kept frame sets hold, so that pages
 * stay on the device from one launch to the next.
 *
 * After a paged launch the frames of its last ranges hold clean copies
 * of host pages: what was sent, or what the kernel wrote and was written
 * back. The frame pool keeps those buffers (framepool.c), and this map
 * says what is where: (buffer serial, page) -> (set, buffer, frame). It
 * is an index, not a record of validity: the frame's copy is current
 * where the memory directory says the pool's location holds the page's
 * bytes (poolloc.c; a host write makes it stale there by itself), and
 * newer than the host copy where the host does not hold them. The next
 * paged launch (paged/reuse.c) takes a page from its frame instead of the
 * host when it is current.
 *
 * Open addressing with linear probing, keyed by serial and page; serial
 * 0 marks an empty slot (mem.c's serials start at 1). Entries leave in
 * batches (vrt_res_drop_if: the frames a range is about to overwrite,
 * the pages it writes, every range of a paged launch), each by
 * backward-shift deletion: no tombstones, no allocation (a new table
 * each range cost a large calloc, its pages faulted in, per range), and
 * no work beyond the entry's cluster (re-inserting every entry after a
 * batch cost the H100's host ~1 ms a range with 18 K entries).
 * A second index says which entry lies in each frame (at[]), kept as
 * entries come, go and move: a range drops the entries of the frames it
 * refills by looking at those frames (vrt_res_drop_frames), not at every
 * entry of the map (16 K of them on the H200, a range's own ~1 K pages).
 * The paged path never puts two entries in one frame (a range drops a
 * frame's entry before it records another there); should it happen, or
 * indexing one run out of memory, the map is `crowded` and drops by frame
 * look at every entry, as before, until it is cleared or rebuilt.
 * Pure C: no OpenCL calls; the unit test drives it directly.
 */
#include <stdlib.h>
#include <string.h>

#include "mem/mem.h"

static size_t slot_of(const vrt_residency *r, unsigned long long serial, size_t page)
{
	unsigned long long h = serial * 0x9e3779b97f4a7c15ull ^ (page * 0xc2b2ae3d27d4eb4full);
	h ^= h >> 29;
	return (size_t)h & (r->cap - 1);
}

static vrt_resident *lookup(const vrt_residency *r, unsigned long long serial, size_t page)
{
	if (!r->cap)
		return NULL;
	for (size_t i = slot_of(r, serial, page);; i = (i + 1) & (r->cap - 1)) {
		vrt_resident *e = &r->tab[i];
		if (!e->serial || (e->serial == serial && e->page == page))
			return e;
	}
}

const vrt_resident *vrt_res_find(const vrt_residency *r, unsigned long long serial, size_t page)
{
	const vrt_resident *e = lookup(r, serial, page);
	return e && e->serial ? e : NULL;
}

/* Where the index of e's frame lives: its set's and buffer's array,
 * NULL for a set or buffer past the index. */
static uint32_t **frame_index(vrt_residency *r, const vrt_resident *e, size_t **n)
{
	if (e->set >= VRT_MAX_SETS || e->buf >= VAST_FRAME_BUFS)
		return NULL;
	size_t k = (size_t)e->set * VAST_FRAME_BUFS + e->buf;
	*n = &r->nat[k];
	return &r->at[k];
}

/* Slot i's entry e lies in its frame. */
static void index_put(vrt_residency *r, const vrt_resident *e, size_t i)
{
	size_t *n;
	uint32_t **at = frame_index(r, e, &n);
	if (!at || i >= UINT32_MAX) {
		r->crowded = 1;
		return;
	}
	if (e->frame >= *n) {
		size_t cap = *n ? *n : 64;
		while (cap <= e->frame)
			cap *= 2;
		uint32_t *w = vrt_realloc(*at, cap * sizeof *w);
		if (!w) {
			r->crowded = 1;
			return;
		}
		memset(w + *n, 0, (cap - *n) * sizeof *w);
		*at = w;
		*n = cap;
	}
	uint32_t k = (*at)[e->frame];
	if (k && k - 1 != i) {
		const vrt_resident *o = &r->tab[k - 1];
		if (o->serial && o->set == e->set && o->buf == e->buf && o->frame == e->frame)
			r->crowded = 1; /* two entries in one frame */
	}
	(*at)[e->frame] = (uint32_t)(i + 1);
}

/* Slot i's entry e leaves its frame (gone), or moves to slot j. */
static void index_move(vrt_residency *r, const vrt_resident *e, size_t i, size_t j, int gone)
{
	size_t *n;
	uint32_t **at = frame_index(r, e, &n);
	if (at && e->frame < *n && (*at)[e->frame] == i + 1)
		(*at)[e->frame] = gone ? 0 : (uint32_t)(j + 1);
}

/* Rebuilds the table with room for `cap` slots (a power of two). -1 when
 * out of memory (r unchanged). */
static int rebuild(vrt_residency *r, size_t cap)
{
	vrt_resident *old = r->tab;
	size_t ocap = r->cap;
	vrt_resident *tab = vrt_calloc(cap, sizeof *tab);
	if (!tab)
		return -1;
	r->tab = tab;
	r->cap = cap;
	r->n = 0;
	for (size_t k = 0; k < VRT_MAX_SETS * VAST_FRAME_BUFS; k++)
		if (r->at[k])
			memset(r->at[k], 0, r->nat[k] * sizeof *r->at[k]);
	r->crowded = 0;
	for (size_t i = 0; i < ocap; i++) {
		if (!old[i].serial)
			continue;
		vrt_resident *e = lookup(r, old[i].serial, old[i].page);
		*e = old[i];
		index_put(r, e, (size_t)(e - r->tab));
		r->n++;
	}
	vrt_free(old);
	return 0;
}

int vrt_res_put(vrt_residency *r, const vrt_resident *e)
{
	/* At most half full, so probes stay short and always end. */
	if ((r->n + 1) * 2 > r->cap && rebuild(r, r->cap ? r->cap * 2 : 64))
		return -1;
	vrt_resident *slot = lookup(r, e->serial, e->page);
	size_t i = (size_t)(slot - r->tab);
	if (slot->serial)
		index_move(r, slot, i, i, 1);
	r->n += !slot->serial;
	*slot = *e;
	index_put(r, slot, i);
	return 0;
}

/* Empties slot i, and moves back into it the entries after it in its
 * cluster whose probe from their home would otherwise cross the hole
 * (backward-shift deletion): every entry stays reachable, with no
 * tombstones and no work beyond the cluster. */
static void delete_at(vrt_residency *r, size_t i)
{
	size_t mask = r->cap - 1;
	index_move(r, &r->tab[i], i, i, 1);
	for (size_t j = (i + 1) & mask; r->tab[j].serial; j = (j + 1) & mask) {
		size_t home = slot_of(r, r->tab[j].serial, r->tab[j].page);
		/* j's entry stays where its home lies cyclically in (i, j] */
		if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
			continue;
		r->tab[i] = r->tab[j];
		index_move(r, &r->tab[i], j, i, 0);
		i = j;
	}
	r->tab[i].serial = 0;
}

void vrt_res_forget(vrt_residency *r, unsigned long long serial, size_t page)
{
	vrt_resident *e = lookup(r, serial, page);
	if (e && e->serial) {
		delete_at(r, (size_t)(e - r->tab));
		r->n--;
	}
}

void vrt_res_drop_if(vrt_residency *r, int (*gone)(const vrt_resident *, void *), void *ctx)
{
	/* An entry moved back into slot i by a deletion is looked at
	 * again there: it comes from later in the cluster, not yet seen, or
	 * (a cluster wrapping past the table's end) was seen and kept, and
	 * `gone` answers the same again. */
	for (size_t i = 0; i < r->cap;) {
		if (r->tab[i].serial && gone(&r->tab[i], ctx)) {
			delete_at(r, i);
			r->n--;
			continue;
		}
		i++;
	}
}

/* drop_frames' question, where it looks at every entry. */
typedef struct in_frames {
	unsigned set, buf;
	size_t first, count;
	int (*gone)(const vrt_resident *, void *);
	void *ctx;
} in_frames;

static int gone_in_frames(const vrt_resident *e, void *ctx)
{
	const in_frames *f = ctx;
	return e->set == f->set && e->buf == f->buf && e->frame >= f->first &&
	       e->frame - f->first < f->count && f->gone(e, f->ctx);
}

void vrt_res_drop_frames(vrt_residency *r, unsigned set, unsigned buf, size_t first, size_t count,
                         int (*gone)(const vrt_resident *, void *), void *ctx)
{
	vrt_resident probe = {1, 0, set, buf, first};
	size_t *n;
	uint32_t **at = frame_index(r, &probe, &n);
	if (!r->n)
		return;
	if (r->crowded || !at) {
		in_frames f = {set, buf, first, count, gone, ctx};
		vrt_res_drop_if(r, gone_in_frames, &f);
		return;
	}
	size_t end = first + count < *n ? first + count : *n;
	for (size_t f = first; f < end; f++) {
		/* a deletion moves entries, never into a frame's index */
		uint32_t k = (*at)[f];
		if (k && gone(&r->tab[k - 1], ctx)) {
			delete_at(r, k - 1);
			r->n--;
		}
	}
}

void vrt_res_clear(vrt_residency *r)
{
	vrt_free(r->tab);
	r->tab = NULL;
	r->cap = r->n = 0;
	for (size_t k = 0; k < VRT_MAX_SETS * VAST_FRAME_BUFS; k++) {
		vrt_free(r->at[k]);
		r->at[k] = NULL;
		r->nat[k] = 0;
	}
	r->crowded = 0;
}
