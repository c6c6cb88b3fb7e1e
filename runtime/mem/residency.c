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
	for (size_t i = 0; i < ocap; i++) {
		if (!old[i].serial)
			continue;
		*lookup(r, old[i].serial, old[i].page) = old[i];
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
	r->n += !slot->serial;
	*slot = *e;
	return 0;
}

/* Empties slot i, and moves back into it the entries after it in its
 * cluster whose probe from their home would otherwise cross the hole
 * (backward-shift deletion): every entry stays reachable, with no
 * tombstones and no work beyond the cluster. */
static void delete_at(vrt_residency *r, size_t i)
{
	size_t mask = r->cap - 1;
	for (size_t j = (i + 1) & mask; r->tab[j].serial; j = (j + 1) & mask) {
		size_t home = slot_of(r, r->tab[j].serial, r->tab[j].page);
		/* j's entry stays where its home lies cyclically in (i, j] */
		if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
			continue;
		r->tab[i] = r->tab[j];
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

void vrt_res_clear(vrt_residency *r)
{
	vrt_free(r->tab);
	r->tab = NULL;
	r->cap = r->n = 0;
}
