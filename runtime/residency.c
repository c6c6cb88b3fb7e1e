/* SPDX-License-Identifier: MIT */
/*
 * residency.c - which host pages the kept frame sets hold (issue 10,
 * "pages that stay on the device").
 *
 * After a paged launch the frames of its last ranges hold clean copies
 * of host pages: what was sent, or what the kernel wrote and was written
 * back. The frame pool keeps those buffers (framepool.c), and this map
 * says what is where: (buffer serial, page) -> (set, buffer, frame) and
 * the buffer's write version when the frame got its bytes. The next
 * paged launch (paged.c) takes a page from its frame instead of the host
 * when the version still matches: the host bytes did not change since.
 *
 * Open addressing with linear probing, keyed by serial and page; serial
 * 0 marks an empty slot (mem.c's serials start at 1). Entries leave in
 * batches (vrt_res_drop_if: the frames a range is about to overwrite,
 * the pages it writes), so a batch rebuilds the table: no tombstones.
 * Pure C: no OpenCL calls; the unit test drives it directly.
 */
#include <string.h>

#include "vrt.h"

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

/* Rebuilds the table with room for `cap` slots (a power of two), keeping
 * the entries `keep` says stay. -1 when out of memory (r unchanged). */
static int rebuild(vrt_residency *r, size_t cap, int (*gone)(const vrt_resident *, void *),
                   void *ctx)
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
		if (!old[i].serial || (gone && gone(&old[i], ctx)))
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
	if ((r->n + 1) * 2 > r->cap && rebuild(r, r->cap ? r->cap * 2 : 64, NULL, NULL))
		return -1;
	vrt_resident *slot = lookup(r, e->serial, e->page);
	r->n += !slot->serial;
	*slot = *e;
	return 0;
}

void vrt_res_drop_if(vrt_residency *r, int (*gone)(const vrt_resident *, void *), void *ctx)
{
	if (!r->n)
		return;
	if (rebuild(r, r->cap, gone, ctx)) {
		/* No room to rebuild: forgetting everything is as exact. */
		vrt_res_clear(r);
	}
}

void vrt_res_clear(vrt_residency *r)
{
	vrt_free(r->tab);
	r->tab = NULL;
	r->cap = r->n = 0;
}
